"""Merge on conflict, end to end: two writers on the real server, the real window merging."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from app.client import TaskdeskClient
from app.core.merge import Resolution
from app.core.merge_layout import MINE_MARKER, THEIRS_MARKER
from app.core.models import TaskDoc
from tests.window_steps import open_agent, said, saved
from widgets.window.main_window import MainWindow
from widgets.window.messages import Severity

TIMEOUT = 10_000
AGENT = "a_writer"

BASE = (
    "# Writer\n"
    "\n"
    "Answer in the language of the question.\n"
    "\n"
    "Sign every reply with the agent's name.\n"
    "\n"
    "## Tone\n"
    "\n"
    "Short sentences. No jargon.\n"
)
THEIR_LINE = "Sign each reply with the team's name.\n"
MY_LINE = "Sign every reply with your own name.\n"
SIGN_LINE = "Sign every reply with the agent's name.\n"


def _start_from_base(qtbot, window: MainWindow, bob: TaskdeskClient) -> int:
    """Both writers start from BASE (Bob saves it before Ann opens the agent)."""
    live = bob.get_task(AGENT)
    base = bob.put_task(AGENT, BASE, live.version)
    open_agent(qtbot, window, AGENT)
    qtbot.waitUntil(lambda: window.task_tab.editor.text() == BASE, timeout=TIMEOUT)
    return base.version


def _replace(qtbot, window: MainWindow, old: str, new: str) -> None:
    """Ann selects ``old`` in the editor and types ``new`` over it."""
    window.actions_.edit.trigger()
    editor = window.task_tab.editor
    at = editor.text().index(old)
    cursor = editor.textCursor()
    cursor.setPosition(at)
    cursor.setPosition(at + len(old), QTextCursor.MoveMode.KeepAnchor)
    editor.setTextCursor(cursor)
    qtbot.keyClicks(editor, new)


def _collide(
    qtbot, window: MainWindow, bob: TaskdeskClient, theirs: str, *edits: tuple[str, str]
) -> TaskDoc:
    """Bob saves ``theirs`` on BASE; Ann makes ``edits`` on BASE and saves: a conflict."""
    base_version = _start_from_base(qtbot, window, bob)
    their_doc = bob.put_task(AGENT, theirs, base_version)
    for old, new in edits:
        _replace(qtbot, window, old, new)
    window.actions_.save.trigger()
    banner = window.task_tab.conflict_banner
    qtbot.waitUntil(banner.isVisible, timeout=TIMEOUT)
    assert banner.merge_button.isDefault()  # Merge keeps both people's work: it comes first
    return their_doc


def _merge(qtbot, window: MainWindow) -> None:
    tab = window.task_tab
    tab.conflict_banner.merge_button.click()
    qtbot.waitUntil(lambda: tab.merge_flow.active, timeout=TIMEOUT)
    assert not tab.conflict_banner.isVisible()
    assert tab.banners.merge_banner.isVisible()


def test_edits_of_different_paragraphs_merge_and_save_with_no_choice(
    qtbot, window: MainWindow, bob: TaskdeskClient
) -> None:
    theirs = BASE.replace("# Writer", "# Writer (house style)")
    their_doc = _collide(qtbot, window, bob, theirs, ("No jargon.", "No jargon, no emoji."))
    _merge(qtbot, window)
    tab = window.task_tab
    both = theirs.replace("No jargon.", "No jargon, no emoji.")
    assert tab.editor.text() == both
    assert tab.merge_flow.marks.open_conflicts() == []
    assert len(tab.editor.extraSelections()) == 2  # one change of each side, marked
    assert "1 change of yours" in tab.banners.merge_banner.text()
    assert bob.get_task(AGENT).content == theirs  # nothing is published before a save
    assert tab.has_unsaved()

    window.actions_.save.trigger()
    qtbot.waitUntil(lambda: saved(window), timeout=TIMEOUT)
    live = bob.get_task(AGENT)
    assert live.content == both
    assert live.version == their_doc.version + 1  # an ordinary save on their version
    assert not tab.banners.merge_banner.isVisible()
    assert tab.editor.extraSelections() == []


def test_different_sentences_of_one_line_merge_word_by_word(
    qtbot, window: MainWindow, bob: TaskdeskClient
) -> None:
    theirs = BASE.replace("Short sentences.", "Short, plain sentences.")
    _collide(qtbot, window, bob, theirs, ("No jargon.", "Never jargon."))
    _merge(qtbot, window)
    assert window.task_tab.editor.text() == BASE.replace(
        "Short sentences. No jargon.", "Short, plain sentences. Never jargon."
    )
    assert window.task_tab.merge_flow.marks.open_conflicts() == []


@pytest.mark.parametrize(
    ("resolution", "line"),
    [
        (Resolution.MINE, MY_LINE),
        (Resolution.THEIRS, THEIR_LINE),
        (Resolution.MINE_THEN_THEIRS, MY_LINE + THEIR_LINE),
        (Resolution.THEIRS_THEN_MINE, THEIR_LINE + MY_LINE),
    ],
)
def test_the_same_sentence_is_a_marked_conflict_and_each_choice_gives_its_text(
    qtbot, window: MainWindow, bob: TaskdeskClient, resolution: Resolution, line: str
) -> None:
    theirs = BASE.replace(SIGN_LINE, THEIR_LINE).replace("# Writer", "# Writer (house)")
    their_doc = _collide(qtbot, window, bob, theirs, (SIGN_LINE.strip(), MY_LINE.strip()))
    _merge(qtbot, window)
    tab = window.task_tab
    text = tab.editor.text()
    assert MINE_MARKER in text and THEIRS_MARKER in text
    assert text.index(MY_LINE) < text.index(THEIR_LINE)  # mine above theirs, between markers
    assert tab.merge_flow.marks.open_conflicts() == [0]
    assert "1 conflict left" in tab.banners.merge_banner.text()

    # A save with the conflict open is held back, with the reason.
    window.actions_.save.trigger()
    assert "not resolved yet" in said(window, Severity.WARNING)[-1]
    assert bob.get_task(AGENT).version == their_doc.version

    tab.banners.merge_banner.take_buttons[resolution].click()
    expected = theirs.replace(THEIR_LINE, line)
    assert tab.editor.text() == expected
    assert tab.merge_flow.marks.open_conflicts() == []
    window.actions_.save.trigger()
    qtbot.waitUntil(lambda: saved(window), timeout=TIMEOUT)
    live = bob.get_task(AGENT)
    assert live.content == expected
    # Taking theirs leaves exactly their text: nothing new to publish.
    assert live.version == their_doc.version + (expected != theirs)


def test_a_conflict_edited_by_hand_is_resolved_once_its_markers_are_gone(
    qtbot, window: MainWindow, bob: TaskdeskClient
) -> None:
    theirs = BASE.replace(SIGN_LINE, THEIR_LINE)
    _collide(qtbot, window, bob, theirs, (SIGN_LINE.strip(), MY_LINE.strip()))
    _merge(qtbot, window)
    tab = window.task_tab
    block = tab.merge_flow.marks.conflict_cursor(0)
    assert block is not None
    tab.editor.setTextCursor(block)  # the whole block selected: type the sentence over it
    qtbot.keyClicks(tab.editor, "Sign each reply with your own name.")
    qtbot.keyClick(tab.editor, Qt.Key.Key_Return)
    expected = BASE.replace(SIGN_LINE, "Sign each reply with your own name.\n")
    assert tab.editor.text() == expected
    assert tab.merge_flow.marks.open_conflicts() == []
    assert "left" not in tab.banners.merge_banner.text()
    window.actions_.save.trigger()
    qtbot.waitUntil(lambda: saved(window), timeout=TIMEOUT)
    assert bob.get_task(AGENT).content == expected


def test_cancel_merge_goes_back_to_the_conflict_with_my_text(
    qtbot, window: MainWindow, bob: TaskdeskClient
) -> None:
    theirs = BASE.replace(SIGN_LINE, THEIR_LINE)
    _collide(qtbot, window, bob, theirs, (SIGN_LINE.strip(), MY_LINE.strip()))
    mine = BASE.replace(SIGN_LINE, MY_LINE)
    _merge(qtbot, window)
    tab = window.task_tab
    tab.banners.merge_banner.cancel_button.click()
    assert tab.editor.text() == mine
    assert tab.conflict_banner.isVisible()
    assert not tab.banners.merge_banner.isVisible()
    assert tab.editor.extraSelections() == []
    # The question is open again: Keep mine now saves my text over theirs, knowingly.
    tab.conflict_banner.keep_mine_button.click()
    qtbot.waitUntil(lambda: tab.conflict_flow.keep_mine_dialog is not None, timeout=TIMEOUT)
    tab.conflict_flow.keep_mine_dialog.confirm_button.click()
    qtbot.waitUntil(lambda: saved(window), timeout=TIMEOUT)
    assert bob.get_task(AGENT).content == mine


def test_keep_mine_shows_the_changes_of_theirs_it_throws_away_first(
    qtbot, window: MainWindow, bob: TaskdeskClient
) -> None:
    theirs = BASE.replace("# Writer", "# Writer (house style)").replace(SIGN_LINE, THEIR_LINE)
    their_doc = _collide(qtbot, window, bob, theirs, (SIGN_LINE.strip(), MY_LINE.strip()))
    mine = BASE.replace(SIGN_LINE, MY_LINE)
    tab = window.task_tab
    tab.conflict_banner.keep_mine_button.click()
    qtbot.waitUntil(lambda: tab.conflict_flow.keep_mine_dialog is not None, timeout=TIMEOUT)
    dialog = tab.conflict_flow.keep_mine_dialog
    assert dialog.cancel_button.isDefault()  # Return never throws their work away
    assert "throws away 2 changes of v" in dialog.summary_label.text()
    assert dialog.diff_view.new_text == mine  # what Keep mine publishes, on the right
    assert "# Writer (house style)" in dialog.diff_view.old_text  # what it drops, on the left
    assert dialog.diff_view.model.change_count == 2
    # Each side says whose it is: both hold Ann's own edit, the left with theirs put in.
    assert dialog.diff_view.old_title.text().startswith("Yours, with the changes of v")
    assert dialog.diff_view.new_title.text() == "Yours alone, as Keep mine publishes it"
    assert "your text with those changes put in" in dialog.summary_label.text()
    assert "their text;" not in dialog.summary_label.text()

    dialog.cancel_button.click()  # nothing happens: the question stays open
    assert tab.conflict_banner.isVisible()
    assert bob.get_task(AGENT).version == their_doc.version

    tab.conflict_banner.keep_mine_button.click()  # this time, Merge instead
    qtbot.waitUntil(lambda: tab.conflict_flow.keep_mine_dialog is not None, timeout=TIMEOUT)
    tab.conflict_flow.keep_mine_dialog.merge_button.click()
    qtbot.waitUntil(lambda: tab.merge_flow.active, timeout=TIMEOUT)
    assert "# Writer (house style)" in tab.editor.text()


def test_keep_mine_that_throws_nothing_away_asks_nothing(
    qtbot, window: MainWindow, bob: TaskdeskClient
) -> None:
    # Bob made one of my own edits; mine has it and more: keeping mine drops nothing of his.
    theirs = BASE.replace("No jargon.", "No jargon at all.")
    _collide(qtbot, window, bob, theirs, ("No jargon.", "No jargon at all."), ("# W", "# The w"))
    mine = window.task_tab.editor.text()
    window.task_tab.conflict_banner.keep_mine_button.click()
    qtbot.waitUntil(lambda: saved(window), timeout=TIMEOUT)
    assert window.task_tab.conflict_flow.keep_mine_dialog is None
    assert bob.get_task(AGENT).content == mine


def test_merge_pressed_twice_merges_once(qtbot, window: MainWindow, bob: TaskdeskClient) -> None:
    theirs = BASE.replace("# Writer", "# Writer (house style)")
    _collide(qtbot, window, bob, theirs, ("No jargon.", "No jargon, no emoji."))
    tab = window.task_tab
    tab.conflict_banner.merge_button.click()
    tab.conflict_flow.merge_requested.emit()  # a second request: the newer one wins
    qtbot.waitUntil(lambda: tab.merge_flow.active, timeout=TIMEOUT)
    qtbot.waitUntil(window.runner.is_idle, timeout=TIMEOUT)
    assert tab.editor.text() == theirs.replace("No jargon.", "No jargon, no emoji.")
    assert len(tab.editor.extraSelections()) == 2
