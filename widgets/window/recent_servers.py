"""File › Recent servers: the servers signed in to before, one step away."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMenu

from app.connect.settings import RememberedServer
from app.desk.runner import Runner


def _remembered() -> list[RememberedServer]:
    from app.connect.settings_owner import settings

    return list(settings().servers)


class RecentServers(QObject):
    """Fills ``menu`` with the remembered servers, newest first (read on the disk lane)."""

    def __init__(self, menu: QMenu, runner: Runner, open_url: Callable[[str], None]) -> None:
        super().__init__(menu)
        self._menu = menu
        self._runner = runner
        self._open_url = open_url
        self._fill([])

    def refresh(self) -> None:
        self._runner.submit(_remembered, on_done=self._fill, lane="disk")

    def _fill(self, servers: list[RememberedServer]) -> None:
        self._menu.clear()
        for server in reversed(servers):
            action = self._menu.addAction(server.name or server.url)
            action.setToolTip(server.url)
            action.triggered.connect(partial(self._open_url, server.url))
        if not servers:
            self._menu.addAction("No servers yet").setEnabled(False)

    def urls(self) -> list[str]:
        return [a.toolTip() for a in self._menu.actions() if a.isEnabled()]
