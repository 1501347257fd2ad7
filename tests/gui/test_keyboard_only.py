"""The whole day's work with the keyboard alone: every step is a key event to the focused widget.

Open an agent from the list, edit, insert a note, save, resolve a conflict, compare an
earlier version and restore it: no clicks, no calls on widgets, only keys.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from tests.window_steps import LOAD_TIMEOUT_MS, saved
from widgets.window.main_window import MainWindow

Key = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
ALT = Qt.KeyboardModifier.AltModifier


def _focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None, "focus went nowhere: the next key would be lost"
    return widget


def press(qtbot, key: Key, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(_focused(), key, modifiers)


def type_text(qtbot, text: str) -> None:
    qtbot.keyClicks(_focused(), text)


def back_to(qtbot, window: MainWindow) -> None:
    """A dialog closed: the window manager activates the window again (offscreen, no one
    does), and focus comes back to where the window kept it."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=LOAD_TIMEOUT_MS)


def test_a_day_of_work_with_the_keyboard_only(qtbot, window: MainWindow, bob) -> None:
    tab = window.task_tab
    back_to(qtbot, window)

    # Open Writer: F6 to the agents list (from the filter field, where the window starts,
    # F6 first goes to the Task), type its name, Return.
    press(qtbot, Key.Key_F6)
    if _focused() is not window.sidebar.list_view:
        press(qtbot, Key.Key_F6)
    assert _focused() is window.sidebar.list_view
    with qtbot.waitSignal(window.agent_opened, timeout=LOAD_TIMEOUT_MS) as opened:
        type_text(qtbot, "Writer")
        press(qtbot, Key.Key_Return)
    assert opened.args == ["a_writer"]
    press(qtbot, Key.Key_F6)  # back to the Task

    # Edit: Ctrl+Shift+E, to the end, a new line of text.
    press(qtbot, Key.Key_E, CTRL | SHIFT)
    assert _focused() is tab.editor
    press(qtbot, Key.Key_End, CTRL)
    press(qtbot, Key.Key_Return)
    type_text(qtbot, "Answer within the hour. ")

    # Insert a note: Ctrl+Shift+N, search, Return.
    qtbot.waitUntil(lambda: tab.editor.embeddable_model.rowCount() > 0, timeout=LOAD_TIMEOUT_MS)
    press(qtbot, Key.Key_N, CTRL | SHIFT)
    picker = tab.insert_dialogs.picker
    assert picker is not None
    qtbot.waitUntil(picker.search_field.hasFocus, timeout=LOAD_TIMEOUT_MS)  # once it is active
    type_text(qtbot, "org/o_acme/handbook.md")
    press(qtbot, Key.Key_Return)
    back_to(qtbot, window)
    assert _focused() is tab.editor
    assert tab.editor.text().endswith("Answer within the hour. ![[org/o_acme/handbook.md]]")

    # Save: Ctrl+S.
    press(qtbot, Key.Key_S, CTRL)
    qtbot.waitUntil(lambda: saved(window), timeout=LOAD_TIMEOUT_MS)
    assert "![[org/o_acme/handbook.md]]" in bob.get_task("a_writer").content

    # A conflict: Bob saves while Ann types; Ctrl+S meets it; Alt+K keeps mine, which
    # first shows what it throws away (focus on Cancel); Alt+K there confirms.
    base = bob.get_task("a_writer")
    bob.put_task("a_writer", base.content + "\nBob's rule.", base.version)
    type_text(qtbot, " Sign every reply.")
    mine = tab.editor.text()
    press(qtbot, Key.Key_S, CTRL)
    qtbot.waitUntil(tab.conflict_banner.isVisible, timeout=LOAD_TIMEOUT_MS)
    press(qtbot, Key.Key_K, ALT)
    conflict = tab.conflict_flow
    qtbot.waitUntil(lambda: conflict.keep_mine_dialog is not None, timeout=LOAD_TIMEOUT_MS)
    keep_mine = conflict.keep_mine_dialog
    assert keep_mine is not None
    qtbot.waitUntil(keep_mine.cancel_button.hasFocus, timeout=LOAD_TIMEOUT_MS)
    press(qtbot, Key.Key_K, ALT)
    qtbot.waitUntil(lambda: saved(window), timeout=LOAD_TIMEOUT_MS)
    assert bob.get_task("a_writer").content == mine
    qtbot.waitUntil(lambda: not tab.conflict_banner.isVisible(), timeout=LOAD_TIMEOUT_MS)
    assert _focused() is tab.editor  # still typing into the Task
    live = bob.get_task("a_writer")

    # Versions: Ctrl+Shift+H into the list, Down to an earlier one, Alt+L compares it.
    press(qtbot, Key.Key_H, CTRL | SHIFT)
    versions = tab.versions
    assert _focused() is versions.list_view
    qtbot.waitUntil(lambda: versions.model.rowCount() > 1, timeout=LOAD_TIMEOUT_MS)
    press(qtbot, Key.Key_Home)
    press(qtbot, Key.Key_Down)
    press(qtbot, Key.Key_L, ALT)  # a mnemonic presses its button as a short animation
    qtbot.waitUntil(versions.compare_button.isChecked, timeout=LOAD_TIMEOUT_MS)
    qtbot.waitUntil(lambda: versions.diff_view.model is not None, timeout=LOAD_TIMEOUT_MS)

    # Restore it: Alt+S asks; Return alone would cancel, Alt+R restores.
    restored_version = versions.restore_button.text().replace("&", "").split("v")[-1]
    press(qtbot, Key.Key_S, ALT)
    flow = tab.version_flow
    qtbot.waitUntil(lambda: flow.restore_dialog is not None, timeout=LOAD_TIMEOUT_MS)
    dialog = flow.restore_dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.cancel_button.hasFocus, timeout=LOAD_TIMEOUT_MS)
    press(qtbot, Key.Key_R, ALT)
    qtbot.waitUntil(
        lambda: bob.get_task("a_writer").version == live.version + 1, timeout=LOAD_TIMEOUT_MS
    )
    old = next(r for r in live.revisions if r.version == int(restored_version))
    assert bob.get_task("a_writer").content == old.content
