"""A local workspace whose files can't be read: the window says what is wrong and offers a
fresh one, keeping the damaged files aside (nothing of the operator's is deleted)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.connect.embedded import (
    SERVER_LOG_FILE,
    local_workspace_paths,
    seed_local_workspace,
    server_refusal,
)
from tests.window_steps import WindowFactory
from widgets.window.main_window import MainWindow

TIMEOUT = 15_000
GARBAGE = b"these bytes were a database once " * 64


def damage(data: Path, which: str) -> bytes:
    """Seed the local workspace, then spoil its database or its workspace file."""
    seed_local_workspace(data)
    workspace, db = local_workspace_paths(data)
    if which == "database":
        db.write_bytes(GARBAGE)
        return GARBAGE
    workspace.write_text("{ not json", encoding="utf-8")
    return b"{ not json"


def start_and_wait_for_the_offer(qtbot, window: MainWindow):
    window.start(None)
    qtbot.waitUntil(lambda: window.start_up.damaged_dialog is not None, timeout=TIMEOUT)
    return window.start_up.damaged_dialog


@pytest.mark.parametrize(
    ("which", "reason"),
    [("database", "file is not a database"), ("workspace", "is not valid JSON")],
)
def test_a_damaged_local_workspace_is_named_and_a_fresh_one_offered(
    qtbot, make_window: WindowFactory, fresh_home: Path, which: str, reason: str
) -> None:
    data = fresh_home / "data"
    spoiled = damage(data, which)
    window = make_window()
    dialog = start_and_wait_for_the_offer(qtbot, window)
    text = dialog.message_label.text()
    assert reason in text and "fresh local workspace" in text
    assert "EmbeddedError" not in text and "Something" not in text
    assert dialog.message_label.textFormat() == Qt.TextFormat.PlainText

    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        dialog.fresh_button.click()
    kept = [p for p in data.glob("set-aside-*/*") if p.read_bytes() == spoiled]
    assert len(kept) == 1, "the damaged file is kept aside, not deleted"
    assert any("kept in" in text for text, _ in window.messages.history)
    assert window.connection is not None and window.connection.local


def test_return_in_the_offer_moves_nothing(qtbot, make_window: WindowFactory, fresh_home) -> None:
    data = fresh_home / "data"
    damage(data, "database")
    window = make_window()
    dialog = start_and_wait_for_the_offer(qtbot, window)
    assert dialog.close_button.isDefault()
    qtbot.waitUntil(
        lambda: dialog.close_button.hasFocus() or not dialog.isVisible(), timeout=TIMEOUT
    )
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.start_up.damaged_dialog is None, timeout=TIMEOUT)
    assert not list(data.glob("set-aside-*")), "Return is Close: no files moved"
    assert local_workspace_paths(data)[1].read_bytes() == GARBAGE


def test_the_servers_refusal_is_read_from_this_starts_lines_only(tmp_path: Path) -> None:
    log = tmp_path / SERVER_LOG_FILE
    log.write_text("taskdesk: cannot open database old.sqlite3: an earlier start\n")
    start = log.stat().st_size
    assert server_refusal(log, start) is None  # nothing written since: no stale reason
    with log.open("a") as more:
        more.write("Traceback-free noise\ntaskdesk: workspace file w.json is not valid JSON\n")
    assert server_refusal(log, start) == "workspace file w.json is not valid JSON"
