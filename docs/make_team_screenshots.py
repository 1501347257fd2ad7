"""Screenshots of two people on one team server: a PostgreSQL database the script starts,
`taskdesk serve --workers 2` on it, and two windows (Ann's and Bob's) in this process.

Run: .venv/bin/python docs/make_team_screenshots.py   (needs PostgreSQL's binaries)
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys

from shot_kit import ROOT, Shots, fresh_home

SIZE = (1180, 720)


def main() -> int:
    home = fresh_home("taskdesk-team-shots-")
    from PySide6.QtGui import QTextCursor

    from tests.live_server import WORKSPACE_BASIC
    from tests.postgres_cluster import postgres_cluster
    from widgets.dialogs.connect_request import ConnectRequest
    from widgets.window.main_window import MainWindow

    shots = Shots("make_team_screenshots", wanted=sys.argv[1:])
    with postgres_cluster() as cluster:
        server = subprocess.Popen(
            [sys.executable, "-m", "app", "serve", "--workspace", str(WORKSPACE_BASIC),
             "--db", cluster.new_database("shots"), "--workers", "2", "--port", "0"],
            stdout=subprocess.PIPE, cwd=ROOT,
        )  # fmt: skip
        try:
            assert server.stdout is not None
            found = re.search(r"(http://\S+)", server.stdout.readline().decode())
            assert found, "the server did not start"
            url = found.group(1)
            windows = {}
            for who in ("ann", "bob"):
                window = MainWindow(data_dir=home / who)
                window.resize(*SIZE)
                window.show()
                window.connect_to(ConnectRequest(url, f"{who}-secret", remember=False))
                shots.wait_until(
                    f"{who}'s Task",
                    lambda w=window: w.task_tab.agent is not None and not w.task_tab.state.loading,
                )
                windows[who] = window
            ann, bob = windows["ann"], windows["bob"]
            bob.actions_.edit.trigger()
            bob.task_tab.editor.moveCursor(QTextCursor.MoveOperation.End)
            bob.task_tab.editor.insertPlainText("\nEscalate anything older than a day.")
            shots.wait_until(
                "Bob's presence in Ann's header",
                lambda: "Bob is editing" in ann.task_tab.header.presence_label.text(),
            )
            shots.save(ann, "screenshot-team-presence.png")
            ann.actions_.edit.trigger()
            ann.task_tab.editor.moveCursor(QTextCursor.MoveOperation.End)
            ann.task_tab.editor.insertPlainText("\nAnn's note.")
            bob.task_tab.save()
            shots.wait_until("the banner in Ann's window", ann.task_tab.conflict_banner.isVisible)
            shots.save(ann, "screenshot-team-save.png")
            for window in (ann, bob):
                window._closing_confirmed = True
                window.close()
                window.shutdown()
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
