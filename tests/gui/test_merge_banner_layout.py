"""The merge banner's text reads in two lines at most in a 1000 px window: its buttons have
a row of their own under it (beside the six buttons the text took four lines)."""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtGui import QTextCursor

from app.client import TaskdeskClient
from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS, WindowFactory, open_agent, sign_in

AGENT = "a_writer"
BASE = "# Writer\n\nAnswer in the language of the question.\n\nSign every reply.\n"
THEIRS = BASE.replace("Sign every reply.", "Sign each reply with the team's name.").replace(
    "# Writer", "# Writer (house)"
)


def _lines(label) -> int:
    """How many lines the label's text takes at its width."""
    spacing = label.fontMetrics().lineSpacing()
    return round(label.heightForWidth(label.contentsRect().width()) / spacing)


def test_a_conflicts_banner_reads_in_two_lines_with_its_buttons_below(
    qtbot, make_window: WindowFactory, live_server: LiveServer
) -> None:
    window = make_window()
    window.resize(1000, 700)
    sign_in(qtbot, window, live_server.url, live_server.token("ann"))
    with TaskdeskClient(live_server.url, live_server.token("bob")) as bob:
        base = bob.put_task(AGENT, BASE, bob.get_task(AGENT).version)
        open_agent(qtbot, window, AGENT)
        qtbot.waitUntil(lambda: window.task_tab.editor.text() == BASE, timeout=LOAD_TIMEOUT_MS)
        bob.put_task(AGENT, THEIRS, base.version)
    window.actions_.edit.trigger()
    editor = window.task_tab.editor
    cursor = editor.textCursor()
    at = BASE.index("Sign every reply.")
    cursor.setPosition(at)
    cursor.setPosition(at + len("Sign every reply."), QTextCursor.MoveMode.KeepAnchor)
    editor.setTextCursor(cursor)
    qtbot.keyClicks(editor, "Sign every reply with your own name.")
    window.actions_.save.trigger()
    tab = window.task_tab
    qtbot.waitUntil(tab.conflict_banner.isVisible, timeout=LOAD_TIMEOUT_MS)
    tab.conflict_banner.merge_button.click()
    banner = tab.banners.merge_banner
    qtbot.waitUntil(banner.isVisible, timeout=LOAD_TIMEOUT_MS)
    assert "1 conflict left" in banner.text()
    qtbot.waitUntil(lambda: banner.text_label.width() > 0, timeout=LOAD_TIMEOUT_MS)

    label = banner.text_label
    assert _lines(label) <= 2, (label.width(), banner.text())
    assert label.height() <= 2 * label.fontMetrics().lineSpacing() + 4
    # Every button whole, inside the banner, and none over the text.
    buttons = [banner.next_button, *banner.take_buttons.values(), banner.cancel_button]
    inside = QRect(0, 0, banner.width(), banner.height())
    for button in buttons:
        assert button.isVisible()
        place = QRect(button.mapTo(banner, button.rect().topLeft()), button.size())
        assert inside.contains(place), button.text()
        assert place.top() >= label.geometry().bottom(), button.text()
        assert button.width() >= button.sizeHint().width(), button.text()
