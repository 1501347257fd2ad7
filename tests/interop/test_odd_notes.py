"""Items of the notes-to-embed list that the picker can't use are skipped, never fatal."""

from __future__ import annotations

import logging

import pytest

from app.client import TaskdeskClient
from tests.interop.steps import connect, open_by_id
from tests.spec_server import CUSTOMERS, HANDBOOK, METHODS, SCOUT_LIVE, STYLE_GUIDE, SpecServer
from tests.window_steps import said
from widgets.window.main_window import MainWindow
from widgets.window.messages import Severity

UNTITLED = "org/o_acme/untitled-plan.md"
NULL_TITLE = "org/o_acme/null-title.md"


def test_odd_items_are_skipped_and_logged_once(
    spec_server: SpecServer, ann: TaskdeskClient, caplog: pytest.LogCaptureFixture
) -> None:
    spec_server.variations.odd_notes = True
    with caplog.at_level(logging.WARNING, logger="app.client"):
        notes = ann.embeddable_notes()
        again = ann.embeddable_notes()
    assert notes == again
    by_path = {n.display_path: n for n in notes}
    assert list(by_path) == [HANDBOOK, STYLE_GUIDE, CUSTOMERS, METHODS, UNTITLED, NULL_TITLE]
    # No title: the file name stands in for it; no level: read from the path.
    assert (by_path[UNTITLED].title, by_path[UNTITLED].level) == ("untitled-plan", "org")
    assert by_path[NULL_TITLE].title == "null-title"
    skipped = [r for r in caplog.records if "skipped" in r.getMessage()]
    assert len(skipped) == 1, [r.getMessage() for r in caplog.records]
    message = skipped[0].getMessage()
    assert "4 items" in message and "record" in message and "memory" in message


def test_a_server_with_odd_items_still_connects_and_opens_by_id(
    qtbot, make_window, spec_server: SpecServer
) -> None:
    spec_server.variations.odd_notes = True
    window: MainWindow = make_window()
    connect(qtbot, window, spec_server.url)
    assert window.sidebar.open_by_id_button.isVisible()
    open_by_id(qtbot, window, "a_scout")
    assert window.task_tab.editor.text() == SCOUT_LIVE
    editor = window.task_tab.editor
    qtbot.waitUntil(lambda: editor.embeddable_model.rowCount() == 6)
    assert not said(window, Severity.ERROR)
