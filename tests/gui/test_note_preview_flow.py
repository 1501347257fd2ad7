"""Clicking an embed in the preview: the note is fetched on the runner and shown, or why not."""

from __future__ import annotations

import pytest

from app.client import TaskdeskClient
from app.client.errors import NotFound
from app.desk.note_loader import AGENT_CANT_READ, read_note_view
from widgets.preview.note_preview import NOT_REACHABLE
from widgets.window.main_window import MainWindow

TIMEOUT = 10_000
STYLE_GUIDE = "org/o_acme/guilds/guild_ops/style-guide.md"
METHODS = "org/o_acme/guilds/guild_research/methods.md"  # Scout is not in Research
RETIRED = "org/o_acme/guilds/guild_ops/retired-playbook.md"  # no such note


def _click(qtbot, window: MainWindow, path: str):  # -> NotePreviewDialog
    links = window.task_tab.links
    links.on_embed_clicked(path)
    # The fetch is the runner's job: nothing is shown until its answer comes back.
    assert window.runner.pending >= 1 and links.note_dialog is None
    qtbot.waitUntil(lambda: links.note_dialog is not None, timeout=TIMEOUT)
    dialog = links.note_dialog
    assert dialog is not None and dialog.path_label.text() == path
    return dialog


def test_a_reachable_note_opens_rendered(qtbot, window: MainWindow) -> None:
    window.task_tab.preview.embed_clicked.emit(STYLE_GUIDE)  # as a click in the preview does
    qtbot.waitUntil(lambda: window.task_tab.links.note_dialog is not None, timeout=TIMEOUT)
    dialog = window.task_tab.links.note_dialog
    assert dialog.reachable and dialog.browser.isVisibleTo(dialog)
    assert "Write short sentences." in dialog.browser.toPlainText()
    assert dialog.title_label.text() == "Style guide"
    assert dialog.version_label.text() == "v1"


def test_a_note_the_agent_cant_reach_is_not_shown(qtbot, window: MainWindow) -> None:
    tab = window.task_tab
    qtbot.waitUntil(tab.header.is_marked_unreachable, timeout=TIMEOUT)  # embed status known
    dialog = _click(qtbot, window, METHODS)
    assert not dialog.reachable
    assert dialog.unreachable_label.text() == f"{NOT_REACHABLE} {AGENT_CANT_READ}"
    assert dialog.title_label.text() == "Methods"  # the operator may read it; the agent not


def test_a_note_that_fails_to_load_says_why_in_words(
    qtbot, window: MainWindow, bob: TaskdeskClient
) -> None:
    with pytest.raises(NotFound) as refused:
        bob.note(RETIRED)
    dialog = _click(qtbot, window, RETIRED)
    assert not dialog.reachable
    assert dialog.unreachable_label.text() == f"{NOT_REACHABLE} {refused.value.message}"
    assert "NotFound" not in dialog.unreachable_label.text()


def test_read_note_view_marks_broken_paths_unreachable(bob: TaskdeskClient) -> None:
    shown = read_note_view(bob, STYLE_GUIDE, broken=set())
    assert shown.html is not None and "Write short sentences." in shown.html
    assert (shown.title, shown.level, shown.version, shown.reason) == (
        "Style guide",
        "guild",
        1,
        "",
    )
    hidden = read_note_view(bob, STYLE_GUIDE, broken={STYLE_GUIDE})
    assert hidden.html is None and hidden.reason == AGENT_CANT_READ
    assert read_note_view(bob, "org/o_acme/agents/a_scout/memory.md", broken=set()).html is None
