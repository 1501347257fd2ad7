"""Work sent off the GUI thread without a failure handler of its own still reaches the operator."""

from __future__ import annotations

from app.core.user_message import Severity
from app.store.errors import StoreError, StoreProblem
from widgets.window.main_window import MainWindow


def test_a_failure_with_no_handler_is_shown_in_the_window(qtbot, make_window, tmp_path) -> None:
    window: MainWindow = make_window()
    problem = StoreError(
        "The disk is full.", problem=StoreProblem.DISK_FULL, path=tmp_path / "store.sqlite3"
    )

    def work() -> None:
        raise problem

    window.runner.submit(work, on_done=lambda _: None, doing="The note could not be kept")
    expected = f"The note could not be kept: {problem.message}"
    qtbot.waitUntil(lambda: (expected, Severity.ERROR) in window.messages.history)
    assert window.messages.error_box is not None and window.messages.error_box.text() == expected
