"""Return in a destructive confirmation cancels: Cancel is its default and focused button."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QPushButton

from widgets.dialogs.confirm import ConfirmDropDialog, ConfirmRestoreDialog, OpenLinkDialog


def _use_theirs() -> tuple[ConfirmDropDialog, QPushButton]:
    dialog = ConfirmDropDialog("Use theirs", "Replace your text with v5 by Bob?", "Use theirs")
    return dialog, dialog.confirm_button


def _restore() -> tuple[ConfirmRestoreDialog, QPushButton]:
    dialog = ConfirmRestoreDialog(2, 5, "Compared with the live Task: 1 line added.")
    return dialog, dialog.restore_button


def _open_link() -> tuple[OpenLinkDialog, QPushButton]:
    dialog = OpenLinkDialog("https://example.com/a")
    return dialog, dialog.open_button


@pytest.mark.parametrize("make", [_use_theirs, _restore, _open_link])
def test_return_cancels_a_destructive_confirmation(qtbot, make) -> None:
    dialog, destructive = make()
    qtbot.addWidget(dialog)
    confirmed: list[bool] = []
    dialog.accepted.connect(lambda: confirmed.append(True))
    dialog.open()
    qtbot.waitUntil(lambda: dialog.cancel_button.hasFocus())
    assert dialog.cancel_button.isDefault()
    assert not destructive.isDefault() and not destructive.autoDefault()
    with qtbot.waitSignal(dialog.finished):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert dialog.result() == QDialog.DialogCode.Rejected
    assert confirmed == []


@pytest.mark.parametrize("make", [_use_theirs, _restore, _open_link])
def test_tab_to_the_destructive_button_then_return_still_cancels(qtbot, make) -> None:
    """Passing over the destructive button (Tab) makes it no default: Return still cancels
    once focus is back on Cancel, and Space on the destructive button is the only way."""
    dialog, destructive = make()
    qtbot.addWidget(dialog)
    dialog.open()
    qtbot.waitUntil(lambda: dialog.cancel_button.hasFocus())
    qtbot.keyClick(dialog.cancel_button, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert destructive.hasFocus() and not destructive.isDefault()
    qtbot.keyClick(destructive, Qt.Key.Key_Tab)
    assert dialog.cancel_button.hasFocus()
    with qtbot.waitSignal(dialog.finished):
        qtbot.keyClick(dialog.cancel_button, Qt.Key.Key_Return)
    assert dialog.result() == QDialog.DialogCode.Rejected
