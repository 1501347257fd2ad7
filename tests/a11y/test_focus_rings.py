"""The compare view, the table of changed lines, the References tree and the side panel's tabs
draw the 2 px focus ring in the theme's focus colour, in both looks, however focus arrives."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QPushButton, QTabWidget, QTreeView, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from widgets.common.theme import DARK, LIGHT, Theme, stylesheet
from widgets.versions.diff_view import DiffView


def _focus_pixels(image: QImage, colour: str) -> int:
    """Pixels of the ring's colour (within a little of it, for antialiasing) in ``image``."""
    want = QColor(colour)
    found = 0
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            got = image.pixelColor(x, y)
            if (
                abs(got.red() - want.red()) < 12
                and abs(got.green() - want.green()) < 12
                and abs(got.blue() - want.blue()) < 12
            ):
                found += 1
    return found


def _tree() -> QTreeView:
    model = QStandardItemModel()
    for name in ("Hop 1", "Hop 2"):
        model.appendRow(QStandardItem(name))
    tree = QTreeView()
    tree.setModel(model)
    tree.setProperty("keep_model", model)
    return tree


def _tabs() -> QTabWidget:
    tabs = QTabWidget()
    tabs.addTab(QWidget(), "References")
    tabs.addTab(QWidget(), "Shape")
    tabs.tabBar().setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    return tabs


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=["light", "dark"])
@pytest.mark.parametrize("kind", ["compare", "changed_lines", "tree", "tab"])
def test_focus_draws_a_ring_in_the_focus_colour(qtbot: QtBot, theme: Theme, kind: str) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    host.setStyleSheet(stylesheet(theme))
    layout = QVBoxLayout(host)
    diff = DiffView()
    diff.set_texts("one\ntwo\n", "one\n2\n")
    diff.read_button.setChecked(True)
    tabs = _tabs()
    targets: dict[str, QWidget] = {
        "compare": diff.canvas,
        "changed_lines": diff.reader,
        "tree": _tree(),
        "tab": tabs.tabBar(),
    }
    layout.addWidget(diff)
    layout.addWidget(targets["tree"])
    layout.addWidget(tabs)
    other = QPushButton("elsewhere")
    layout.addWidget(other)
    host.resize(700, 700)
    host.show()
    host.activateWindow()
    qtbot.waitUntil(host.isActiveWindow)
    target = targets[kind]
    other.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(other.hasFocus)
    QApplication.processEvents()
    before = _focus_pixels(target.grab().toImage(), theme.focus)
    target.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(target.hasFocus)
    QApplication.processEvents()
    after = _focus_pixels(target.grab().toImage(), theme.focus)
    assert after > before + 20, f"{kind}: {before} focus-coloured pixels before, {after} after"
