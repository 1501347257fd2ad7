"""Write PNGs of the marks following the server to docs/: a note Dispatch embeds at hop 2 is
deleted by a colleague while the window is open, and the sidebar, header and banner marks and
References all say so; a member opening Responder sees the note the agent reads (and they
may not) marked as the agent's read, never as missing.

Run from the project root: `.venv/bin/python docs/make_follow_server_screenshots.py`
(offscreen by default; QT_QPA_PLATFORM=xcb with a DISPLAY to watch it on screen).
"""

from __future__ import annotations

from shot_kit import Shots, fresh_home

SIZE = (1280, 800)
HOP_2 = "org/o_acme/guilds/guild_ops/severity-levels.md"  # Dispatch → triage-rules.md → it
RUNBOOK = "org/o_acme/guilds/guild_ops/runbook-restarts.md"  # Responder's guild reads it


def main() -> int:
    home = fresh_home("taskdesk-shots-")
    from app.client import TaskdeskClient
    from app.connect.embedded import local_workspace_paths
    from app.core.workspace import load_workspace
    from widgets.dialogs.connect import ConnectRequest
    from widgets.window.main_window import MainWindow

    shots = Shots("make_follow_server_screenshots")
    wait_until, save = shots.wait_until, shots.save
    window = MainWindow(data_dir=home / "data")
    window.resize(*SIZE)
    window.show()
    window.start(None)  # the embedded local workspace
    tab = window.task_tab
    wait_until("the first Task", lambda: tab.agent is not None and not tab.state.loading)

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

    open_agent("a_dispatch")
    tab.insight.commands.panel_actions["references"].setChecked(True)
    summary = tab.insight.panel.references.summary_label
    wait_until("References", lambda: "reaches its file" in summary.text())
    workspace = load_workspace(local_workspace_paths(home / "data")[0])
    connection = window.connection
    assert connection is not None
    colleague = next(p for p in workspace.people if p.type == "operator" and p.name != "Ann")
    with TaskdeskClient(connection.url, colleague.token) as client:
        client.delete_note(HOP_2)  # a colleague, elsewhere
    window.follow_server_changes()  # what the poll, the window coming forward or a live event do
    wait_until(
        "every mark",
        lambda: (
            tab.unreachable_banner.isVisible()
            and tab.header.is_marked_unreachable()
            and "1 unreachable" in summary.text()
            and bool(window.agent_model.broken_embeds("a_dispatch"))
        ),
    )
    save(window, "screenshot-marks-follow-the-server.png")

    member = next(p for p in workspace.people if p.type == "member")
    window.connect_to(ConnectRequest(connection.url, member.token, remember=False))
    wait_until("the member's window", lambda: window.connection is not connection)
    open_agent("a_responder")
    tab.insight.commands.panel_actions["references"].setChecked(True)
    wait_until("the agent's read", lambda: tab.editor.highlighter.verdict(RUNBOOK) == "withheld")
    wait_until("References", lambda: "you can't see" in summary.text())
    save(window, "screenshot-member-agent-reads.png")

    window._closing_confirmed = True
    window.close()
    window.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
