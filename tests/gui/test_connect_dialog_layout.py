"""The Connect dialog grows to show a long error whole; no field is squashed."""

from __future__ import annotations

from widgets.window.main_window import MainWindow

TIMEOUT = 10_000


def test_a_long_error_is_shown_whole_and_the_fields_keep_their_height(qtbot, make_window) -> None:
    window: MainWindow = make_window()
    window.actions_.connect_server.trigger()
    qtbot.waitUntil(lambda: window.connect_dialog is not None, timeout=TIMEOUT)
    dialog = window.connect_dialog
    qtbot.waitExposed(dialog)
    field_height = dialog.url_edit.height()
    qtbot.keyClicks(dialog.url_edit, "http://127.0.0.1:1")  # nothing listens there
    qtbot.keyClicks(dialog.token_edit, "some-token")
    dialog.connect_button.click()
    label = dialog.error_label
    qtbot.waitUntil(lambda: label.isVisible(), timeout=TIMEOUT)
    qtbot.waitUntil(lambda: label.height() >= label.heightForWidth(label.width()), timeout=TIMEOUT)
    assert label.heightForWidth(label.width()) > label.fontMetrics().height()  # several lines
    assert dialog.url_edit.height() >= field_height
    assert dialog.token_edit.height() >= field_height
    assert dialog.rect().contains(label.geometry())
