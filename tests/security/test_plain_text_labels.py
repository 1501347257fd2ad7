"""Text from a server, a workspace or a note is drawn as plain text in every label the app has.

The workspace names every agent, guild, person, note and collection with markup (a
``file://`` link, a local image); the window is driven through its screens (each agent, the
versions, a note's preview, the picker, a save the server refuses with markup in its error),
and then *every* label, message box and tooltip alive in the application is checked: none
may hold that markup in a rich-text form, so none can load a local file or open a link.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QAbstractItemModel, QModelIndex
from PySide6.QtGui import Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLabel, QMessageBox, QWidget

from tests.live_server import WORKSPACE_BASIC, LiveServer
from tests.window_steps import (
    LOAD_TIMEOUT_MS,
    WindowFactory,
    fresh_home,
    make_window,
    open_agent,
    sign_in,
    type_at_end,
)
from widgets.common.plain_text import inert_tooltip
from widgets.window.main_window import MainWindow

__all__ = ["fresh_home", "make_window"]

LINK = '<a href="file:///etc/passwd">{}</a>'
IMAGE = '<img src="/tmp/taskdesk-hostile.png">{}'


def hostile(name: str) -> str:
    """``name`` wrapped in the two kinds of markup that do harm when drawn as rich text."""
    return LINK.format(IMAGE.format(name))


def hostile_workspace() -> dict[str, Any]:
    """The basic workspace with markup in every name and title a server hands out."""
    workspace = json.loads(WORKSPACE_BASIC.read_text(encoding="utf-8"))
    workspace["org"]["name"] = hostile(workspace["org"]["name"])
    for key, field in (("guilds", "name"), ("people", "name"), ("agents", "name")):
        for entry in workspace[key]:
            entry[field] = hostile(entry[field])
    for note in workspace["notes"]:
        note["title"] = hostile(note["title"])
    for collection in workspace["collections"]:
        collection["name"] = hostile(collection["name"])
    for agent in workspace["agents"]:
        agent["focus"] = hostile(agent.get("focus", ""))
    return workspace


def is_harmful(text: str) -> bool:
    """Markup of the corpus, unescaped: drawn as rich text, it links or loads a file."""
    return "<a href" in text or "<img" in text


def rich_in_tooltip(text: str) -> bool:
    """A tooltip draws rich text whenever Qt's guess says so; escaped text stays inert."""
    return is_harmful(text) and Qt.mightBeRichText(text)


def model_tooltips(model: QAbstractItemModel, parent: QModelIndex | None = None) -> Iterator[str]:
    """Every tooltip an item view's model hands out (two levels deep: lists and one tree level)."""
    parent = parent or QModelIndex()
    for row in range(model.rowCount(parent)):
        index = model.index(row, 0, parent)
        tip = model.data(index, Qt.ItemDataRole.ToolTipRole)
        if isinstance(tip, str):
            yield tip
        if parent == QModelIndex() and model.rowCount(index) > 0:
            yield from model_tooltips(model, index)


def offenders() -> list[str]:
    """Every place, across all live widgets, where server markup would be drawn as rich text."""
    found: list[str] = []
    for widget in QApplication.allWidgets():
        where = f"{type(widget).__name__} {widget.objectName()!r}"
        rich = isinstance(widget, QLabel) and widget.textFormat() != Qt.TextFormat.PlainText
        if rich and is_harmful(widget.text()):
            found.append(f"{where}: label text {widget.text()[:60]!r}")
        if isinstance(widget, QMessageBox):
            for text in (widget.text(), widget.informativeText()):
                if is_harmful(text) and widget.textFormat() != Qt.TextFormat.PlainText:
                    found.append(f"{where}: message box {text[:60]!r}")
        if rich_in_tooltip(widget.toolTip()):
            found.append(f"{where}: tooltip {widget.toolTip()[:60]!r}")
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            for tip in model_tooltips(widget.model()):
                if rich_in_tooltip(tip):
                    found.append(f"{where}: item tooltip {tip[:60]!r}")
    return found


def shown_labels_with_markup() -> int:
    """How many labels carry the corpus at all: the walk must have met it to prove anything."""
    return sum(
        1
        for widget in QApplication.allWidgets()
        if isinstance(widget, QLabel) and is_harmful(widget.text())
    )


@pytest.fixture
def hostile_server(server_factory: Any) -> LiveServer:
    return server_factory(hostile_workspace())


def visit_every_screen(qtbot: Any, window: MainWindow, server: LiveServer) -> None:
    """Each agent, its versions and the note preview, the picker, and a refused save."""
    for agent_id in ("a_writer", "a_analyst", "a_scout"):
        open_agent(qtbot, window, agent_id)
    window.actions_.versions.setChecked(True)
    tab = window.task_tab
    tab.links.on_embed_clicked("org/o_acme/handbook.md")
    qtbot.waitUntil(lambda: tab.links.note_dialog is not None, timeout=LOAD_TIMEOUT_MS)
    tab.links.on_embed_clicked("org/o_acme/guilds/guild_ops/customers")
    qtbot.waitUntil(lambda: tab.links.note_dialog is not None, timeout=LOAD_TIMEOUT_MS)
    tab.open_picker("note")
    server.hook("fail", status=422, error=hostile("Click to sign in again"), method="PUT", path="")
    type_at_end(qtbot, window, " One more line.")
    tab.save()
    qtbot.waitUntil(lambda: "sign in again" in window_text(window), timeout=LOAD_TIMEOUT_MS)


def window_text(window: QWidget) -> str:
    """All label text in the application (where a refused save's message lands)."""
    del window
    return " ".join(w.text() for w in QApplication.allWidgets() if isinstance(w, QLabel))


def test_server_markup_is_plain_text_everywhere(
    qtbot: Any, make_window: WindowFactory, hostile_server: LiveServer
) -> None:
    window = make_window()
    sign_in(qtbot, window, hostile_server.url, hostile_server.token("u_ann"))
    visit_every_screen(qtbot, window, hostile_server)
    assert shown_labels_with_markup() >= 5  # the walk met the corpus in many labels
    assert offenders() == []


def test_the_check_sees_a_rich_label(qtbot: Any) -> None:
    """The walk finds a rich label with server markup (so an empty result means something)."""
    label = QLabel()
    qtbot.addWidget(label)
    label.setText(hostile("Scout"))
    assert label.textFormat() == Qt.TextFormat.AutoText
    assert any("label text" in entry for entry in offenders())
    label.setTextFormat(Qt.TextFormat.PlainText)
    assert not any("label text" in entry for entry in offenders())


def test_tooltip_markup_is_inert_when_escaped() -> None:
    tip = hostile("Scout")
    assert rich_in_tooltip(tip)
    assert not rich_in_tooltip(inert_tooltip(tip))
    assert inert_tooltip("Scout · Operations") == "Scout · Operations"
