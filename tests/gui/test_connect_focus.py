"""Connect puts focus where the operator has to type: after a refused token on the token,
on a later start (the address known) on the empty token field."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from tests.live_server import LiveServer
from widgets.dialogs.connect import ConnectDialog
from widgets.window.main_window import MainWindow

TIMEOUT = 10_000


def test_a_refused_token_puts_focus_on_the_token_selected(
    qtbot, make_window, live_server: LiveServer
) -> None:
    window: MainWindow = make_window()
    window.actions_.connect_server.trigger()
    qtbot.waitUntil(lambda: window.connect_dialog is not None, timeout=TIMEOUT)
    dialog = window.connect_dialog
    dialog.url_edit.setText(live_server.url)
    dialog.token_edit.setText("not-a-token")
    dialog.url_edit.setFocus()
    dialog.connect_button.click()
    qtbot.waitUntil(lambda: dialog.error_label.isVisible(), timeout=TIMEOUT)
    assert dialog.focusWidget() is dialog.token_edit
    assert dialog.token_edit.selectedText() == "not-a-token"
    assert dialog.token_edit.accessibleDescription() == dialog.error_label.text()


def test_an_unreachable_address_puts_focus_on_the_address(qtbot, make_window) -> None:
    window: MainWindow = make_window()
    window.actions_.connect_server.trigger()
    qtbot.waitUntil(lambda: window.connect_dialog is not None, timeout=TIMEOUT)
    dialog = window.connect_dialog
    dialog.url_edit.setText("http://127.0.0.1:9")  # nothing listens on the discard port
    dialog.token_edit.setText("ann-secret")
    dialog.token_edit.setFocus()
    dialog.connect_button.click()
    qtbot.waitUntil(lambda: dialog.error_label.isVisible(), timeout=TIMEOUT)
    assert dialog.focusWidget() is dialog.url_edit


def test_a_known_address_starts_the_dialog_on_the_token(qtbot) -> None:
    dialog = ConnectDialog("https://taskdesk.example.com", "")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.focusWidget() is dialog.token_edit
    fresh = ConnectDialog("", "")
    qtbot.addWidget(fresh)
    fresh.show()
    qtbot.waitExposed(fresh)
    assert fresh.focusWidget() is fresh.url_edit
    assert QApplication.instance() is not None
