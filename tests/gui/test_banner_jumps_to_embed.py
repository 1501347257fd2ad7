"""An entry of the unreachable-embeds banner goes to the embed's line in the editor, as
References does (it only offered the note, which can't be reached anyway)."""

from __future__ import annotations

from tests.window_steps import LOAD_TIMEOUT_MS
from widgets.window.main_window import MainWindow

RETIRED = "org/o_acme/guilds/guild_ops/retired-playbook.md"  # missing: a marker in Scout's run


def _choose(banner, path: str) -> None:  # type: ignore[no-untyped-def]
    row = next(i for i, line in enumerate(banner.lines()) if line.startswith(f"{path} "))
    index = banner.list_model.index(row, 0)
    banner.list_view.setCurrentIndex(index)
    banner.list_view.activated.emit(index)  # Enter or a double-click on the entry


def test_a_banner_entry_goes_to_the_embeds_line(qtbot, window: MainWindow) -> None:
    tab = window.task_tab  # Scout
    banner = tab.unreachable_banner
    qtbot.waitUntil(lambda: banner.isVisible() and bool(banner.lines()), timeout=LOAD_TIMEOUT_MS)
    _choose(banner, RETIRED)
    editor = tab.editor
    qtbot.waitUntil(editor.isVisible, timeout=LOAD_TIMEOUT_MS)
    at = editor.toPlainText().index(f"![[{RETIRED}")
    assert editor.textCursor().position() == at
    assert editor.hasFocus()
    rect = editor.cursorRect()
    assert rect.top() >= 0 and rect.bottom() <= editor.viewport().height()
    assert tab.links.note_dialog is None  # not the note: its line


def test_an_entry_at_hop_2_goes_to_the_tasks_embed_of_its_note(qtbot, window: MainWindow) -> None:
    tab = window.task_tab
    banner = tab.unreachable_banner
    qtbot.waitUntil(lambda: banner.isVisible() and bool(banner.lines()), timeout=LOAD_TIMEOUT_MS)
    _choose(banner, "org/o_acme/guilds/guild_ops/retired.md")  # in the runbook, at hop 2
    qtbot.waitUntil(tab.editor.isVisible, timeout=LOAD_TIMEOUT_MS)
    runbook = tab.editor.toPlainText().index("![[org/o_acme/guilds/guild_ops/runbook.md")
    assert tab.editor.textCursor().position() == runbook
