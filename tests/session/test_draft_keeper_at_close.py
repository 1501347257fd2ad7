"""A draft timer that fires as the window closes (its runner already shut down) still keeps
the text: the write happens there and then instead of raising on the closed runner."""

from __future__ import annotations

from pathlib import Path

from app.desk.draft_keeper import DraftKeeper
from app.desk.runner import Runner
from app.store import LocalStore


def test_a_draft_written_after_the_runner_shut_down_lands(qapp, tmp_path: Path) -> None:
    store = LocalStore(tmp_path / "store.sqlite3")
    runner = Runner()
    failures: list[object] = []
    keeper = DraftKeeper(
        store=store, runner=runner, server_key="srv", on_due=lambda: None,
        on_failure=failures.append,
    )  # fmt: skip
    keeper.note_keystroke()
    runner.shutdown()
    keeper.write("a_scout", "Typed as the window closed.", 3, "Scout")
    draft = store.get_draft("srv", "a_scout")
    assert draft is not None and draft.text == "Typed as the window closed."
    keeper.remove("a_scout", "Typed as the window closed.")
    assert store.get_draft("srv", "a_scout") is None
    assert failures == []
