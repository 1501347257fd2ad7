"""A test process ends with its own exit status, and Qt objects die on the GUI thread.

Each case runs a child Python that leaves the clipboard as a test would and then exits the
normal way; a crash at exit shows as a negative return code (the signal), after "done".
"""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = textwrap.dedent(
    """
    import sys
    from PySide6.QtCore import QMimeData
    from PySide6.QtWidgets import QApplication
    from tests.qt_shutdown import release_qt_objects

    app = QApplication([])
    mime = QMimeData()
    mime.setHtml("<b>Bold</b>")
    QApplication.clipboard().setMimeData(mime)  # the clipboard owns it from here on
    if sys.argv[1] == "release":
        release_qt_objects()
    print("done", flush=True)
    """
)


def _run(mode: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", CHILD, mode],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def test_clipboard_data_made_in_python_is_released_before_exit() -> None:
    done = _run("release")
    assert (done.returncode, done.stdout) == (0, "done\n"), done.stderr[-2000:]


def test_left_on_the_clipboard_it_crashes_the_process_at_exit_only() -> None:
    """Why tests/qt_shutdown.py exists: everything ran, then exit() died on the clipboard.

    If a later PySide6 stops calling into a finalized interpreter here, this fails and the
    release (and this test) can go.
    """
    done = _run("keep")
    assert done.stdout == "done\n"
    assert done.returncode == -signal.SIGSEGV, (done.returncode, done.stderr[-2000:])


def test_the_cycle_collector_never_runs_on_a_worker_thread() -> None:
    """tests/gui_thread_gc.py: automatic collection is off; it runs between tests instead."""
    assert not gc.isenabled()
