"""The find bar: Esc closes it from every control, its outcome is told to screen readers,
and beside a narrow editor nothing in it is clipped."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from widgets.editor.find_bar import FindBar
from widgets.editor.task_editor import TaskEditor


@pytest.fixture
def host(qtbot: QtBot) -> QWidget:
    widget = QWidget()
    qtbot.addWidget(widget)
    return widget


@pytest.fixture
def bar(qtbot: QtBot, host: QWidget) -> FindBar:
    editor = TaskEditor(host)
    find_bar = FindBar(editor)
    layout = QVBoxLayout(host)
    layout.addWidget(editor)
    layout.addWidget(find_bar)
    editor.set_text("alpha beta alpha gamma alpha delta alpha")
    host.resize(900, 300)
    host.show()
    qtbot.waitExposed(host)
    find_bar.show_replace()
    return find_bar


@pytest.mark.parametrize(
    "control", ["replace_all_button", "match_case_box", "find_next_button", "replace_button"]
)
def test_esc_closes_the_bar_from_every_control(qtbot: QtBot, bar: FindBar, control: str) -> None:
    widget = getattr(bar, control)
    widget.setFocus()
    with qtbot.waitSignal(bar.closed):
        qtbot.keyClick(widget, Qt.Key.Key_Escape)
    assert bar.isHidden()


def test_no_matches_and_replaced_are_told(qtbot: QtBot, bar: FindBar) -> None:
    bar.find_field.setText("omega")
    with qtbot.waitSignal(bar.announced) as told:
        bar.find_next()
    assert told.args == ["No matches"]
    bar.find_field.setText("alpha")
    bar.replace_field.setText("ALPHA")
    with qtbot.waitSignal(bar.announced) as told:
        bar.replace_all()
    assert told.args == ["Replaced 4"]
    assert bar.status_label.text() == "Replaced 4"


def test_at_its_narrowest_nothing_is_clipped(qtbot: QtBot, bar: FindBar) -> None:
    bar.find_field.setText("alpha")
    bar.replace_field.setText("ALPHA")
    bar.replace_all()
    host = bar.parentWidget()
    host.resize(host.minimumSizeHint().width(), 300)
    qtbot.waitUntil(lambda: bar.width() <= bar.minimumSizeHint().width() + 24)
    assert bar.find_field.width() >= bar.find_field.minimumWidth() >= 100
    assert bar.match_case_box.width() >= bar.match_case_box.sizeHint().width()
    metrics = bar.status_label.fontMetrics()
    assert bar.status_label.width() >= metrics.horizontalAdvance("Replaced 4")
