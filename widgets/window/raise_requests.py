"""Brings the window to the front when a second launch on the same data folder asks."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, Qt
from PySide6.QtWidgets import QWidget

from app.connect.single_instance import take_raise_request


class RaiseOnRequest(QObject):
    """Watches the instance folder; each request raises and activates ``window``."""

    def __init__(self, window: QWidget, folder: Path) -> None:
        super().__init__(window)
        self._window = window
        self._folder = folder
        self.raised = 0  # how many requests were honoured (tests read it)
        self._watcher = QFileSystemWatcher([str(folder)], self)
        self._watcher.directoryChanged.connect(self.on_folder_changed)
        self.on_folder_changed()  # a request written before the watch began

    def on_folder_changed(self, _path: str = "") -> None:
        if not take_raise_request(self._folder):
            return
        window = self._window
        if window.isMinimized():
            window.setWindowState(window.windowState() & ~Qt.WindowState.WindowMinimized)
        window.show()
        window.raise_()
        window.activateWindow()
        self.raised += 1
