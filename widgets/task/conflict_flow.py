"""A save that met someone else's newer version: compare, keep mine, or use theirs."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from app.core.diff_model import SideBySide, build_diff
from app.core.models import TaskDoc
from app.desk.failures import describe_failure
from app.desk.runner import Runner
from widgets.dialogs.confirm import CompareDialog, ConfirmDropDialog
from widgets.window.messages import Messages


class ConflictFlow(QObject):
    """The conflict's dialogs: theirs beside mine (``compare_dialog``) and the Use theirs
    confirmation (``confirm_dialog``), kept while open so tests can press their buttons.

    The compare dialog's own Keep mine and Use theirs buttons fire ``keep_mine_requested``
    and ``use_theirs_requested``: the same as the conflict banner's buttons.
    """

    keep_mine_requested = Signal()
    use_theirs_requested = Signal()

    def __init__(self, runner: Runner, messages: Messages, owner: QWidget) -> None:
        super().__init__(owner)
        self._runner = runner
        self._messages = messages
        self._owner = owner  # the dialogs' parent
        self.compare_dialog: CompareDialog | None = None
        self.confirm_dialog: ConfirmDropDialog | None = None

    def compare(self, theirs: TaskDoc, mine: str) -> None:
        """Their version beside the editor text, diffed on the runner."""
        who = theirs.updated_by_name or "theirs"
        dialog = CompareDialog(f"v{theirs.version} by {who}", self._owner)
        dialog.keep_mine_button.clicked.connect(self.keep_mine_requested)
        dialog.use_theirs_button.clicked.connect(self.use_theirs_requested)
        self.close_compare()
        self.compare_dialog = dialog

        def show(model: SideBySide) -> None:
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
