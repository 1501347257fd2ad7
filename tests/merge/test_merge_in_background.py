"""Merges off the GUI thread through the app's runner: a newer request replaces an older one."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.core.cancel import CancelledError, CancelToken, NewestRequest
from app.core.merge import MergeResult, merge_texts
from app.desk.runner import Runner

TIMEOUT = 30_000


def test_the_newest_merge_wins_and_the_older_one_stops(qtbot: QtBot) -> None:
    runner = Runner()
    requests = NewestRequest()
    base = "".join(f"- rule {n}: keep replies short\n" for n in range(20_000))
    outcomes: dict[str, object] = {}

    def endless(token: CancelToken) -> MergeResult:
        # Far more work than the test waits for: only a cancel can end it.
        while True:
            merge_texts(base, base + "theirs\n", "mine\n" + base, cancel=token)

    older = requests.start()
    runner.submit(
        lambda: endless(older),
        on_done=lambda result: outcomes.setdefault("older", result),
        on_error=lambda exc: outcomes.setdefault("older", exc),
    )
    newer = requests.start()  # the operator changed the text: ask again
    runner.submit(
        lambda: merge_texts("a\nb\n", "a\nB\n", "A\nb\n", cancel=newer),
        on_done=lambda result: outcomes.setdefault("newer", result),
        on_error=lambda exc: outcomes.setdefault("newer", exc),
    )
    qtbot.waitUntil(lambda: len(outcomes) == 2, timeout=TIMEOUT)
    assert isinstance(outcomes["older"], CancelledError)
    newest = outcomes["newer"]
    assert isinstance(newest, MergeResult) and newest.text == "A\nB\n"
    assert requests.is_current(newer) and not requests.is_current(older)
    assert runner.shutdown()
