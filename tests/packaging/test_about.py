"""Help › About: what an operator pastes into a problem report."""

from __future__ import annotations

import platform
from pathlib import Path

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import qVersion
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from app import version
from widgets.dialogs.about import AboutDialog, about_details
from widgets.window.main_window import MainWindow


def test_details_name_the_versions_and_the_folders(tmp_path: Path) -> None:
    rows = dict(about_details({"TASKDESK_HOME": str(tmp_path)}))
    assert rows["Taskdesk"] == version()
    assert rows["Qt"] == qVersion()
    assert rows["PySide6"] == pyside_version
    assert rows["Python"].startswith(platform.python_version())
    assert rows["Settings"] == str(tmp_path / "config")
    assert rows["Drafts and local workspace"] == str(tmp_path / "data")
    assert rows["Cache"] == str(tmp_path / "cache")
    assert rows["Logs"] == str(tmp_path / "logs")


def test_copy_details_puts_every_row_on_the_clipboard(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = AboutDialog(env={"TASKDESK_HOME": str(tmp_path)})
    qtbot.addWidget(dialog)
    dialog.copy_button.click()
    copied = QGuiApplication.clipboard().text().splitlines()
    assert copied[0] == f"Taskdesk: {version()}"
    assert f"Qt: {qVersion()}" in copied
    assert f"Drafts and local workspace: {tmp_path / 'data'}" in copied
    assert len(copied) == len(dialog.rows)


def test_paths_are_shown_as_plain_text(qtbot: QtBot, tmp_path: Path) -> None:
    odd = tmp_path / "<b>not bold</b>"
    dialog = AboutDialog(env={"TASKDESK_HOME": str(odd)})
    qtbot.addWidget(dialog)
    label = dialog.value_labels["Settings"]
    assert label.text() == str(odd / "config")
    assert label.textFormat().name == "PlainText"


def test_help_menu_opens_about(qtbot: QtBot, tmp_path: Path) -> None:
    window = MainWindow(data_dir=tmp_path / "data")
    qtbot.addWidget(window)
    help_menu = next(
        action.menu() for action in window.menuBar().actions() if action.text() == "&Help"
    )
    assert window.actions_.about in help_menu.actions()
    window.actions_.about.trigger()
    dialog = window.findChild(AboutDialog)
    assert dialog is not None and dialog.isVisible()
    assert dialog.windowTitle() == "About Taskdesk"
    dialog.close_button.click()
    qtbot.waitUntil(lambda: window.findChild(AboutDialog) is None)
