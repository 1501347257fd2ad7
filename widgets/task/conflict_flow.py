"""A save that met someone else's newer version: compare, keep mine (after seeing what it
throws away), or use theirs. Merge is ``merge_flow``'s."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from app.core.cancel import CancelledError, NewestRequest
from app.core.diff_model import SideBySide, build_diff
from app.core.models import TaskDoc
from app.desk.failures import describe_failure
from app.desk.runner import Runner
from app.desk.session_state import SessionState
from widgets.task.merge_flow import base_text_of, lf
from widgets.window.messages import Messages

if TYPE_CHECKING:  # the dialogs load when a conflict first needs one (the tab preloads them)
    from widgets.dialogs.confirm import CompareDialog, ConfirmDropDialog
    from widgets.task.keep_mine_dialog import KeepMineDialog

Dropped = tuple[int, str, SideBySide] | None
"""What Keep mine throws away: how many changes, their text with them, its diff to mine."""


class ConflictFlow(QObject):
    """The conflict's dialogs: theirs beside mine (``compare_dialog``) and the Use theirs
    confirmation (``confirm_dialog``), kept while open so tests can press their buttons.

    The compare dialog's own Keep mine and Use theirs buttons fire ``keep_mine_requested``
    and ``use_theirs_requested``: the same as the conflict banner's buttons.
    """

    keep_mine_requested = Signal()
    use_theirs_requested = Signal()
    merge_requested = Signal()  # Merge in the Keep mine question or the compare dialog

    def __init__(self, runner: Runner, messages: Messages, owner: QWidget) -> None:
        super().__init__(owner)
        self._runner = runner
        self._messages = messages
        self._owner = owner  # the dialogs' parent
        self.compare_dialog: CompareDialog | None = None
        self.confirm_dialog: ConfirmDropDialog | None = None
        self.keep_mine_dialog: KeepMineDialog | None = None
        self._requests = NewestRequest()

    def compare(self, theirs: TaskDoc, mine: str) -> None:
        """Their version beside the editor text, diffed on the runner."""
        from widgets.dialogs.confirm import CompareDialog

        who = theirs.updated_by_name or "theirs"
        dialog = CompareDialog(f"v{theirs.version} by {who}", self._owner)
        dialog.merge_button.clicked.connect(self.close_compare)  # the merge shows in the editor
        dialog.merge_button.clicked.connect(self.merge_requested)
        dialog.keep_mine_button.clicked.connect(self.keep_mine_requested)
        dialog.use_theirs_button.clicked.connect(self.use_theirs_requested)
        self.close_compare()
        self.compare_dialog = dialog

        def show(model: SideBySide) -> None:
            if self.compare_dialog is dialog:  # not closed (and deleted) before the diff came
                dialog.diff_view.set_model(model, theirs.content, mine)

        dialog.open()
        self._runner.submit(
            lambda: build_diff(theirs.content, mine),
            on_done=show,
            on_error=lambda exc: self._messages.show(
                describe_failure(exc, doing="The texts could not be compared")
            ),
        )

    def close_compare(self) -> None:
        dialog, self.compare_dialog = self.compare_dialog, None
        if dialog is not None:
            dialog.close()
            dialog.deleteLater()

    def confirm_use_theirs(self, theirs: TaskDoc, use_theirs: Callable[[], None]) -> None:
        """Ask before ``use_theirs()`` replaces the operator's text with their version."""
        from widgets.dialogs.confirm import ConfirmDropDialog

        who = theirs.updated_by_name or "the other"
        dialog = ConfirmDropDialog(
            "Use theirs",
            f"Replace your text with v{theirs.version} by {who}? Your text is kept in "
            "local history on this computer.",
            "Use &theirs",
            self._owner,
        )
        self.confirm_dialog = dialog
        dialog.accepted.connect(self.close_compare)
        dialog.accepted.connect(use_theirs)
        dialog.finished.connect(lambda _: setattr(self, "confirm_dialog", None))
        dialog.open()

    def keep_mine(self, state: SessionState, mine: str, keep: Callable[[], None]) -> None:
        """``keep()`` once the operator has seen the changes of theirs it throws away; at
        once when it throws none away. Found by a merge on the runner."""
        theirs = state.conflict
        if theirs is None:
            return
        base = base_text_of(state)
        token = self._requests.start()

        def dropped() -> Dropped:
            from app.core.merge import Resolution, merge_texts

            their_text = lf(theirs.content)
            if base is None:  # unknown start: all of their text is what mine replaces
                return 1, their_text, build_diff(their_text, mine, cancel=token)
            result = merge_texts(lf(base), their_text, mine, cancel=token)
            count = len(result.theirs_changes) + len(result.conflicts)
            if not count:
                return None
            with_theirs = result.take_all(Resolution.THEIRS).text or ""
            return count, with_theirs, build_diff(with_theirs, mine, cancel=token)

        def ask(found: Dropped) -> None:
            if not self._requests.is_current(token):
                return
            if found is None:
                self.close_compare()
                keep()
                return
            from widgets.task.keep_mine_dialog import KeepMineDialog, dropped_text, left_title

            count, with_theirs, model = found
            who = theirs.updated_by_name or ""
            dialog = KeepMineDialog(
                model,
                with_theirs,
                mine,
                dropped_text(count, theirs.version, who),
                left_title(theirs.version, who),
                self._owner,
            )
            self.keep_mine_dialog = dialog
            dialog.accepted.connect(self.close_compare)
            dialog.accepted.connect(keep)
            dialog.finished.connect(self._keep_mine_closed)
            dialog.open()

        def failed(exc: BaseException) -> None:
            if not isinstance(exc, CancelledError) and self._requests.is_current(token):
                self._messages.show(describe_failure(exc, doing="The texts could not be compared"))

        self._runner.submit(dropped, on_done=ask, on_error=failed)

    def _keep_mine_closed(self, code: int) -> None:
        dialog, self.keep_mine_dialog = self.keep_mine_dialog, None
        if dialog is not None:
            dialog.deleteLater()
        # Back to the Task's window, whatever the window manager does as the dialog goes:
        # focus returns to the Task there, and the next keystrokes land in it.
        self._owner.window().activateWindow()
        if code == 2:
            self.close_compare()
            self.merge_requested.emit()
