"""The `taskdesk` entry point: command-line work goes to app.cli; otherwise it opens the window.

Qt is imported only once a window is really wanted, so `taskdesk serve`, `expand` and
`--version` start fast and work on a machine without a display.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # Qt only for the type checker: the command line must not load it
    from PySide6.QtWidgets import QApplication

    from app.connect.single_instance import InstanceLock
    from widgets.window.main_window import MainWindow

CLI_FLAGS = ("--version", "-V")
GIL_SWITCH_INTERVAL_S = 0.0002
DESKTOP_ID = "io.github.taskdesk.Taskdesk"
"""The desktop entry (packaging/linux/) and AppStream id the window belongs to."""
ICON_FILES = (
    "taskdesk-icon.svg",
    "taskdesk-icon-48.png",
    "taskdesk-icon-128.png",
    "taskdesk-icon-256.png",
)

NO_DISPLAY_MESSAGE = (
    "taskdesk: no display to show a window on (DISPLAY and WAYLAND_DISPLAY are unset); "
    "run `QT_QPA_PLATFORM=offscreen taskdesk` to run without a screen, or run it under "
    "Xvfb (`xvfb-run taskdesk`)."
)


X11_LIBRARIES_MESSAGE = (
    "taskdesk: Qt can't open a window on X11: {missing}. Install Qt's X11 libraries (on "
    "Debian or Ubuntu: `sudo apt-get install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 "
    "libxkbcommon-x11-0`), or run `QT_QPA_PLATFORM=offscreen taskdesk` to run without a screen."
)


def display_problem(
    env: Mapping[str, str], platform: str, x11_missing: Callable[[], str | None] | None = None
) -> str | None:
    """The one line to print when no window can be shown, or None when one can.

    Only Linux and the BSDs need a display server; Qt would abort there without one, and it
    aborts the same way on X11 when a library its xcb plugin needs is missing.
    """
    if not platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return None
    chosen = env.get("QT_QPA_PLATFORM", "").strip()
    if chosen and chosen != "xcb":
        return None
    if not any(
        env.get(name, "").strip() for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    ):
        return NO_DISPLAY_MESSAGE
    if chosen != "xcb" and env.get("WAYLAND_DISPLAY", "").strip():
        return None
    missing = (x11_missing or _xcb_plugin_missing)()
    return X11_LIBRARIES_MESSAGE.format(missing=missing) if missing else None


def _xcb_plugin_missing() -> str | None:
    """What stops Qt's xcb plugin from loading (the loader's own words), or None.

    A dlopen of the plugin finds every missing system library the way Qt would, without a
    subprocess; the Qt libraries it pulls in are loaded a moment later anyway.
    """
    import ctypes
    from importlib.util import find_spec

    spec = find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    plugin = Path(next(iter(spec.submodule_search_locations)), "Qt/plugins/platforms/libqxcb.so")
    if not plugin.exists():
        return None
    try:
        ctypes.CDLL(str(plugin))
    except OSError as exc:
        return str(exc).replace(str(plugin) + ": ", "")
    return None


def commands_help() -> str:
    """Every command of ``taskdesk`` with its one line, for ``taskdesk --help``."""
    from app.cli import all_commands  # only for --help: the window's start does without them

    commands = all_commands()
    width = max(len(command.NAME) for command in commands)
    lines = [f"  {command.NAME.ljust(width)}  {command.HELP}" for command in commands]
    return (
        "commands (`taskdesk COMMAND --help` for each):\n"
        + "\n".join(lines)
        + "\n\n--version prints the version."
    )


def _window_arguments(args: Sequence[str]) -> argparse.Namespace:
    asked_for_help = any(a in ("-h", "--help") for a in args)
    parser = argparse.ArgumentParser(
        prog="taskdesk",
        description="Edit the Task of your agents: with no command, open the app.",
        epilog=commands_help() if asked_for_help else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--server", metavar="URL", help="open the app on this server")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="check an install: open the first agent's Task, check it is on screen, then "
        "quit (exit 0 when it is, 1 with the reason when it isn't)",
    )
    parser.add_argument(
        "--screenshot",
        metavar="PNG",
        type=Path,
        help="with --smoke: save a screenshot of the window once the Task is shown",
    )
    parser.add_argument(
        "--smoke-timeout",
        metavar="SECONDS",
        type=float,
        default=90.0,
        help="with --smoke: how long to wait for the Task (default 90)",
    )
    options = parser.parse_args(list(args))
    if (options.screenshot is not None) and not options.smoke:
        parser.error("--screenshot needs --smoke")
    return options


def setup_logging() -> str:
    """Log to taskdesk.log in the platform's log folder (0600 in 0700, rotated, libraries at
    INFO unless the settings ask for more); returns the file's path."""
    from app.connect.app_log import drop_early_log, open_app_log
    from app.connect.paths import log_dir
    from app.connect.settings_owner import settings

    chosen = settings()  # validated: DEBUG … ERROR
    try:
        handler = open_app_log(log_dir(), chosen.log_level, chosen.library_log_level)
    except OSError:
        # A read-only home must not stop the editor; messages still reach the operator.
        drop_early_log()
        return ""
    return str(handler.baseFilename)


def hold_logging_until_painted() -> None:
    """Log at the settings' levels from now; the file opens after the first paint
    (``setup_logging``), and what was logged meanwhile goes into it first."""
    from app.connect.app_log import hold_early_log
    from app.connect.settings_owner import settings

    chosen = settings()
    hold_early_log(chosen.log_level, chosen.library_log_level)


def main(argv: Sequence[str] | None = None) -> int:
    """Run `taskdesk`; returns the process exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    # A command (`serve`, `expand`, …) or --version: the window only takes options.
    if args and (not args[0].startswith("-") or args[0] in CLI_FLAGS):
        from app.cli import main as cli_main

        return int(cli_main(args) or 0)
    options = _window_arguments(args)
    problem = display_problem(os.environ, sys.platform)
    if problem is not None:
        print(problem, file=sys.stderr, flush=True)
        return 2
    smoke = SmokeOptions(options.screenshot, options.smoke_timeout) if options.smoke else None
    return run_window(options.server, smoke)


def prepare_application(app: QApplication) -> None:
    """Names and the stylesheet: the same for the program, the screenshots and the benchmark.
    The window's icon follows the first paint (``set_window_icon``)."""
    from widgets.common.pyside_sources import stop_caching_module_sources

    stop_caching_module_sources()  # where run_window's call came too late (a host program)

    app.setApplicationName("Taskdesk")
    app.setOrganizationName("Taskdesk")
    # No setApplicationVersion: the version comes from the package metadata (importlib's
    # metadata and email parsing, 75 ms before the first paint) and only About shows it.
    app.setDesktopFileName(DESKTOP_ID)  # the desktop entry's name: Wayland's app id
    from widgets.common.theme import SchemeFollower

    SchemeFollower(app)  # the stylesheet and palette, light or dark as the system is


def set_window_icon(app: QApplication) -> None:
    """The window's icon, from the packaged files: set once the window has painted, since
    reading them (the SVG icon engine, three PNGs) takes ~10 ms and the desktop shows the
    icon a moment later just the same."""
    from PySide6.QtGui import QIcon

    from app.core.resource_files import resource

    window_icon = QIcon()
    for name in ICON_FILES:
        path = resource(name)
        if path.is_file():
            window_icon.addFile(str(path))
    app.setWindowIcon(window_icon)


LOG_FILE_AFTER_PAINT_MS = 1_500
"""The log file opens this long after the first paint, or as the window closes if that is
sooner. Opening it (mostly importing ``logging.handlers``) took ~12 ms of the GUI thread
while the first Task was on its way; what is logged meanwhile is held and written first."""


def _after_first_paint(app: QApplication, window: MainWindow) -> None:
    """The window's icon, which the first paint need not wait for; the log file later."""
    from PySide6.QtCore import QTimer

    set_window_icon(app)
    QTimer.singleShot(LOG_FILE_AFTER_PAINT_MS, window, lambda: open_log_file(window))


def open_log_file(window: MainWindow) -> None:
    """The log file, opened once (``window.log_path``: where it is, "" if it can't be)."""
    if window.log_path is None:
        window.log_path = setup_logging()


def open_window(app: QApplication, server_url: str | None) -> MainWindow:
    """Show the main window now; connecting (and the local server) starts once it has painted."""
    from widgets.window.main_window import MainWindow
    from widgets.window.messages import install_excepthook

    # Qt calls let go of the GIL; with a worker running Python (decoding 50,000 notes,
    # rendering a preview) each one waited up to the switch interval (5 ms) to get it back:
    # building the Task tab took 1.8 s instead of 75 ms. At 0.2 ms it takes 0.24 s (0.33 s
    # at 0.5 ms), and nothing changes while the GUI thread is idle.
    sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
    hold_logging_until_painted()
    from widgets.common.theme import scheme_follower
    from widgets.window.look_menu import saved_look

    scheme_follower(app).set_choice(saved_look())  # View › Look, before the first paint
    window = MainWindow()
    install_excepthook(window.messages, window.secrets, lambda: window.log_path or "")
    _settle_garbage_collector(window)
    window.first_painted.connect(lambda: _after_first_paint(app, window))
    window.show()
    # TASKDESK_TOKEN is read by the token store, for this session only.
    window.start_after_first_paint(server_url)
    return window


class SmokeOptions(NamedTuple):
    """``--smoke``: quit once the first Task is shown (see widgets.smoke_check). A NamedTuple:
    a dataclass would be built (~0.9 ms) on every start's way to the first paint."""

    screenshot: Path | None = None
    timeout_s: float = 90.0


ALREADY_OPEN_MESSAGE = (
    "taskdesk: Taskdesk is already open on this data folder ({folder}); its window was "
    "brought to the front. (One Taskdesk per data folder keeps every draft: two windows "
    "would overwrite each other's.)"
)


STILL_ENDING_MESSAGE = (
    "taskdesk: the Taskdesk that was open on this data folder ({folder}) is still closing; "
    "start it again in a moment."
)


def claim_data_folder() -> tuple[bool, InstanceLock | None]:
    """(open a window?, the lock on the data folder). When another Taskdesk holds the
    folder, it is asked to come forward and no window opens here. A folder that can't be
    locked (a read-only home) doesn't stop the window: its start-up says what is wrong."""
    from app.connect.paths import data_dir
    from app.connect.single_instance import claim_data_folder, holder_is_ending, request_raise

    folder = data_dir()
    try:
        lock = claim_data_folder(folder)
    except OSError:
        return True, None
    if lock is None and holder_is_ending(folder):
        print(STILL_ENDING_MESSAGE.format(folder=folder), file=sys.stderr, flush=True)
        return False, None
    if lock is None:
        with contextlib.suppress(OSError):  # the message still says where the running one is
            request_raise(folder)
        print(ALREADY_OPEN_MESSAGE.format(folder=folder), file=sys.stderr, flush=True)
        return False, None
    return True, lock


def run_window(server_url: str | None, smoke: SmokeOptions | None = None) -> int:
    """Show the window at once; the server, the session and heavy modules follow it."""
    proceed, lock = claim_data_folder()
    if not proceed:
        return 0
    from widgets.common.pyside_sources import stop_caching_module_sources

    stop_caching_module_sources()  # before Qt: every module imported after it is checked
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    prepare_application(app)
    window = open_window(app, server_url)
    if lock is not None:
        from widgets.window.raise_requests import RaiseOnRequest

        RaiseOnRequest(window, lock.folder)
    _quit_on_signals(app, window)
    if smoke is not None:
        from widgets.smoke_check import SmokeCheck

        SmokeCheck(app, window, screenshot=smoke.screenshot, timeout_s=smoke.timeout_s)
    code = app.exec()
    open_log_file(window)  # a short session's held records are kept too
    if lock is not None:
        lock.mark_ending()  # a launch from now on waits for this process, not for a window
    window.shutdown()
    return code


def _settle_garbage_collector(window: MainWindow) -> None:
    """Collections on the GUI thread only, between events; once the first agent is open,
    what start-up made is frozen out of every later pass (see GuiThreadCollector)."""
    from app.desk.gc_pauses import GuiThreadCollector

    collector = GuiThreadCollector(window)
    window.agent_opened.connect(lambda _agent_id: collector.start_up_step("agent shown"))
    window.notes_listed.connect(lambda: collector.start_up_step("notes listed"))


def _quit_on_signals(app: QApplication, window: MainWindow) -> None:
    """SIGTERM, logout and shutdown keep the draft and quit without asking; Ctrl+C closes the
    window the normal way (unsaved edits still ask)."""
    from widgets.window.session_end import SessionEnd

    SessionEnd(app, window).install_signals()


if __name__ == "__main__":
    raise SystemExit(main())
