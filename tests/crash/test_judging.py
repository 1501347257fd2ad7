"""The crash judge itself: it must call lost text lost, and a wrong offer wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.crash.crash_rounds import Expected, Keystroke, judge, read_keylog

EXPECTED = Expected("a_scout", "Scout", 3)
WALL = 1_800_000_000.0  # wall clock minus monotonic clock, made up


def keylog(*times: float) -> list[Keystroke]:
    return [Keystroke(t, n, f"sha{n}", None if n == 0 else "x") for n, t in enumerate(times)]


def offer(sha: str, *, saved_mono: float, **changes: Any) -> dict[str, Any]:
    saved = WALL + saved_mono
    fields: dict[str, Any] = {
        "event": "offer",
        "agent_id": "a_scout",
        "base_version": 3,
        "saved_at": f"{_iso(saved)}",
        "banner": "Unsaved edits to Scout's Task were kept (just now, based on v3).",
        "banner_time": "Sunday 29 November 2026, 20:44:40 UTC",
        "sha": sha,
        "length": 10,
    }
    fields.update(changes)
    return fields


def _iso(seconds: float) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


def recovered(sha: str) -> dict[str, Any]:
    return {"event": "recovered", "sha": sha, "dirty": True, "banner_hidden": True}


LOG = keylog(10.0, 10.1, 10.2, 10.3, 11.5, 11.6)


def test_a_draft_from_the_last_second_passes_with_its_lag_and_age() -> None:
    verdict = judge(1, LOG, 11.65, 2.0, offer("sha4", saved_mono=11.55), recovered("sha4"),
                    EXPECTED, WALL)  # fmt: skip
    assert verdict.ok, verdict.problems
    assert round(verdict.keystroke_lag_s or 0, 3) == 0.15
    assert round(verdict.text_age_s or 0, 3) == 0.05


def test_text_the_editor_never_held_is_lost() -> None:
    verdict = judge(1, LOG, 11.65, 2.0, offer("other", saved_mono=11.0), recovered("other"),
                    EXPECTED, WALL)  # fmt: skip
    assert verdict.lost and any(p.startswith("lost") for p in verdict.problems)


def test_text_older_than_a_second_is_lost() -> None:
    # sha3 was the editor's text until 11.5; the kill came at 12.6, 1.1 s later.
    verdict = judge(1, LOG, 12.6, 2.0, offer("sha3", saved_mono=10.9), recovered("sha3"),
                    EXPECTED, WALL)  # fmt: skip
    assert verdict.lost
    assert round(verdict.text_age_s or 0, 3) == 1.1


def test_without_a_limit_the_age_is_measured_not_judged() -> None:
    verdict = judge(1, LOG, 12.6, 2.0, offer("sha3", saved_mono=10.9), recovered("sha3"),
                    EXPECTED, WALL, max_text_age_s=None)  # fmt: skip
    assert verdict.problems == []
    assert round(verdict.text_age_s or 0, 3) == 1.1


def test_an_offer_must_name_the_agent_the_base_version_and_a_time() -> None:
    wrong = offer("sha4", saved_mono=11.55, base_version=2, banner="Unsaved edits were kept.",
                  saved_at="", banner_time="")  # fmt: skip
    verdict = judge(1, LOG, 11.65, 2.0, wrong, recovered("sha4"), EXPECTED, WALL)
    assert not verdict.lost
    assert len(verdict.problems) == 3, verdict.problems


def test_an_offer_saved_after_the_kill_is_wrong() -> None:
    verdict = judge(1, LOG, 11.65, 2.0, offer("sha4", saved_mono=15.0), recovered("sha4"),
                    EXPECTED, WALL)  # fmt: skip
    assert any("time" in p for p in verdict.problems)


def test_recover_must_put_the_offered_text_in_the_editor() -> None:
    verdict = judge(1, LOG, 11.65, 2.0, offer("sha4", saved_mono=11.55), recovered("sha3"),
                    EXPECTED, WALL)  # fmt: skip
    assert verdict.problems == ["Recover did not put the offered text in the editor"]


def test_a_key_log_line_cut_short_by_the_kill_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "keylog.txt"
    path.write_text('10.5 4 abcd null\n10.6 5 abce "x"\n10.7 6 ab', encoding="utf-8")
    assert [k.length for k in read_keylog(path)] == [4, 5]
