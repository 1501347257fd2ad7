"""Figures tests measure and print, never assert: timings belong in bench/, not in a verdict.

A test asks for the ``figure`` fixture and records ``figure("GUI stall", 12, "ms")``; the end
of the run prints each figure's count, median and worst (with the test that gave the worst).
The figures travel on the test reports, so they reach the summary from xdist workers too.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import pytest

Figure = Callable[[str, float, str], None]
_KEY = "figure"
TEXT_KEY = "figure_text"
"""A user property whose value, a table in words (a conformance figure), is printed as is."""


@pytest.fixture
def figure(request: pytest.FixtureRequest) -> Figure:
    """Record a measured value under ``name`` (with its ``unit``) for the end-of-run summary."""

    def record(name: str, value: float, unit: str) -> None:
        request.node.user_properties.append((_KEY, (name, float(value), unit)))

    return record


def pytest_terminal_summary(terminalreporter: Any) -> None:
    found: dict[tuple[str, str], list[tuple[float, str]]] = defaultdict(list)
    texts: list[str] = []
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) != "call":
                continue
            for key, value in getattr(report, "user_properties", ()):
                if key == _KEY:
                    name, number, unit = value
                    found[(name, unit)].append((number, report.nodeid))
                elif key == TEXT_KEY:
                    texts.append(str(value))
    if not found and not texts:
        return
    terminalreporter.section("figures (measured, not asserted)")
    for text in texts:
        terminalreporter.write_line(text)
    for (name, unit), rows in sorted(found.items()):
        worst, where = max(rows)
        median = statistics.median(number for number, _ in rows)
        terminalreporter.write_line(
            f"{name}: {len(rows)} measured, median {median:.4g} {unit}, "
            f"worst {worst:.4g} {unit} ({where})"
        )
