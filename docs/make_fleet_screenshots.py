"""Write PNGs of the fleet to docs/: the fleet table on the demo and on the 5,000-agent
workspace, Search every Task, a change set's preview and the audit; each in the light and
the dark look (``-dark`` in the file name).

Run from the project root: `.venv/bin/python docs/make_fleet_screenshots.py` (offscreen by
default). Each look runs in a process of its own: the look is chosen when the application
starts. The big workspace comes from bench/scale_workspace.py (deterministic).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from shot_kit import ROOT, Shots, fresh_home

SIZE = (1280, 800)


def main() -> int:
    if len(sys.argv) == 1:  # both looks, one process each
        import subprocess

        for scheme in ("light", "dark"):
            subprocess.run([sys.executable, __file__, scheme], check=True)
        return 0
    scheme = sys.argv[1]
    suffix = "-dark" if scheme == "dark" else ""
    os.environ["TASKDESK_COLOUR_SCHEME"] = scheme
    home = fresh_home("taskdesk-fleet-shots-")
    from widgets.window.main_window import MainWindow

    shots = Shots("make_fleet_screenshots", suffix=suffix)
    wait_until, save = shots.wait_until, shots.save

    window = MainWindow(data_dir=home / "data")
    window.resize(*SIZE)
    window.show()
    window.start(None)  # the embedded local workspace: the demo
    tab = window.task_tab
    wait_until("the first Task", lambda: tab.agent is not None and not tab.state.loading)
    fleet = window.fleet_windows

    window.actions_.fleet.trigger()
    dialog = fleet.fleet_view
    assert dialog is not None
    wait_until("the fleet", lambda: dialog.panel.proxy.rowCount() > 0)
    dialog.panel.table.resizeColumnsToContents()
    save(window, "screenshot-fleet.png")  # a tab beside the Task

    window.actions_.search_every_task.trigger()
    search = fleet.search_dialog
    assert search is not None
    search.resize(900, 560)
    search.query.setText("severity")
    search.on_search()
    wait_until("the hits", lambda: bool(search.found))
    search.results.expandAll()
    search.replacement.setText("priority")
    save(search, "screenshot-search.png")

    search.on_replace()
    preview = fleet.preview_dialog
    assert preview is not None
    wait_until("the preview", lambda: len(preview.model.rows) > 0)
    wait_until("the shapes", lambda: all(r.shape_after is not None for r in preview.model.rows))
    preview.table.resizeColumnsToContents()
    save(preview, "screenshot-change-set.png")
    preview.on_apply()
    wait_until("the change set", lambda: preview.applied_set is not None)
    preview.close()

    window.actions_.audit.trigger()
    audit = fleet.audit_dialog
    assert audit is not None
    wait_until("the audit", lambda: audit.model.rowCount() > 0)
    audit.table.resizeColumnsToContents()
    save(audit, "screenshot-audit.png")
    for open_dialog in (search, audit):
        open_dialog.close()

    big_fleet(shots, window, home)
    window._closing_confirmed = True
    window.close()
    return 0


def big_fleet(shots: Shots, window: object, home: Path) -> None:
    """The fleet table on the 5,000-agent / 50,000-note workspace."""
    sys.path.insert(0, str(ROOT / "bench"))
    from PySide6.QtCore import Qt
    from scale_workspace import BIG, OPERATOR_TOKEN, generate

    from app.server import start_server
    from widgets.dialogs.connect import ConnectRequest
    from widgets.window.main_window import MainWindow

    assert isinstance(window, MainWindow)
    folder = Path(tempfile.mkdtemp(prefix="taskdesk-big-"))
    workspace = folder / "big.json"
    workspace.write_text(json.dumps(generate(BIG)), encoding="utf-8")
    with start_server(workspace, folder / "big.sqlite3") as server:
        window.connect_to(ConnectRequest(server.url, OPERATOR_TOKEN, remember=False))
        shots.wait_until(
            "the big org",
            lambda: window.connection is not None and window.connection.url == server.url,
            timeout_ms=120_000,
        )
        window.actions_.fleet.trigger()
        dialog = window.fleet_windows.fleet_view
        assert dialog is not None
        shots.wait_until("5,000 rows", lambda: dialog.panel.proxy.rowCount() == 5000, 180_000)
        dialog.panel.table.sortByColumn(4, Qt.SortOrder.DescendingOrder)  # unreachable first
        dialog.panel.table.resizeColumnsToContents()
        shots.save(window, "screenshot-fleet-5000.png")


if __name__ == "__main__":
    raise SystemExit(main())
