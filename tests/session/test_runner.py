"""The Runner: work off the GUI thread, results back on it, failures never lost."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from app.client.errors import Offline
from app.core.user_message import MessageKey, Severity, UserMessage
from app.desk.runner import Runner


def test_results_come_back_on_the_gui_thread(qtbot: Any, runner: Runner) -> None:
    gui = threading.get_ident()
    seen: dict[str, int] = {}

    def work() -> int:
        seen["worker"] = threading.get_ident()
        return 42

    got: list[int] = []
    runner.submit(
        work,
        on_done=lambda v: (got.append(v), seen.setdefault("done", threading.get_ident())),
        on_error=pytest.fail,
    )
    qtbot.waitUntil(lambda: got == [42])
    assert seen["worker"] != gui
    assert seen["done"] == gui
    assert runner.is_idle()


def test_a_failure_always_reaches_on_error(qtbot: Any, runner: Runner) -> None:
    errors: list[BaseException] = []

    def work() -> None:
        raise OSError("disk gone")

    runner.submit(work, on_done=pytest.fail, on_error=errors.append)
    qtbot.waitUntil(lambda: len(errors) == 1)
    assert isinstance(errors[0], OSError)


def test_the_disk_lane_keeps_the_order_of_writes(qtbot: Any, runner: Runner) -> None:
    written: list[int] = []
    lock = threading.Lock()

    def write(i: int) -> None:
        with lock:
            written.append(i)

    for i in range(200):
        runner.submit(
            lambda i=i: write(i), on_done=lambda _: None, on_error=pytest.fail, lane="disk"
        )
    assert runner.wait_idle(10_000)
    assert written == list(range(200))


def test_the_net_lane_runs_jobs_side_by_side(qtbot: Any, runner: Runner) -> None:
    both = threading.Barrier(2, timeout=5)
    done: list[int] = []
    for i in range(2):
        runner.submit(lambda i=i: (both.wait(), i)[1], on_done=done.append, on_error=pytest.fail)
    qtbot.waitUntil(lambda: sorted(done) == [0, 1])


def test_sync_mode_runs_inline(qtbot: Any) -> None:
    runner = Runner(sync=True)
    got: list[Any] = []
    runner.submit(lambda: threading.get_ident(), on_done=got.append, on_error=pytest.fail)
    assert got == [threading.get_ident()]
    runner.submit(lambda: 1 / 0, on_done=pytest.fail, on_error=got.append)
    assert isinstance(got[-1], ZeroDivisionError)


def test_shutdown_lets_queued_writes_land(qtbot: Any) -> None:
    runner = Runner()
    gate = threading.Event()
    written: list[int] = []
    runner.submit(lambda: gate.wait(5), on_done=lambda _: None, on_error=pytest.fail, lane="disk")
    for i in range(5):
        runner.submit(
            lambda i=i: written.append(i), on_done=lambda _: None, on_error=pytest.fail, lane="disk"
        )
    gate.set()
    assert runner.shutdown(5000)
    assert written == [0, 1, 2, 3, 4]
    with pytest.raises(RuntimeError):
        runner.submit(lambda: None, on_done=lambda _: None, on_error=lambda _: None)


def test_an_unknown_lane_is_refused(runner: Runner) -> None:
    with pytest.raises(ValueError, match="lane"):
        runner.submit(lambda: None, on_done=print, on_error=print, lane="gpu")  # type: ignore[arg-type]


def test_a_failure_with_no_handler_of_its_own_is_said_to_the_operator(
    qtbot: Any, runner: Runner
) -> None:
    def work() -> None:
        raise Offline()

    with qtbot.waitSignal(runner.failed, timeout=5000) as said:
        runner.submit(work, on_done=pytest.fail, doing="The versions could not be compared")
    message = said.args[0]
    assert isinstance(message, UserMessage) and message.severity is Severity.ERROR
    assert message.text == f"The versions could not be compared: {Offline().message}"
    assert runner.is_idle()


def test_an_unexpected_failure_is_said_plainly_and_logged_in_full(
    qtbot: Any, runner: Runner, caplog: pytest.LogCaptureFixture
) -> None:
    def work() -> None:
        raise KeyError("internal detail")

    with qtbot.waitSignal(runner.failed, timeout=5000) as said:
        runner.submit(work, on_done=pytest.fail, key=MessageKey.PREVIEW)
    message = said.args[0]
    assert message.key is MessageKey.PREVIEW
    assert "internal detail" not in message.text and "KeyError" in message.text
    assert any(r.exc_info and r.exc_info[0] is KeyError for r in caplog.records)


def test_a_caller_with_its_own_handler_is_not_second_guessed(qtbot: Any, runner: Runner) -> None:
    errors: list[BaseException] = []
    said: list[object] = []
    runner.failed.connect(said.append)
    runner.submit(lambda: 1 / 0, on_done=pytest.fail, on_error=errors.append)
    assert runner.wait_idle(5000)
    assert len(errors) == 1 and said == []


def test_sync_mode_says_failures_at_once(qtbot: Any) -> None:
    runner = Runner(sync=True)
    said: list[UserMessage] = []
    runner.failed.connect(said.append)
    runner.submit(lambda: 1 / 0, on_done=pytest.fail)
    assert [m.severity for m in said] == [Severity.ERROR]


def test_an_answer_for_a_closed_dialog_is_dropped_not_raised(qtbot: Any, runner: Runner) -> None:
    """The dialog that asked was closed (and deleted) before its work came back: its method
    is not called on a deleted object, as Qt drops a signal to a deleted receiver."""
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QDialog, QLabel

    class Asking(QDialog):
        def __init__(self) -> None:
            super().__init__()
            self.label = QLabel(self)

        def on_loaded(self, text: str) -> None:
            self.label.setText(text)  # on a deleted dialog: RuntimeError

    release = threading.Event()
    dialog = Asking()
    runner.submit(lambda: release.wait(10) and "loaded", on_done=dialog.on_loaded)
    dialog.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    release.set()
    assert runner.wait_idle(10_000)  # an exception in the callback would fail the test here


def test_a_request_given_up_at_shutdown_posts_nothing_when_it_ends(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A request that outlives shutdown (a server that never answers) ends after the window
    is gone: it must post nothing into the runner, which is deleted by then."""
    monkeypatch.setattr("app.desk.runner.NET_GIVE_UP_MS", 50)
    runner = Runner()
    release = threading.Event()
    answered: list[object] = []
    runner.submit(release.wait, on_done=answered.append)
    assert runner.shutdown(100) is False
    posted: list[int] = []
    runner._finished.connect(posted.append)
    release.set()  # the request ends now, after shutdown gave up on it
    runner._net.waitForDone(5_000)
    qtbot.wait(50)
    assert posted == [] and answered == []
