"""What screen readers are told: banners are alerts and announce themselves; messages stay."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QLineEdit, QStatusBar, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from app.core.user_message import Severity
from widgets.dialogs.connect import ConnectDialog
from widgets.preview.preview_panel import PreviewPanel
from widgets.window.banners import ConflictBanner, MessageBar, OfflineBanner
from widgets.window.messages import Messages


def test_a_banner_is_an_alert_announced_when_it_appears(qtbot: QtBot) -> None:
    banner = ConflictBanner()
    qtbot.addWidget(banner)
    banner.set_conflict("Bob", 4)
    interface = QAccessible.queryAccessibleInterface(banner)
    assert interface.role() == QAccessible.Role.AlertMessage
    assert interface.text(QAccessible.Text.Name) == banner.text()
    with qtbot.waitSignal(banner.announced) as announced:
        banner.show()
    assert announced.args == ["Bob saved v4 while you were editing. Your text is kept."]


def test_a_shown_banner_announces_a_new_text_but_not_the_same_one(qtbot: QtBot) -> None:
    banner = OfflineBanner()
    qtbot.addWidget(banner)
    banner.show()
    heard: list[str] = []
    banner.announced.connect(heard.append)
    banner.set_as_of(None)  # the same words
    banner.set_as_of("2026-02-16T09:30:00Z")
    assert len(heard) == 1 and "16 Feb" in heard[0]


def test_escape_closes_the_message_bar_from_the_text_it_sits_over(qtbot: QtBot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    field = QLineEdit(host)
    bar = MessageBar(host)
    layout = QVBoxLayout(host)
    layout.addWidget(bar)
    layout.addWidget(field)
    bar.close_on_escape(host)
    host.show()
    bar.show_message("The server refused the save.", "error")
    field.setFocus()
    with qtbot.waitSignal(bar.closed):
        qtbot.keyClick(field, Qt.Key.Key_Escape)
    assert not bar.isVisible()
    bar.show_message("Again.", "error")
    bar.close_button.setFocus()
    qtbot.keyClick(bar.close_button, Qt.Key.Key_Escape)
    assert not bar.isVisible()


class _RecordingStatusBar(QStatusBar):
    """A real status bar that notes each message's timeout."""

    def __init__(self) -> None:
        super().__init__()
        self.timeouts: list[int] = []

    def showMessage(self, text: str, timeout: int = 0) -> None:
        self.timeouts.append(timeout)
        super().showMessage(text, timeout)


def test_a_status_message_stays_until_the_next_and_all_are_kept(qtbot: QtBot) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    status = _RecordingStatusBar()
    messages = Messages(window, status)
    messages.info("Saved as v2.")
    messages.info("Saved as v3.")
    assert status.timeouts == [0, 0]  # no fading away
    assert status.currentMessage() == "Saved as v3."
    assert messages.history[-2:] == [
        ("Saved as v2.", Severity.INFO),
        ("Saved as v3.", Severity.INFO),
    ]


def test_a_connect_error_is_tied_to_its_field_and_the_keyring_is_explained(qtbot: QtBot) -> None:
    dialog = ConnectDialog(keyring_available=False)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.remember_hint.isVisible() and not dialog.remember_box.isEnabled()
    assert "session only" in dialog.remember_hint.text()
    dialog.connect_button.click()
    assert dialog.error_label.isVisible()
    assert dialog.url_edit.accessibleDescription() == dialog.error_label.text()
    assert dialog.error_label.buddy() is dialog.url_edit
    assert dialog.focusWidget() is dialog.url_edit
    role = QAccessible.queryAccessibleInterface(dialog.error_label).role()
    assert role == QAccessible.Role.AlertMessage
    dialog.url_edit.setText("http://127.0.0.1:1")
    dialog.connect_button.click()
    assert dialog.token_edit.accessibleDescription() == dialog.error_label.text()
    assert dialog.url_edit.accessibleDescription() == ""


def test_toggles_are_radio_buttons_that_arrow_keys_move_between(qtbot: QtBot) -> None:
    panel = PreviewPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.activateWindow()
    qtbot.waitUntil(panel.isActiveWindow)
    for button in (panel.rendered_button, panel.agent_view_button):
        role = QAccessible.queryAccessibleInterface(button).role()
        assert role == QAccessible.Role.RadioButton
    assert QAccessible.queryAccessibleInterface(panel.stack).role() == QAccessible.Role.Document
    panel.rendered_button.setFocus()
    qtbot.keyClick(panel.rendered_button, Qt.Key.Key_Right)
    assert panel.agent_view_button.isChecked() and not panel.rendered_button.isChecked()
    assert panel.stack.currentWidget() is panel.agent_text_view
