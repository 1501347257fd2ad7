"""The `taskdesk` entry point: one clear line without a display, no Qt for the command line."""

from __future__ import annotations

import os
from pathlib import Path

from tests.app_process import run_python as _run
from widgets.launcher import NO_DISPLAY_MESSAGE, X11_LIBRARIES_MESSAGE, display_problem


def _env_without_display(tmp_path: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    env["TASKDESK_HOME"] = str(tmp_path)
    return env


def test_no_display_prints_one_line_and_exits_2(tmp_path: Path) -> None:
    result = _run(
        "import sys\n"
        "from widgets.launcher import main\n"
        "code = main([])\n"
        "assert 'PySide6' not in sys.modules, 'Qt was imported'\n"
        "raise SystemExit(code)\n",
        _env_without_display(tmp_path),
    )
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines == [NO_DISPLAY_MESSAGE]
    assert "QT_QPA_PLATFORM=offscreen taskdesk" in lines[0]
    assert "Xvfb" in lines[0]


def test_display_check_only_on_systems_that_need_a_display_server() -> None:
    assert display_problem({}, "linux") == NO_DISPLAY_MESSAGE
    assert display_problem({"DISPLAY": ":0"}, "linux", lambda: None) is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux") is None
    assert display_problem({"DISPLAY": "  "}, "linux") == NO_DISPLAY_MESSAGE
    assert display_problem({}, "darwin") is None
    assert display_problem({}, "win32") is None


def test_x11_without_qt_libraries_gets_one_line_not_a_qt_abort() -> None:
    gone = "libxcb-icccm.so.4: cannot open shared object file"
    missing = display_problem({"DISPLAY": ":0"}, "linux", lambda: gone)
    assert missing == X11_LIBRARIES_MESSAGE.format(missing=gone)
    assert "libxcb-cursor0" in missing and "offscreen" in missing and "\n" not in missing
    # Wayland and a chosen non-X11 platform don't need the xcb plugin.
    assert display_problem({"WAYLAND_DISPLAY": "w-0"}, "linux", lambda: gone) is None
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux", lambda: gone) is None
    assert display_problem({"QT_QPA_PLATFORM": "xcb"}, "linux", lambda: gone) is not None
