"""A CRLF Task saved from the window keeps CRLF: only the edited line changes."""

from __future__ import annotations

import json

from tests.interop.steps import connect, open_by_id
from tests.spec_server import CRLF_TASK, SpecServer
from tests.window_steps import LOAD_TIMEOUT_MS, saved, type_at_end
from widgets.window.main_window import MainWindow


def test_a_crlf_task_is_saved_with_crlf_and_only_the_edit_changes(
    qtbot, make_window, spec_server: SpecServer
) -> None:
    window: MainWindow = make_window()
    connect(qtbot, window, spec_server.url)
    open_by_id(qtbot, window, "a_clerk")
    tab = window.task_tab
    assert tab.editor.text() == CRLF_TASK
    assert not tab.has_unsaved()  # the editor's own line breaks are no edit
    window.actions_.edit.trigger()
    editor = tab.editor
    cursor = editor.textCursor()
    cursor.setPosition(editor.toPlainText().index("forms.") + len("forms."))
    editor.setTextCursor(cursor)
    qtbot.keyClicks(editor, " Edit one.")
    type_at_end(qtbot, window, "New line.")
    window.actions_.save.trigger()
    qtbot.waitUntil(lambda: saved(window), timeout=LOAD_TIMEOUT_MS)
    (put,) = spec_server.seen("PUT", "/a_clerk/files/task.md")
    sent = json.loads(put.body)["content"]
    assert sent == "# Clerk\r\n\r\nFile the forms. Edit one.\r\nCheck the totals.\r\nNew line."
    assert spec_server.agents["a_clerk"].revisions[0].content == CRLF_TASK
