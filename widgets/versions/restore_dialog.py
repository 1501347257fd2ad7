"""Restore vN, asked first: the summary and the compare of the live text with what comes back."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from app.core.diff_model import SideBySide
from widgets.dialogs.confirm import ConfirmRestoreDialog
from widgets.versions.diff_view import DiffView


class RestoreCompareDialog(ConfirmRestoreDialog):
    """The restore confirmation with the one compare view: live on the left, vN on the right."""

    def __init__(
        self,
        version: int,
        live_version: int,
        summary: str,
        diff: tuple[SideBySide, str, str],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(version, live_version, summary, parent)
        model, live, restored = diff
        self.diff_view = DiffView()
        self.diff_view.set_model(
            model, live, restored, f"v{live_version} (live now)", f"v{version} (restored)"
        )
        self._extra.addWidget(self.diff_view, 1)
        self.resize(1000, 620)
