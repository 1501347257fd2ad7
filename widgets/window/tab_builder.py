"""Builds the Task tab a part per event-loop turn, importing a part's modules on the runner."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from app.desk.runner import Runner

if TYPE_CHECKING:
    from widgets.task.task_tab import TaskTab

REST_AT_THE_LATEST_MS = 1_500
"""The parts after the first Task follow it, or this long after the tab is shown."""


class TabBuilder(QObject):
    """Drives ``TaskTab(staged=True)``: one part per turn of the event loop (built at once,
    the tab held the window ~100 ms), the modules a part needs imported on the runner first
    (on the GUI thread the side panel's held it ~60 ms), and ``show(tab)`` as soon as the
    tab can show a Task. The parts after that (the side panel) wait for the first Task on
    screen, or ``REST_AT_THE_LATEST_MS``: their imports would slow it down.

    Whoever needs the tab whole before then calls ``tab.finish_building()``; the builder
    then finds nothing left to build and stops. It is the tab's child: its timers end with
    the tab, and it stops once the runner has shut down (the window is closing).
    """

    def __init__(self, runner: Runner, tab: TaskTab, show: Callable[[TaskTab], None]) -> None:
        super().__init__(tab)
        self._runner = runner
        self._tab = tab
        self._show = show
        self._shown = False
        self._waiting = False

    def start(self) -> None:
        self._next()

    def _next(self) -> None:
        tab = self._tab
        if self._runner.closed:
            return
        if tab.showable and not self._shown:
            self._shown = True
            self._waiting = True
            self._soon(lambda: self._show(tab))
            tab.agent_shown.connect(self._resume)
            QTimer.singleShot(REST_AT_THE_LATEST_MS, self, self._resume)
            return
        modules = tab.modules_next
        if modules and tab.building:
            self._runner.submit(
                lambda: _import(modules),
                on_done=lambda _: self._soon(self._part),
                on_error=lambda _: self._soon(self._part),  # the part's own import says why
            )
        elif tab.building:
            self._soon(self._part)

    def _soon(self, step: Callable[[], None]) -> None:
        # A real 1 ms timer, not a zero one: a zero timer is a posted event that runs ahead
        # of the timers (and the input) already due, so every part would run back to back.
        QTimer.singleShot(1, self, step)

    def _resume(self, *_shown: object) -> None:
        if self._waiting:
            self._waiting = False
            self._tab.agent_shown.disconnect(self._resume)
            self._next()

    def _part(self) -> None:
        if not self._runner.closed:
            self._tab.build_more()
            self._next()


def _import(modules: tuple[str, ...]) -> None:
    """Imports only: classes are defined, no widget is made (safe off the GUI thread)."""
    for name in modules:
        importlib.import_module(name)
