"""The over-limit message names an amount the operator can act on, at the edge too."""

from __future__ import annotations

import pytest

from app.core.limits import TASK_MAX_BYTES
from app.desk.session_messages import too_large


@pytest.mark.parametrize(
    ("over", "cut"),
    [(1, "Cut at least 1 byte "), (10, "Cut at least 10 bytes "), (1023, "1,023 bytes ")],
)
def test_a_task_just_over_the_limit_is_told_in_bytes(over: int, cut: str) -> None:
    text = too_large(TASK_MAX_BYTES + over).text
    assert cut in text, text
    assert f"The Task is {TASK_MAX_BYTES + over:,} bytes" in text
    assert "0.0 KB" not in text and "256.0 KB" not in text


@pytest.mark.parametrize(("over", "cut"), [(1024, "1.0 KB"), (1025, "1.1 KB"), (10_240, "10.0 KB")])
def test_a_task_well_over_is_told_in_kb_rounded_up(over: int, cut: str) -> None:
    text = too_large(TASK_MAX_BYTES + over).text
    assert f"Cut at least {cut} " in text, text
