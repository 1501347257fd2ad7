"""A diff's size as a reader counts it: a replaced line is a changed line (Restore's summary
said "1 line added, 5 lines removed" for one changed line and four removed)."""

from __future__ import annotations

from app.core.diff_model import LineCounts, build_diff
from widgets.dialogs.confirm import diff_summary


def test_one_changed_line_and_four_removed() -> None:
    live, old = "a\nb\nc\nd\ne\nf\n", "a\nB\n"
    counts = build_diff(live, old).line_counts
    assert counts == LineCounts(changed=1, added=0, removed=4)
    assert diff_summary(counts) == "Compared with the live Task: 1 line changed, 4 removed."


def test_added_only_and_the_same() -> None:
    assert diff_summary(build_diff("a\n", "a\nb\nc\n").line_counts) == (
        "Compared with the live Task: 2 lines added."
    )
    assert diff_summary(build_diff("a\n", "a\n").line_counts) == "The texts are the same."


def test_changed_added_and_removed_in_separate_places() -> None:
    counts = build_diff("a\nb\nc\nd\n", "A\nb\nc\nd\ne\n").line_counts
    assert counts == LineCounts(changed=1, added=1, removed=0)
    assert diff_summary(counts) == "Compared with the live Task: 1 line changed, 1 added."
