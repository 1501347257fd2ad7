"""The budget breakdown opens with focus on a named chart that shows its ring, its rows move
with the arrow keys, and Return on a section puts the editor's cursor on that section."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.window_steps import LOAD_TIMEOUT_MS
from widgets.insight.budget_dialog import BudgetDialog
from widgets.window.main_window import MainWindow

Key = Qt.Key


def test_the_breakdown_is_used_with_keys_alone(qtbot, window: MainWindow) -> None:
    tab = window.task_tab
    insight = tab.insight
    insight.commands.budget.trigger()
    qtbot.waitUntil(lambda: isinstance(insight.dialog, BudgetDialog), timeout=LOAD_TIMEOUT_MS)
    dialog = insight.dialog
    assert isinstance(dialog, BudgetDialog)
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None, timeout=LOAD_TIMEOUT_MS)
    focused = QApplication.focusWidget()
    assert focused in (dialog.notes_chart, dialog.sections_chart)
    assert focused.accessibleName()  # named, never "an unnamed area"

    chart = dialog.sections_chart
    chart.setFocus()
    qtbot.waitUntil(chart.hasFocus)
    sections = dialog.sizes.largest_first()
    assert chart.current == 0
    if len(sections) > 1:
        qtbot.keyClick(chart, Key.Key_Down)
        assert chart.current == 1
    wanted = sections[chart.current].line
    assert chart.accessibleDescription().endswith(f"line {wanted}")
    qtbot.keyClick(chart, Key.Key_Return)
    qtbot.waitUntil(lambda: insight.dialog is None, timeout=LOAD_TIMEOUT_MS)
    assert tab.editor.textCursor().blockNumber() + 1 == wanted
