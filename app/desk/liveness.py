"""Callbacks that end with their QObject: a job's answer arriving after the object is gone is
dropped, not delivered to a deleted object ("Signal source has been deleted")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QObject

from app.desk.runner import Runner

T = TypeVar("T")


class Liveness:
    """Whether ``owner`` still exists; ``submit`` runs work whose callbacks respect it."""

    def __init__(self, owner: QObject) -> None:
        self.alive = True
        owner.destroyed.connect(self._gone)

    def _gone(self, *_: object) -> None:
        self.alive = False

    def guard(self, fn: Callable[[T], object]) -> Callable[[T], None]:
        def call(value: T) -> None:
            if self.alive:
                fn(value)

        return call

    def submit(
        self,
        runner: Runner,
        fn: Callable[[], T],
        *,
        on_done: Callable[[T], object],
        on_error: Callable[[BaseException], object] | None = None,
        **options: Any,
    ) -> None:
        runner.submit(
            fn,
            on_done=self.guard(on_done),
            on_error=self.guard(on_error) if on_error is not None else None,
            **options,
        )
