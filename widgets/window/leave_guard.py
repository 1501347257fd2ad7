"""Unsaved edits before leaving the Task: Save, Discard or Cancel, then go on (or not)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

from app.core.user_message import Severity, UserMessage

if TYPE_CHECKING:
    from widgets.dialogs.confirm import ConfirmLeaveDialog
    from widgets.task.task_tab import TaskTab


class LeaveGuard:
    """Asks before switching agents, connecting elsewhere or closing with unsaved edits.

    ``tab()`` is the Task tab once built (None before: nothing to lose). The question is
    window-modal and does not block; ``dialog`` is it while open.
    """

    def __init__(self, window: QWidget, tab: Callable[[], TaskTab | None]) -> None:
        self._window = window
        self._tab = tab
        self.dialog: ConfirmLeaveDialog | None = None

    def ask(self, action: str, proceed: Callable[[], None]) -> None:
        """Run ``proceed`` now, or after Save/Discard when the Task has unsaved edits;
        ``action`` says what leaving is for ("switch to another agent")."""
        tab = self._tab()
        if tab is None or not tab.has_unsaved():
            proceed()
            return
        from widgets.dialogs.confirm import ConfirmLeaveDialog, LeaveChoice  # when first asked

        dialog = ConfirmLeaveDialog(tab.agent_name(), action, self._window)
        self.dialog = dialog

        def answered() -> None:
            self.dialog = None
            dialog.deleteLater()
            if dialog.choice is LeaveChoice.SAVE:
                tab.save_then(proceed)
            elif dialog.choice is LeaveChoice.DISCARD:
                discard_then(tab, proceed)

        dialog.finished.connect(answered)
        dialog.open()


def discard_then(tab: TaskTab, proceed: Callable[[], None]) -> None:
    """Discard, and go on once the editor holds the live text again.

    Discard first keeps the edits in local history (on the disk lane) and only then replaces
    the editor's text; leaving before that wrote the dropped text back as a draft, offered
    again at the next start. If keeping them fails, the session says so and nothing goes on.
    """
    session = tab.session
    if session is None:
        proceed()
        return

    def done(_doc: object) -> None:
        stop()
        proceed()

    def failed(message: UserMessage) -> None:
        if message.severity is Severity.ERROR:
            stop()

    def stop() -> None:
        session.task_loaded.disconnect(done)
        session.message.disconnect(failed)

    session.task_loaded.connect(done)
    session.message.connect(failed)
    tab.discard(undoable=False)
