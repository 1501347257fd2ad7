"""Where References and the budget breakdown cut a path short, hovering it shows the whole
path (they cut paths off with nothing to hover)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip, QWidget

from tests.window_steps import LOAD_TIMEOUT_MS
from widgets.insight.budget_dialog import BudgetDialog
from widgets.window.main_window import MainWindow


def _hover(widget: QWidget, at: QPoint) -> str:
    """What a pause of the pointer at ``at`` shows: the tooltip's text, or ""."""
    QToolTip.hideText()
    event = QHelpEvent(QEvent.Type.ToolTip, at, widget.mapToGlobal(at))
    QApplication.sendEvent(widget, event)
    return QToolTip.text() if QToolTip.isVisible() else ""


def test_the_breakdowns_cut_paths_show_whole_on_hover(qtbot, window: MainWindow) -> None:
    insight = window.task_tab.insight
    insight.commands.budget.trigger()
    qtbot.waitUntil(lambda: isinstance(insight.dialog, BudgetDialog), timeout=LOAD_TIMEOUT_MS)
    dialog = insight.dialog
    assert isinstance(dialog, BudgetDialog)
    dialog.resize(520, 560)  # a narrow dialog: the labels get little room
    chart = dialog.notes_chart
    qtbot.waitUntil(lambda: chart.width() < 520, timeout=LOAD_TIMEOUT_MS)
    cut = [row for row, bar in enumerate(chart.bars) if chart.shown_label(row) != bar.label]
    assert cut, "a path long enough to be cut"
    for row in cut:
        tip = _hover(chart, QPoint(10, row * 24 + 12))
        assert chart.bars[row].label in tip
        assert "…" in chart.shown_label(row) and "…" not in tip


def test_references_cut_paths_show_whole_on_hover(qtbot, window: MainWindow) -> None:
    tab = window.task_tab
    tab.insight.commands.panel_actions["references"].trigger()
    view = tab.insight.panel.references
    qtbot.waitUntil(lambda: view.model.rowCount() > 0, timeout=LOAD_TIMEOUT_MS)
    tree = view.tree
    tree.setColumnWidth(0, 120)  # narrow: the paths are cut
    model = view.model
    seen = 0
    for row in range(model.rowCount()):
        index = model.index(row, 0)
        item = model.reference(index)
        assert item is not None
        rect = tree.visualRect(index)
        shown = str(index.data())
        if tree.fontMetrics().horizontalAdvance(shown) <= rect.width() - 30:
            continue  # whole in its cell
        seen += 1
        assert item.path in _hover(tree.viewport(), rect.center())
        tree.setCurrentIndex(index)
        # The detail line under the tree: the path has no space to wrap at.
        assert item.path in view.detail_label.toolTip()
    assert seen, "a cut path"
