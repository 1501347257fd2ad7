"""When the conflict or offline banner opens above the editor, the caret's line stays where
it was on screen (it used to drop out of view below)."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtGui import QTextCursor

from app.client import TaskdeskClient
from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS, open_agent, sign_in
from widgets.window.main_window import MainWindow

AGENT = "a_writer"
LONG_TASK = "# Writer\n\n" + "".join(f"Rule {n}: answer within a day.\n" for n in range(1, 121))


def _caret_y(window: MainWindow) -> int:
    editor = window.task_tab.editor
    return editor.viewport().mapTo(window, QPoint(0, editor.cursorRect().top())).y()


def _caret_in_view(window: MainWindow) -> bool:
    editor = window.task_tab.editor
    rect = editor.cursorRect()
    return rect.top() >= 0 and rect.bottom() <= editor.viewport().height()


def _editing(
    qtbot,
    make_window,
    live_server: LiveServer,
    bob: TaskdeskClient,
    text: str,
    size: tuple[int, int],
) -> tuple[MainWindow, int]:
    """Ann's window at ``size`` on the Writer's Task, which Bob saved as ``text`` first, in
    Edit; with the version Bob saved."""
    saved = bob.put_task(AGENT, text, bob.get_task(AGENT).version).version
    window = make_window()
    window.resize(*size)
    sign_in(qtbot, window, live_server.url, live_server.token("ann"))
    open_agent(qtbot, window, AGENT)
    editor = window.task_tab.editor
    window.actions_.edit.trigger()
    qtbot.waitUntil(editor.isVisible, timeout=LOAD_TIMEOUT_MS)
    assert editor.text() == text
    return window, saved


def _bob_saves_then_ann_does(qtbot, window: MainWindow, bob: TaskdeskClient, base: int) -> None:
    """Bob saves over ``base`` first; Ann's save then meets the conflict banner."""
    bob.put_task(AGENT, LONG_TASK + "Bob's rule.\n", base)
    window.actions_.save.trigger()
    qtbot.waitUntil(window.task_tab.conflict_banner.isVisible, timeout=LOAD_TIMEOUT_MS)


def test_the_caret_line_stays_put_when_the_conflict_banner_opens(
    qtbot, make_window, live_server: LiveServer
) -> None:
    with TaskdeskClient(live_server.url, live_server.token("bob")) as bob:
        window, base = _editing(qtbot, make_window, live_server, bob, LONG_TASK, (1000, 700))
        editor = window.task_tab.editor
        # The caret on the last line in view, as when typing at the bottom of the window.
        last = editor.cursorForPosition(QPoint(4, editor.viewport().height() - 4))
        last.movePosition(QTextCursor.MoveOperation.EndOfBlock)
        editor.setTextCursor(last)
        qtbot.keyClicks(editor, " Mine.")
        assert _caret_in_view(window)
        before = _caret_y(window)

        _bob_saves_then_ann_does(qtbot, window, bob, base)
        line = editor.fontMetrics().lineSpacing()
        assert _caret_in_view(window)
        assert abs(_caret_y(window) - before) <= line


def test_the_caret_on_the_last_line_stays_in_view_when_the_conflict_banner_opens(
    qtbot, make_window, live_server: LiveServer
) -> None:
    """At the end of the Task the view is scrolled as far as it goes: the editor's range
    grows only after it shrinks, and the caret must still end up in view."""
    with TaskdeskClient(live_server.url, live_server.token("bob")) as bob:
        window, base = _editing(qtbot, make_window, live_server, bob, LONG_TASK, (1000, 700))
        editor = window.task_tab.editor
        editor.moveCursor(QTextCursor.MoveOperation.End)
        qtbot.keyClicks(editor, "Mine.")
        assert _caret_in_view(window)

        _bob_saves_then_ann_does(qtbot, window, bob, base)
        qtbot.waitUntil(lambda: _caret_in_view(window), timeout=LOAD_TIMEOUT_MS)
        qtbot.wait(200)  # and it stays there
        assert _caret_in_view(window)


def test_the_caret_at_the_end_of_a_big_task_stays_in_view_when_the_server_goes(
    qtbot, make_window, live_server: LiveServer
) -> None:
    """Two banners at once (offline, and the failed save's message) over a 3,500-line Task:
    the second comes before the editor's range has grown for the first."""
    big = "# Writer\n\n" + "".join(
        f"- Rule {n}: answer within a day, and say what is left.\n" for n in range(1, 3498)
    )
    with TaskdeskClient(live_server.url, live_server.token("bob")) as bob:
        window, _saved = _editing(qtbot, make_window, live_server, bob, big, (1400, 900))
    tab = window.task_tab
    editor = tab.editor
    editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(editor, "More.")
    assert _caret_in_view(window)

    live_server.stop()
    window.actions_.save.trigger()
    qtbot.waitUntil(tab.offline_banner.isVisible, timeout=LOAD_TIMEOUT_MS)
    qtbot.waitUntil(lambda: _caret_in_view(window), timeout=LOAD_TIMEOUT_MS)
    qtbot.wait(300)  # and it stays there
    assert _caret_in_view(window)
