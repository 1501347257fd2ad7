"""Builds the Task tab off the first paint's back: its modules on the runner, then a part per
event-loop turn."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QTimer

from app.desk.runner import Runner

if TYPE_CHECKING:
    from widgets.task.task_tab import TaskTab

TAB_MODULE = "widgets.task.task_tab"
REST_AT_THE_LATEST_MS = 1_500
"""The parts after the first Task follow it, or this long after the tab is shown."""


class TabBuilder(QObject):
    """Loads the tab's modules on the runner (on the GUI thread their imports held the window
    ~0.6 s), then drives ``make()`` (a ``TaskTab(staged=True)``) a part per turn of the event
    loop (built at once, the tab held the window ~100 ms), importing the modules a part needs
    on the runner first, and calls ``show(tab)`` as soon as the tab can show a Task. The
    parts after that (the side panel) wait for the first Task on screen and then for its
    preview (a large Task's first screenful) to be painted, or ``REST_AT_THE_LATEST_MS``:
    their imports (~0.1 s) would take Python's lock from the preview being rendered.

    ``finish()`` gives the whole tab at once, for whoever needs it sooner; the builder then
    finds nothing left to build. It stops once the runner has shut down (the window is
    closing); its timers end with its parent.
    """

    def __init__(
        self,
        runner: Runner,
        make: Callable[[], TaskTab],
        show: Callable[[TaskTab], None],
        parent: QObject,
    ) -> None:
        super().__init__(parent)
        self._runner = runner
        self._make = make
        self._show = show
        self.tab: TaskTab | None = None  # made once its modules are in
        self._shown = False
        # What the rest waits for: the first Task on screen ("task"), then its preview shown
        # ("preview"), then that preview painted ("paint"); None when nothing is waited for.
        self._waiting_for: str | None = None

    def start(self) -> None:
        self._runner.submit(
            lambda: _import((TAB_MODULE,)),
            on_done=lambda _: self._made(),
            on_error=lambda _: self._made(),  # making it on the GUI thread says why
        )

    def _warm_up_preview(self) -> None:
        """The preview's renderer, loaded while the server starts (after the tab's modules:
        the tab is on the way to the Task too). Quietly: a renderer that fails to load says
        so in the first preview."""
        from app.desk.preview_pipeline import warm_up_renderer

        self._runner.submit(warm_up_renderer, on_done=lambda _: None, on_error=lambda _: None)

    def finish(self) -> TaskTab:
        """The tab, whole, now (its modules imported here if they are not in yet)."""
        if self.tab is None:
            self.tab = self._make()
        self.tab.finish_building()
        return self.tab

    def _made(self) -> None:
        self._warm_up_preview()
        if self.tab is None:
            self.tab = self._make()
        self._next()

    def _next(self) -> None:
        tab = self.tab
        if tab is None or self._runner.closed:
            return
        if tab.showable and not self._shown:
            self._shown = True
            self._waiting_for = "task"
            self._soon(lambda: self._show(tab))
            tab.agent_shown.connect(self._on_agent_shown)
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

    def _on_agent_shown(self, *_agent_id: object) -> None:
        tab = self.tab
        if tab is not None and self._waiting_for == "task":
            tab.agent_shown.disconnect(self._on_agent_shown)
            self._waiting_for = "preview"
            tab.preview.pane.html_shown.connect(self._on_preview_shown)

    def _on_preview_shown(self) -> None:
        tab = self.tab
        if tab is not None and self._waiting_for == "preview":
            tab.preview.pane.html_shown.disconnect(self._on_preview_shown)
            self._waiting_for = "paint"
            tab.preview.pane.viewport().installEventFilter(self)  # its first paint, next

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and self._waiting_for == "paint":
            QTimer.singleShot(0, self, self._resume)  # once this paint is done
        return False

    def _resume(self, *_shown: object) -> None:
        tab, waited_for, self._waiting_for = self.tab, self._waiting_for, None
        if tab is None or waited_for is None:
            return
        if waited_for == "task":
            tab.agent_shown.disconnect(self._on_agent_shown)
        elif waited_for == "preview":
            tab.preview.pane.html_shown.disconnect(self._on_preview_shown)
        else:
            tab.preview.pane.viewport().removeEventFilter(self)
        self._next()

    def _part(self) -> None:
        if self.tab is not None and not self._runner.closed:
            self.tab.build_more()
            self._next()


def _import(modules: tuple[str, ...]) -> None:
    """Imports only: classes are defined, no widget is made (safe off the GUI thread)."""
    for name in modules:
        importlib.import_module(name)
