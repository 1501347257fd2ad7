"""Write PNGs of notes with their blast radius, light and dark: who uses a note, the impact
of an edit with agents pushed over the budget, and the Move to a note dialog.

Runs a reference server of the demo workspace in this process, signs in as its operator Ann,
and drives the window. Run from the project root:
`.venv/bin/python docs/make_notes_screenshots.py` (offscreen by default).
"""

from __future__ import annotations

from pathlib import Path

from shot_kit import Shots, fresh_home

SIZE = (1400, 860)
STYLE = "org/o_acme/style-guide.md"
LONG_RULES = "".join(
    f"- Rule {n}: answer in the customer's own words, briefly.\n" for n in range(1300)
)


def main() -> int:
    home = fresh_home("taskdesk-notes-shots-")
    from widgets.common.theme import DARK, LIGHT

    for theme, suffix in ((LIGHT, ""), (DARK, "-dark")):
        shoot(home, theme, suffix)
    return 0


def shoot(home: Path, theme: object, suffix: str) -> None:
    """The three pictures in one look (``theme``), named with ``suffix``."""
    from itertools import pairwise

    from PySide6.QtGui import QTextCursor

    from app.core.resource_files import resource
    from app.server import start_server
    from widgets.common.theme import Theme, apply_theme
    from widgets.dialogs.connect import ConnectRequest
    from widgets.notes.move_to_note import SAME
    from widgets.window.main_window import MainWindow

    assert isinstance(theme, Theme)
    shots = Shots("make_notes_screenshots", suffix=suffix)
    apply_theme(shots.app, theme)
    wait_until, save = shots.wait_until, shots.save
    server = start_server(resource("demo_workspace.json"), home / f"server{suffix}.sqlite3")
    window = MainWindow(data_dir=home / f"data{suffix}")
    try:
        window.resize(*SIZE)
        window.show()
        window.connect_to(ConnectRequest(server.url, "ann-secret", remember=False))
        wait_until("the first Task", lambda: window.task_tab.agent is not None)
        tab = window.task_tab
        wait_until("the preview", lambda: tab.last_preview is not None)

        # Who uses the style guide, in its preview.
        tab.links.on_embed_clicked(STYLE)
        wait_until("the note", lambda: tab.links.note_actions is not None)
        actions = tab.links.note_actions
        assert actions is not None
        wait_until("used-by", lambda: actions.used_by.model.rowCount() > 0)
        actions.dialog.resize(760, 620)
        save(window, "screenshot-notes-used-by.png", overlay=actions.dialog)

        # The impact of an edit that pushes agents over the 64 KB budget.
        actions.on_edit()
        editor = actions.editor
        assert editor is not None
        wait_until("the note's text", lambda: editor.session.doc is not None)
        editor.editor.set_text(editor.editor.text() + "\n## House rules\n" + LONG_RULES)
        editor.on_check()
        wait_until("the impact", lambda: editor.impact.model.rowCount() > 0)
        editor.impact.table.selectRow(0)
        editor.resize(1100, 720)
        actions.dialog.close()
        save(window, "screenshot-notes-impact.png", overlay=editor, left=150)
        editor.close()

        # Move to a note: the open Task's first section without an embed.
        tab.set_mode_edit(True)
        text = tab.editor.toPlainText()
        starts = [i for i in range(len(text)) if text.startswith("\n## ", i)] + [len(text)]
        start, end = next((a + 1, b + 1) for a, b in pairwise(starts) if "![[" not in text[a:b])
        cursor = tab.editor.textCursor()
        cursor.setPosition(start)
        cursor.setPosition(min(end, len(text)), QTextCursor.MoveMode.KeepAnchor)
        tab.editor.setTextCursor(cursor)
        window.actions_.move_to_note.trigger()
        dialog = tab.task_commands.move_to_note.dialog
        assert dialog is not None
        wait_until("the check", lambda: dialog.check_label.text() == SAME)
        save(window, "screenshot-notes-move.png", overlay=dialog)
        dialog.reject()
    finally:
        window._closing_confirmed = True
        window.close()
        window.shutdown()
        server.stop()


if __name__ == "__main__":
    raise SystemExit(main())
