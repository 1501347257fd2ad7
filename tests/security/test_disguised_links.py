"""Addresses with bidi controls or invisible characters: never ordinary links, shown escaped."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import Qt, QUrl
from pytestqt.qtbot import QtBot

from app.render.links import classify_link, is_hidden_char, shown_address
from widgets.dialogs.confirm import OpenLinkDialog
from widgets.preview.preview_pane import PreviewPane

HIDDEN = [
    "\u202e",  # right-to-left override: "exe.gnp" reads as "png.exe"
    "\u202a", "\u202b", "\u202c", "\u202d",  # embeddings and overrides
    "\u2066", "\u2067", "\u2068", "\u2069",  # isolates
    "\u200e", "\u200f", "\u061c",  # marks
    "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff",  # zero-width and the BOM
    "\u00ad",  # soft hyphen
    "\u0085", "\u2028", "\u2029",  # next line, line and paragraph separators
]  # fmt: skip


@pytest.mark.parametrize("hidden", HIDDEN)
def test_an_address_with_a_hidden_character_is_never_an_ordinary_link(hidden: str) -> None:
    url = f"https://example.com/report{hidden}fdp.exe"
    action = classify_link(url)
    assert action.kind == "disguised"
    assert f"U+{ord(hidden):04X}" in action.reason
    assert hidden not in shown_address(url)
    assert f"<U+{ord(hidden):04X}>" in shown_address(url)


@given(
    prefix=st.text(alphabet="abcdefghijklmnopqrstuvwxyz/.-_?=&", max_size=20),
    hidden=st.characters(categories=["Cf"]),
    suffix=st.text(max_size=20),
)
def test_any_format_character_anywhere_makes_it_disguised(
    prefix: str, hidden: str, suffix: str
) -> None:
    action = classify_link(f"https://example.com/{prefix}{hidden}{suffix}")
    assert action.kind != "external"
    assert action.kind in ("disguised", "blocked")


def test_plain_addresses_stay_ordinary() -> None:
    assert classify_link("https://example.com/日本/ü?q=ﬁ").kind == "external"
    assert shown_address("https://example.com/a") == "https://example.com/a"
    assert not is_hidden_char(" ")


def test_the_preview_sends_a_disguised_link_to_the_confirmation(qtbot: QtBot) -> None:
    pane = PreviewPane()
    qtbot.addWidget(pane)
    url = "https://example.com/report\u202efdp.exe"
    with qtbot.waitSignal(pane.external_link_requested) as blocker:
        pane.on_anchor_clicked(QUrl(url))
    assert blocker.args == [url]


def test_the_link_confirmation_shows_the_address_escaped_and_warns(qtbot: QtBot) -> None:
    url = "https://example.com/report\u202efdp.exe"
    dialog = OpenLinkDialog(url)
    qtbot.addWidget(dialog)
    shown = dialog.address_label.text()
    assert shown == "https://example.com/report<U+202E>fdp.exe"
    assert not any(is_hidden_char(ch) for ch in shown)
    assert dialog.address_label.textFormat() == Qt.TextFormat.PlainText
    assert "U+202E" in dialog.message_label.text()
    assert "may not go where it seems" in dialog.message_label.text()
    assert dialog.cancel_button.isDefault()
    with qtbot.waitSignal(dialog.rejected):
        dialog.cancel_button.click()
