"""Optional fields a server leaves out or sends as null get a display, never a refusal."""

from __future__ import annotations

import pytest

from app.client import TaskdeskClient
from tests.interop.steps import connect, open_by_id
from tests.spec_server import SCOUT_LIVE, SpecServer
from tests.window_steps import LOAD_TIMEOUT_MS, said
from widgets.versions.revision_model import DETAIL_ROLE
from widgets.window.main_window import MainWindow
from widgets.window.messages import Severity


@pytest.mark.parametrize("author", ["null", "absent"])
def test_a_revision_without_its_author_is_read(
    spec_server: SpecServer, ann: TaskdeskClient, author: str
) -> None:
    spec_server.variations.author = author  # type: ignore[assignment]
    doc = ann.get_task("a_scout")
    assert [r.replaced_by_name for r in doc.revisions] == ["Bob", None]
    assert doc.content == SCOUT_LIVE


def test_the_window_opens_a_task_whose_oldest_revision_names_nobody(
    qtbot, make_window, spec_server: SpecServer
) -> None:
    spec_server.variations.author = "null"
    window: MainWindow = make_window()
    connect(qtbot, window, spec_server.url)
    open_by_id(qtbot, window, "a_scout")
    assert window.task_tab.editor.text() == SCOUT_LIVE
    assert window.agent_model.agent_ids() == ["a_scout"]
    model = window.task_tab.versions.model
    qtbot.waitUntil(lambda: model.rowCount() == 3, timeout=LOAD_TIMEOUT_MS)
    details = [model.data(model.index(row, 0), DETAIL_ROLE) for row in range(3)]
    assert details[1].endswith("by Bob") and details[2].endswith("by unknown"), details
    assert not said(window, Severity.ERROR)
