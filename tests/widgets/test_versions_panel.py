"""VersionsPanel and RevisionModel: rows, Text and Compare, Restore vN."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.diff_model import build_diff
from app.core.models import Revision
from tests.factories import saved_over, task_doc
from widgets.common.provenance import exact_time
from widgets.versions.revision_model import IS_LIVE_ROLE, VERSION_ROLE
from widgets.versions.versions_panel import VersionsPanel

NOW = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)
DOC = task_doc(
    "a_scout",
    "line one\nline two CHANGED\n",
    3,
    Revision(2, "line one\nline two\n", "2026-03-04T11:57:00Z", "Ann"),
    Revision(1, "first\n", "2026-03-02T09:00:00Z", "Bob"),
)


@pytest.fixture
def panel(qtbot: QtBot) -> VersionsPanel:
    widget = VersionsPanel(clock=lambda: NOW)
    qtbot.addWidget(widget)
    widget.set_task(DOC)
    widget.show()
    return widget


def test_lists_live_then_earlier_versions_with_who_and_when(panel: VersionsPanel) -> None:
    model = panel.model
    assert model.rowCount() == 3
    assert [model.index(r, 0).data(VERSION_ROLE) for r in range(3)] == [3, 2, 1]
    assert model.index(0, 0).data(IS_LIVE_ROLE) is True
    assert model.index(0, 0).data() == "v3 (live) — changed 3 min ago by Ann"
    assert model.index(1, 0).data() == "v2 — replaced 3 min ago by Ann"
    assert model.index(2, 0).data() == "v1 — replaced 2 days ago by Bob"
    tooltip = model.index(1, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert tooltip == f"Replaced {exact_time('2026-03-04T11:57:00Z')}"
    assert panel.empty_label.isHidden()


def test_opens_on_the_newest_earlier_and_live_cannot_be_restored(panel: VersionsPanel) -> None:
    assert panel.selected() is not None and panel.selected().version == 2
    panel.select_row(0)
    assert panel.selected().live
    assert panel.text_view.toPlainText() == DOC.content
    assert not panel.restore_button.isEnabled()
    assert not panel.compare_button.isEnabled()


def test_selecting_earlier_shows_text_and_restore_emits(panel: VersionsPanel, qtbot: QtBot) -> None:
    panel.select_row(2)
    assert panel.text_view.toPlainText() == "first\n"
    assert panel.text_view.isReadOnly()
    assert panel.restore_button.text() == "Re&store v1"
    assert panel.restore_button.accessibleName() == "Restore v1"
    with qtbot.waitSignal(panel.restore_requested) as blocker:
        panel.restore_button.click()
    assert blocker.args == [1]


def test_compare_with_live_diffs_in_the_panel_when_unwired(panel: VersionsPanel) -> None:
    panel.select_row(1)
    panel.compare_button.click()
    assert panel.stack.currentWidget() is panel.diff_view
    assert panel.diff_view.model.change_count == 1


def test_the_comparison_is_built_when_a_version_is_first_compared(panel: VersionsPanel) -> None:
    """Every Task tab has this panel, hidden until View › Versions: its comparison (canvas,
    reader, fold bar) is not built on the way to the first Task, only when first needed."""
    from widgets.versions.diff_view import DiffView

    assert panel.findChildren(DiffView) == []
    panel.select_row(2)  # an earlier version's text: no comparison yet
    panel.show_pair_model(build_diff("a\n", "b\n"), "a\n", "b\n", "v1", "v2")  # none asked
    assert panel.findChildren(DiffView) == []
    panel.select_row(1)
    panel.compare_button.click()
    assert panel.findChildren(DiffView) == [panel.diff_view]
    assert panel.stack.currentWidget() is panel.diff_view
    assert panel.diff_view.model.change_count == 1


def test_compare_hands_texts_out_and_takes_a_prebuilt_model(
    panel: VersionsPanel, qtbot: QtBot
) -> None:
    panel.select_row(1)
    with qtbot.waitSignal(panel.compare_requested) as blocker:
        panel.compare_button.click()
    version, old, live = blocker.args
    assert (version, old, live) == (2, DOC.revisions[0].content, DOC.content)
    panel.show_compare_model(version, build_diff(old, live))
    assert panel.diff_view.model.change_count == 1
    assert panel.diff_view.old_title.text() == "v2"


def test_a_stale_model_is_ignored(panel: VersionsPanel, qtbot: QtBot) -> None:
    panel.compare_requested.connect(lambda *_: None)
    panel.select_row(1)
    panel.compare_button.click()
    panel.select_row(2)
    before = panel.diff_view.model
    panel.show_compare_model(2, build_diff("a", "b"))
    assert panel.diff_view.model is before


def test_selecting_live_again_falls_back_to_text(panel: VersionsPanel) -> None:
    panel.select_row(1)
    panel.compare_button.click()
    panel.select_row(0)
    assert panel.text_button.isChecked()
    assert panel.stack.currentWidget() is panel.text_view


def test_new_task_keeps_the_selected_version(panel: VersionsPanel) -> None:
    panel.select_row(2)
    newer = saved_over(DOC, "v4 text", "2026-03-04T12:00:00Z", "Cy")
    panel.set_task(newer)
    assert panel.selected() is not None and panel.selected().version == 1


def test_no_earlier_versions_says_so(qtbot: QtBot) -> None:
    panel = VersionsPanel(clock=lambda: NOW)
    qtbot.addWidget(panel)
    panel.set_task(task_doc("a", "only", 1))
    assert not panel.empty_label.isHidden()
    assert panel.model.rowCount() == 1


def test_accessible_names_match_labels(panel: VersionsPanel) -> None:
    for button in (panel.text_button, panel.compare_button, panel.restore_button):
        assert button.accessibleName() == button.text().replace("&", "")
        assert "&" in button.text()  # a mnemonic: Alt+letter from the keyboard
