"""Write PNGs of Taskdesk's main states to docs/, from the demo workspace on a temporary server.

Run from the project root: `.venv/bin/python docs/make_screenshots.py [NAME.png …]` (offscreen by
default; with names, only those files are written).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from shot_kit import Shots, fresh_home

SIZE = (1280, 800)

# Markdown as operators write it elsewhere: a list right after a line of text, a list nested
# by two spaces, a task list and a table, which the preview renders as GitHub does.
MARKDOWN_TASK = """\
# Support triage

Rules:
- Answer in the customer's language
- Escalate when:
  - a refund is over 500 EUR
  - the customer asked twice

Before closing a ticket:
- [x] the customer confirmed the fix
- [ ] the ticket is tagged

| Priority | First reply within | Who |
| :--- | ---: | --- |
| Urgent | 1 hour | on-call |
| Normal | 1 working day | ~~anyone~~ the queue |

Runbook: https://example.com/runbook
"""


def main() -> int:
    home = fresh_home("taskdesk-shots-")
    from PySide6.QtGui import QTextCursor

    from widgets.window.main_window import MainWindow

    shots = Shots("make_screenshots", wanted=sys.argv[1:])
    wait_until, save = shots.wait_until, shots.save

    window = MainWindow(data_dir=home / "data")
    window.resize(*SIZE)
    window.show()
    window.start(None)  # no server configured: the embedded default
    wait_until(
        "the first Task",
        lambda: window.task_tab.agent is not None and not window.task_tab.state.loading,
    )
    tab = window.task_tab
    wait_until("the preview", lambda: bool(tab.preview.pane.toPlainText().strip()))
    save(window, "screenshot-preview.png")

    tab.set_mode_edit(True)
    tab.editor.moveCursor(QTextCursor.MoveOperation.Start)
    save(window, "screenshot-edit.png")

    # Versions and the conflict on the agent with the longest history.
    from app.client import TaskdeskClient
    from app.core.merge import Resolution

    assert window.connection is not None
    with TaskdeskClient(window.connection.url, window.connection.token) as me:
        agent_id = max(window.agent_model.agent_ids(), key=lambda a: len(me.get_task(a).revisions))
    if tab.agent is None or tab.agent.id != agent_id:
        window.on_agent_chosen(agent_id)
        wait_until(
            "the agent",
            lambda: (
                tab.agent is not None
                and tab.agent.id == agent_id
                and tab.state.live is not None
                and tab.state.live.agent_id == agent_id
            ),
        )
    tab.set_mode_edit(True)
    window.actions_.versions.trigger()
    panel = tab.versions
    if panel.model.rowCount() > 1:
        panel.select_row(1)
        panel.compare_button.click()
        wait_until("the diff", lambda: panel.diff_view.model.change_count > 0)
        panel.diff_view.go_to_change(0)  # chosen: "Take this change from vN" is offered
    save(window, "screenshot-versions.png")
    window.actions_.versions.trigger()

    # A conflict: another operator of the demo saves while this one edits.
    from app.connect.embedded import local_workspace_paths
    from app.core.workspace import load_workspace

    workspace = load_workspace(local_workspace_paths(home / "data")[0])
    operators = [p for p in workspace.people if p.type == "operator"]
    if len(operators) > 1 and window.connection is not None:
        # One clean change on each side (different bullets) and one true conflict (both
        # add to one bullet): the conflict banner, the compare, then the merge view.
        with TaskdeskClient(window.connection.url, operators[1].token) as other:
            live = other.get_task(agent_id)
            bullets = [line for line in live.content.splitlines() if line.startswith("- ")]
            theirs = live.content.replace(bullets[0], bullets[0] + " Keep it short.", 1)
            theirs = theirs.replace(bullets[3], bullets[3] + " Skim long threads.", 1)
            other.put_task(agent_id, theirs, live.version)
        mine = tab.editor.text().replace(bullets[2], bullets[2] + " Name the source.", 1)
        mine = mine.replace(bullets[3], bullets[3] + " Read the attachments too.", 1)
        tab.editor.selectAll()
        tab.editor.insertPlainText(mine)
        window.actions_.save.trigger()
        wait_until("the conflict", lambda: tab.conflict_banner.isVisible())
        save(window, "screenshot-conflict.png")
        tab.conflict_banner.compare_button.click()
        dialog = tab.conflict_flow.compare_dialog
        if dialog is not None:
            wait_until("the comparison", lambda: dialog.diff_view.model.change_count > 0)
            dialog.resize(1100, 600)
            save(window, "screenshot-compare.png", overlay=dialog)
            tab.conflict_flow.close_compare()
        tab.conflict_banner.merge_button.click()
        wait_until("the merge", lambda: tab.merge_flow.active)
        tab.merge_flow.go_to_conflict(0)
        save(window, "screenshot-merge.png")
        tab.banners.merge_banner.take_buttons[Resolution.MINE_THEN_THEIRS].click()
        window.actions_.save.trigger()
        wait_until("the save", lambda: not tab.has_unsaved())
    else:
        print("make_screenshots: the demo has one operator; no conflict screenshot")

    wait_until("the notes to insert", lambda: tab.editor.embeddable_model.rowCount() > 0)
    window.actions_.insert_note.trigger()
    picker = tab.insert_dialogs.picker
    assert picker is not None
    save(window, "screenshot-picker.png", overlay=picker)
    picker.reject()

    tab.set_mode_edit(True)
    tab.editor.setPlainText(MARKDOWN_TASK)
    tab.set_mode_edit(False)
    wait_until("the Markdown preview", lambda: "Runbook" in tab.preview.pane.toPlainText())
    save(window, "screenshot-markdown.png")

    prose_compare(workspace.agent("a_responder").live_task, save)

    window._closing_confirmed = True
    window.close()
    window.shutdown()
    return 0


def prose_compare(task: str, save: Callable[..., None]) -> None:
    """The compare view on prose: a Task beside a copy edited in two places, so long lines
    wrap on both sides and the unchanged middle folds."""
    from widgets.versions.diff_view import DiffView

    edited = task.replace("within the hour", "within thirty minutes").replace(
        "A daily count of tickets closed",
        "A daily count of tickets closed, reopened",
    )
    view = DiffView()
    view.resize(1100, 560)
    view.set_texts(task, edited, "v3", "v4 (live)")
    view.show()
    view.go_to_change(0)
    save(view, "screenshot-prose-compare.png")
    view.close()


if __name__ == "__main__":
    raise SystemExit(main())
