"""The GUI thread never waits on the network or the disk: every call the session makes to the
client and the store runs on a Runner thread."""

from __future__ import annotations

import threading
from typing import Any


class ThreadWatch:
    """Wraps the real client or store and notes the thread of every call it passes on."""

    def __init__(self, real: Any, gui: int, calls: list[tuple[str, bool]]) -> None:
        self._real = real
        self._gui = gui
        self._calls = calls

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._real, name)
        if not callable(target):
            return target

        def call(*args: Any, **kwargs: Any) -> Any:
            self._calls.append((name, threading.get_ident() == self._gui))
            return target(*args, **kwargs)

        return call


def test_no_request_or_disk_access_on_the_gui_thread(
    qtbot: Any, make_harness: Any, ann: Any, store: Any, bob: Any
) -> None:
    calls: list[tuple[str, bool]] = []
    gui = threading.get_ident()
    h = make_harness(client=ThreadWatch(ann, gui, calls), store=ThreadWatch(store, gui, calls))
    h.session.open("a_writer")
    qtbot.waitUntil(lambda: h.state.saved_text_confirmed)
    h.editor.type("mine")
    bob.put_task("a_writer", "theirs", None)
    h.session.save()
    qtbot.waitUntil(lambda: h.state.conflict is not None)
    h.session.use_theirs()
    qtbot.waitUntil(lambda: h.editor.text == "theirs")
    h.editor.type("again")
    h.session.discard()
    qtbot.waitUntil(lambda: h.editor.text == "theirs")
    h.session.undo_discard()
    h.session.save()
    qtbot.waitUntil(lambda: h.state.saved_text_confirmed)
    h.session.recoverable_drafts()
    h.runner.wait_idle()
    used = {name for name, _ in calls}
    assert {"get_task", "put_task", "get_draft", "save_draft", "discard_draft"} <= used
    assert [name for name, on_gui in calls if on_gui] == []
