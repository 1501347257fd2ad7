"""Write PNGs of what the agent gets, and why: References, budget, runs, changes, shape.

Runs a reference server of the demo workspace in this process, signs in as its operator Ann,
and drives the window: Responder's Task gets one embed of each kind of unreachable file (a
run first, then one of its notes deleted, so "deleted" shows too), a run's System view, a
note edited after a run for "changed since the last run", the over-budget Librarian's
breakdown, and a shape check. Run from the project root:
`.venv/bin/python docs/make_insight_screenshots.py` (offscreen by default).
"""

from __future__ import annotations

from shot_kit import Shots, fresh_home

SIZE = (1400, 860)
ORG = "org/o_acme"
EXTRA_EMBEDS = f"\n![[{ORG}/agents/a_reporter/memory.md]]\n![[guild/competitor-template.md]]\n"


def main() -> int:
    home = fresh_home("taskdesk-insight-shots-")
    from app.client import TaskdeskClient
    from app.core.models import OrgFile
    from app.core.resource_files import resource
    from app.server import start_server
    from app.server.database import FileEmbeddedError, ServerDatabase
    from widgets.dialogs.connect import ConnectRequest
    from widgets.window.main_window import MainWindow

    shots = Shots("make_insight_screenshots")
    wait_until, save = shots.wait_until, shots.save

    db_path = home / "server.sqlite3"
    server = start_server(resource("demo_workspace.json"), db_path)
    db = ServerDatabase(db_path)
    window = MainWindow(data_dir=home / "data")
    try:
        window.resize(*SIZE)
        window.show()
        window.connect_to(ConnectRequest(server.url, "ann-secret", remember=False))
        wait_until("the first Task", lambda: window.task_tab.agent is not None)
        tab = window.task_tab
        insight = tab.insight
        client = TaskdeskClient(server.url, "ann-secret")

        def open_agent(agent_id: str) -> None:
            window.on_agent_chosen(agent_id)
            wait_until(
                agent_id,
                lambda: (
                    tab.agent is not None
                    and tab.agent.id == agent_id
                    and tab.state.live is not None
                    and tab.state.live.agent_id == agent_id
                    and tab.last_preview is not None
                ),
            )

        # Responder: every kind of unreachable embed. A run first, then a note it inlined
        # at hop 2 is deleted, so References can tell "deleted" from "missing".
        live = client.get_task("a_responder")
        client.put_task("a_responder", live.content + EXTRA_EMBEDS, live.version)
        run = client.create_run("a_responder")
        ann = db_caller(db)
        inner = [n.display_path for n in run.task_source.notes]
        with db.write() as tx:
            for path in reversed(inner):  # a hop-2 note no Task embeds directly
                try:
                    if tx.delete_file(path, by=ann):
                        break
                except FileEmbeddedError:
                    continue
        open_agent("a_responder")
        notes = tab.live_preview.notes
        assert notes is not None
        notes.forget()
        insight.commands.references.setChecked(True)
        view = insight.panel.references
        wait_until(
            "every reason",
            lambda: (
                view.references is not None
                and len({r.reason.code for r in view.references.markers if r.reason}) == 6
            ),
        )
        model = view.model
        rows = [model.index(r, 0) for r in range(model.rowCount())]
        chosen = next(i for i in rows if model.reference(i).outcome == "marker")  # type: ignore[union-attr]
        for index in rows:
            item = model.reference(index)
            if item is not None and item.reason is not None and item.reason.code == "no_access":
                chosen = index
        view.tree.setCurrentIndex(chosen)
        save(window, "screenshot-references.png")

        # The Runs list, and the run's System view.
        insight.commands.runs.setChecked(True)
        wait_until("the runs", lambda: insight.panel.runs.model.rowCount() > 0)
        insight.panel.runs.select_rows(0)
        insight.runs.open_run(insight.panel.runs.model.rows[0].id)
        wait_until("the System view", lambda: insight.dialog is not None)
        assert insight.dialog is not None
        insight.dialog.resize(880, 640)
        save(window, "screenshot-runs.png", overlay=insight.dialog, left=20)
        insight.dialog.close()

        # A note edited after the run: the Task is unchanged, the agent gets something else.
        style = f"{ORG}/style-guide.md"
        with db.write() as tx:
            found = tx.file(style)
            assert found is not None and found.text is not None
            edited = found.text.replace("\n", "\nNever promise a date you cannot keep.\n", 1)
            tx.put_file(
                OrgFile(style, "note", found.title, edited, found.version, found.access), by=ann
            )
        wait_until("the run list", lambda: insight.dialog is None)
        insight.runs.changes_since(insight.panel.runs.model.rows[0].id)
        wait_until("the comparison", lambda: insight.dialog is not None)
        dialog = insight.dialog
        assert dialog is not None
        dialog.resize(1300, 680)
        dialog.blocks.setCurrentRow(0)
        save(dialog, "screenshot-changed-since-run.png")
        dialog.close()

        # The over-budget Librarian: what eats the 64 KB.
        open_agent("a_librarian")
        wait_until("no dialog", lambda: insight.dialog is None)
        insight.open_budget()
        wait_until("the breakdown", lambda: insight.dialog is not None)
        assert insight.dialog is not None
        insight.dialog.resize(900, 600)
        save(window, "screenshot-budget.png", overlay=insight.dialog)
        insight.dialog.close()

        # The shape check on Scout.
        open_agent("a_scout")
        insight.commands.shape.setChecked(True)
        wait_until(
            "the shape check",
            lambda: insight.insight is not None and insight.insight.text == tab.editor.text(),
        )
        save(window, "screenshot-shape.png")
        client.close()
    finally:
        window._closing_confirmed = True
        window.close()
        window.shutdown()
        db.close()
        server.stop()
    return 0


def db_caller(db: object) -> object:
    """The demo's first operator, as the server records who changed a file."""
    from app.server.sqlite_database import ServerDatabase

    assert isinstance(db, ServerDatabase)
    with db.read() as tx:
        found = tx.first_operator()
    assert found is not None
    return found


if __name__ == "__main__":
    raise SystemExit(main())
