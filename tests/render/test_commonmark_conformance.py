"""The preview renders the CommonMark spec's own examples as the spec says."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from app.render import render_markdown
from tests.figures import TEXT_KEY
from tests.render.commonmark_spec import LEFT_OUT, SpecExample, normalise, spec_examples

EXAMPLES = spec_examples()
PASS_MARK = 0.95


def _matches(example: SpecExample) -> bool:
    return normalise(render_markdown(example.markdown)) == normalise(example.html)


def test_the_preview_matches_the_commonmark_spec(
    record_property: Callable[[str, object], None],
) -> None:
    total: Counter[str] = Counter()
    passed: Counter[str] = Counter()
    failed: list[int] = []
    for example in EXAMPLES:
        total[example.section] += 1
        if _matches(example):
            passed[example.section] += 1
        else:
            failed.append(example.number)
    share = sum(passed.values()) / len(EXAMPLES)
    lines = [f"CommonMark 0.29 conformance (left out: {', '.join(sorted(LEFT_OUT))})"]
    lines += [f"  {section:<30} {passed[section]:>3}/{count}" for section, count in total.items()]
    lines.append(f"  {'total':<30} {sum(passed.values()):>3}/{len(EXAMPLES)} = {share:.1%}")
    # Printed with the run's figures (tests/figures.py), also from a parallel worker.
    record_property(TEXT_KEY, "\n".join(lines))
    assert len(EXAMPLES) == 440
    assert share >= PASS_MARK, f"examples not matching: {failed}"
    for section, count in total.items():
        assert passed[section] / count >= PASS_MARK or count - passed[section] <= 1, section


@pytest.mark.parametrize(
    "example",
    [e for e in EXAMPLES if e.section in {"Lists", "List items", "Fenced code blocks"}],
    ids=lambda e: f"{e.section}-{e.number}",
)
def test_list_and_fence_examples_match_one_by_one(example: SpecExample) -> None:
    # The sections the preview got most wrong before CommonMark, checked one by one so a
    # regression names its example.
    assert normalise(render_markdown(example.markdown)) == normalise(example.html)
