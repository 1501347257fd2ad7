"""Write PNGs of what a first-day operator meets to docs/: the first start, Edit and Preview
side by side with the connection in the status bar, the picker marking notes the agent can't
read, a collection's preview and a member's read-only Task; each in the light and the dark
look (``-dark`` in the file name).

Run from the project root: `.venv/bin/python docs/make_first_day_screenshots.py` (offscreen
by default; set QT_QPA_PLATFORM=xcb with a DISPLAY to watch it on screen). Each look runs in
a process of its own: the look is chosen when the application starts.
"""

from __future__ import annotations

import os
import sys

from shot_kit import Shots, fresh_home

SIZE = (1280, 800)
INCIDENTS = "org/o_acme/guilds/guild_ops/incidents"  # a table Weekly Reporter embeds


def main() -> int:
    if len(sys.argv) == 1:  # both looks, one process each
        import subprocess

        for scheme in ("light", "dark"):
            subprocess.run([sys.executable, __file__, scheme], check=True)
        return 0
    scheme = sys.argv[1]
    suffix = "-dark" if scheme == "dark" else ""
    os.environ["TASKDESK_COLOUR_SCHEME"] = scheme
    home = fresh_home("taskdesk-shots-")
    from widgets.dialogs.connect import ConnectRequest
    from widgets.window.main_window import MainWindow

    shots = Shots("make_first_day_screenshots", suffix=suffix)
    wait_until, save = shots.wait_until, shots.save

    window = MainWindow(data_dir=home / "data")
    window.resize(*SIZE)
    window.show()
    window.start(None)  # no server configured: the embedded local workspace
    tab = window.task_tab
    wait_until("the first Task", lambda: tab.agent is not None and not tab.state.loading)
    wait_until("the preview", lambda: tab.last_preview is not None)
    save(window, "screenshot-first-start.png")

    # Edit and Preview side by side; the status bar names the server and who is signed in.
    window.actions_.side_by_side.trigger()
    wait_until("side by side", lambda: tab.editor.isVisible() and tab.preview.isVisible())
    save(window, "screenshot-side-by-side.png")
    window.actions_.preview.trigger()

    def open_agent(agent_id: str) -> None:
        window.on_agent_chosen(agent_id)
        wait_until(
            agent_id,
            lambda: (
                tab.state.live is not None
                and tab.state.live.agent_id == agent_id
                and tab.last_preview is not None
            ),
        )

    # Insert › Note while editing Dispatch: the notes Dispatch can't read are marked, last.
    open_agent("a_dispatch")
    wait_until("the notes to insert", lambda: tab.editor.embeddable_model.rowCount() > 0)
    window.actions_.insert_note.trigger()
    picker = tab.insert_dialogs.picker
    assert picker is not None
    picker.resize(560, 520)
    picker.list_view.setCurrentIndex(picker.proxy.index(picker.proxy.rowCount() - 1, 0))
    save(window, "screenshot-picker-readable.png", overlay=picker)
    picker.reject()

    # A table's preview, from Weekly Reporter's Task.
    open_agent("a_reporter")
    tab.links.on_embed_clicked(INCIDENTS)
    wait_until("the table's preview", lambda: tab.links.note_dialog is not None)
    dialog = tab.links.note_dialog
    assert dialog is not None
    save(window, "screenshot-collection-preview.png", overlay=dialog)
    dialog.close()

    # A member of the same workspace: the Task is read-only, and says why.
    from app.connect.embedded import local_workspace_paths
    from app.core.workspace import load_workspace

    workspace = load_workspace(local_workspace_paths(home / "data")[0])
    member = next(p for p in workspace.people if p.type == "member")
    connection = window.connection
    assert connection is not None
    window.connect_to(ConnectRequest(connection.url, member.token, remember=False))
    wait_until(
        "the member's window",
        lambda: (
            window.connection is not connection
            and tab.read_only.active
            and tab.agent is not None
            and tab.last_preview is not None
        ),
    )
    save(window, "screenshot-member-read-only.png")

    window._closing_confirmed = True
    window.close()
    window.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
