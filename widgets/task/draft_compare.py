"""A recovered draft beside the live Task before Recover or Discard: what would come back."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPushButton, QVBoxLayout, QWidget

from app.core.diff_model import SideBySide, build_diff
from app.desk.runner import Runner


class DraftCompareDialog(QDialog):
    """The live Task (left) and the draft (right), with Recover, Discard and Close."""

    def __init__(self, live_title: str, parent: QWidget | None = None) -> None:
        from widgets.versions.diff_view import DiffView  # only when a draft is compared

        super().__init__(parent)
        self.setWindowTitle("Compare the draft with the live Task")
        self.diff_view = DiffView()
        self.diff_view.set_titles(live_title, "The draft (unsaved)")
        self.buttons = QDialogButtonBox()
        self.recover_button: QPushButton = self.buttons.addButton(
            "Re&cover the draft", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.discard_button: QPushButton = self.buttons.addButton(
            "&Discard it", QDialogButtonBox.ButtonRole.DestructiveRole
        )
        self.close_button: QPushButton = self.buttons.addButton(
            "&Close", QDialogButtonBox.ButtonRole.RejectRole
        )
        for button in (self.recover_button, self.discard_button, self.close_button):
            button.setAccessibleName(button.text().replace("&", ""))
        self.close_button.setDefault(True)  # choosing stays a deliberate press
        self.recover_button.clicked.connect(self.accept)
        self.discard_button.clicked.connect(self.accept)
        self.close_button.clicked.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.diff_view, 1)
        layout.addWidget(self.buttons)
        self.resize(1100, 640)


class DraftCompare(QObject):
    """Opens the compare (``dialog`` while open); its Recover and Discard press the banner's."""

    def __init__(
        self, runner: Runner, owner: QWidget, recover: QPushButton, discard: QPushButton
    ) -> None:
        super().__init__(owner)
        self._runner = runner
        self._owner = owner
        self._recover = recover
        self._discard = discard
        self.dialog: DraftCompareDialog | None = None

    def show(self, live_title: str, live_text: str, draft_text: str) -> None:
        self.close()
        dialog = DraftCompareDialog(live_title, self._owner)
        dialog.recover_button.clicked.connect(self._recover.click)
        dialog.discard_button.clicked.connect(self._discard.click)
        dialog.finished.connect(self._on_finished)
        self.dialog = dialog

        def diffed(model: SideBySide) -> None:
            if self.dialog is dialog:  # not closed before the diff came
                dialog.diff_view.set_model(model, live_text, draft_text)

        dialog.open()
        self._runner.submit(
            lambda: build_diff(live_text, draft_text),
            on_done=diffed,
            doing="The draft could not be compared",
        )

    def close(self) -> None:
        if self.dialog is not None:
            self.dialog.reject()

    def _on_finished(self, _result: int) -> None:
        dialog, self.dialog = self.dialog, None
        if dialog is not None:
            dialog.deleteLater()
