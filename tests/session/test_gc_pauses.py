"""The cycle collector: none during start-up, then only on the GUI thread, over newer objects."""

from __future__ import annotations

import gc
import threading
import weakref
from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from app.desk.gc_pauses import START_UP_STEPS, GuiThreadCollector


class _Cycle:
    """Garbage only the cycle collector can free: it refers to itself."""

    def __init__(self) -> None:
        self.me = self
        self.freed_on: list[str] = []


@pytest.fixture
def collector(qtbot: QtBot) -> Iterator[GuiThreadCollector]:
    was_enabled = gc.isenabled()
    made = GuiThreadCollector()
    yield made
    made.stop()
    made.deleteLater()
    gc.unfreeze()
    if was_enabled:
        gc.enable()


def _garbage_cycle() -> weakref.ref[_Cycle]:
    cycle = _Cycle()
    return weakref.ref(cycle)


def test_nothing_is_collected_automatically_once_installed(collector: GuiThreadCollector) -> None:
    assert not gc.isenabled()


def test_start_up_ends_after_its_last_step_and_freezes_what_it_made(
    collector: GuiThreadCollector,
) -> None:
    kept = _Cycle()  # alive through start-up: frozen with the rest
    assert collector.starting
    collector.start_up_step("agent shown")
    assert collector.starting, "one step is not the end of start-up"
    assert gc.get_freeze_count() == 0
    collector.start_up_step("notes listed")
    assert not collector.starting
    assert set(START_UP_STEPS) == {"agent shown", "notes listed"}
    assert gc.get_freeze_count() > 0
    frozen = gc.get_freeze_count()
    made_later = [_Cycle() for _ in range(5000)]
    collector.start_up_step("agent shown")  # another agent later: nothing more is frozen
    # (Frozen objects let go meanwhile leave the count: it may only shrink.)
    assert gc.get_freeze_count() < frozen + len(made_later) // 2
    assert kept.me is kept


def test_no_collection_during_start_up(collector: GuiThreadCollector, qtbot: QtBot) -> None:
    ref = _garbage_cycle()
    qtbot.wait(1200)  # two ticks
    assert ref() is not None, "start-up garbage waits for the end of start-up"


def test_after_start_up_cycles_are_collected_on_the_gui_thread(
    collector: GuiThreadCollector, qtbot: QtBot
) -> None:
    for step in START_UP_STEPS:
        collector.start_up_step(step)
    threads: list[str] = []
    cycle = _Cycle()
    weakref.finalize(cycle, lambda: threads.append(threading.current_thread().name))
    ref = weakref.ref(cycle)
    del cycle
    qtbot.waitUntil(lambda: ref() is None, timeout=5000)
    assert threads == [threading.main_thread().name]
