"""The fleet's windows, offscreen, over a real client, runner and reference server: the
fleet table, search, a change set's preview applied and reverted, the audit and its CSV."""

from __future__ import annotations

import csv
from pathlib import Path

from PySide6.QtCore import Qt

from app.client import TaskdeskClient
from app.core.change_plan import replace_edit
from app.desk.change_set_flow import ChangeSetFlow
from app.desk.fleet_desk import NO_FLEET, FleetAudit, FleetHealth, FleetSearch
from app.desk.runner import Runner
from app.server import start_server
from tests.fleet.fleet_data import FLEET_SIZE, ORG
from tests.live_server import WORKSPACE_BASIC, LiveServer
from widgets.fleet.audit_dialog import AuditDialog
from widgets.fleet.change_preview import ChangePreviewDialog
from widgets.fleet.fleet_panel import FleetPanel
from widgets.fleet.fleet_table_model import NEAR, OVER
from widgets.fleet.search_dialog import SearchDialog

TIMEOUT = 15_000


def _ids(flow_rows: list) -> list[str]:
    return [r.agent_id for r in flow_rows]


def test_the_fleet_table_lists_sorts_filters_and_opens_an_agent(
    qtbot, runner: Runner, ann: TaskdeskClient
) -> None:
    ann.put_task("a_003", "Too big: ![[" + f"{ORG}/big.md" + "]]\n", 1)
    panel = FleetPanel()
    qtbot.addWidget(panel)
    health = FleetHealth(runner, ann, panel)
    health.loaded.connect(lambda rows: panel.show_rows(rows, {"guild_ops": "Operations"}))
    with qtbot.waitSignal(health.loaded, timeout=TIMEOUT):
        health.load()
    assert panel.proxy.rowCount() == FLEET_SIZE
    assert "1 over budget" in panel.status.text()
    # Sorted by the embedded size, largest first: the agent over budget leads, marked.
    panel.table.sortByColumn(3, Qt.SortOrder.DescendingOrder)
    top = panel.proxy.index(0, 3)
    assert panel.proxy.index(0, 0).data() == "Agent 3"
    assert top.data(Qt.ItemDataRole.BackgroundRole).color() == OVER
    assert NEAR != OVER
    qtbot.keyClicks(panel.filter, "operations agent 1")
    shown = [panel.proxy.index(r, 0).data() for r in range(panel.proxy.rowCount())]
    assert sorted(shown) == ["Agent 1", "Agent 11"]
    # Sorted while filtered, and filled again: the same agents stay, in the new order.
    panel.table.sortByColumn(0, Qt.SortOrder.DescendingOrder)
    shown = [panel.proxy.index(r, 0).data() for r in range(panel.proxy.rowCount())]
    assert shown == ["Agent 11", "Agent 1"]
    panel.show_rows(list(reversed(panel.model._rows)), {"guild_ops": "Operations"})
    assert panel.proxy.rowCount() == 2
    with qtbot.waitSignal(panel.agent_activated) as opened:
        panel.table.activated.emit(panel.proxy.index(0, 0))
    assert opened.args[0] in {"a_001", "a_011"}


def test_search_in_prompts_finds_a_phrase_from_a_note_and_a_bad_pattern_says_so(
    qtbot, runner: Runner, ann: TaskdeskClient
) -> None:
    dialog = SearchDialog(FleetSearch(runner, ann))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.query, "night shift")
    with qtbot.waitSignal(dialog._search.found, timeout=TIMEOUT):
        dialog.find_button.click()
    assert dialog.found == [] and dialog.status.text() == "No match."
    dialog.in_prompt.setChecked(True)
    with qtbot.waitSignal(dialog._search.found, timeout=TIMEOUT):
        dialog.find_button.click()
    assert len(dialog.found) == FLEET_SIZE
    assert not dialog.replace_button.isEnabled()  # it is in a note, not in the Tasks
    hit = dialog.model.item(0).child(0).index()
    with qtbot.waitSignal(dialog.hit_activated) as activated:
        dialog.results.activated.emit(hit)
    assert activated.args == ["a_000", 7]
    dialog.query.setText("(")
    dialog.regex.setChecked(True)
    with qtbot.waitSignal(dialog._search.failed, timeout=TIMEOUT):
        dialog.find_button.click()
    assert "not a regular expression Python can read" in dialog.status.text()


def test_a_replace_previewed_unticked_applied_and_reverted(
    qtbot, runner: Runner, ann: TaskdeskClient, bob: TaskdeskClient
) -> None:
    flow = ChangeSetFlow(runner, ann, "o_acme")
    dialog = ChangePreviewDialog(flow, "Rename CSV to Parquet")
    qtbot.addWidget(dialog)
    dialog.show()
    ids = [f"a_{n:03d}" for n in range(FLEET_SIZE)]
    with qtbot.waitSignal(flow.preview_ready, timeout=TIMEOUT):
        flow.preview(ids, replace_edit("CSV", "Parquet"))
    assert _ids(dialog.model.rows) == ids
    assert "-" in dialog.diff.toPlainText() and "Parquet" in dialog.diff.toPlainText()
    first = dialog.model.index(0, 0)
    assert dialog.model.setData(
        first, Qt.CheckState.Unchecked.value, Qt.ItemDataRole.CheckStateRole
    )
    assert dialog.status.text().startswith(f"{FLEET_SIZE - 1} of {FLEET_SIZE} Tasks ticked")
    with qtbot.waitSignal(flow.applied, timeout=TIMEOUT):
        dialog.apply_button.click()
    assert dialog.applied_set is not None and len(dialog.applied_set.versions) == FLEET_SIZE - 1
    assert "CSV" in ann.get_task("a_000").content  # unticked: left as it was
    assert "Parquet" in ann.get_task("a_001").content
    live = bob.get_task("a_002")
    bob.put_task("a_002", live.content + "Bob's line.\n", live.version)
    with qtbot.waitSignal(flow.reverted, timeout=TIMEOUT):
        dialog.revert_button.click()
    assert "Left alone, saved by someone since: a_002." in dialog.status.text()
    assert "CSV" in ann.get_task("a_001").content
    assert "Parquet" in ann.get_task("a_002").content


def test_a_change_set_whose_tasks_moved_is_rebased_and_shown_again(
    qtbot, runner: Runner, ann: TaskdeskClient, bob: TaskdeskClient
) -> None:
    flow = ChangeSetFlow(runner, ann, "o_acme")
    dialog = ChangePreviewDialog(flow, "Rename")
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(flow.preview_ready, timeout=TIMEOUT):
        flow.preview(["a_001", "a_002"], replace_edit("CSV", "Parquet"))
    live = bob.get_task("a_002")
    bob.put_task("a_002", live.content + "Bob's line.\n", live.version)
    with qtbot.waitSignal(flow.rebased, timeout=TIMEOUT):
        dialog.apply_button.click()
    assert "Nothing was saved: 1 Task was saved by someone else" in dialog.status.text()
    assert ann.get_task("a_001").version == 1  # all or nothing
    rebased = dialog.model.rows[1]
    assert rebased.rebased and rebased.expected_version == 2
    assert rebased.after.endswith("Parquet.\n\n## Work\n![[org/o_acme/rules.md]]\nBob's line.\n")
    with qtbot.waitSignal(flow.applied, timeout=TIMEOUT):
        dialog.apply_button.click()
    assert "Bob's line." in ann.get_task("a_002").content


def test_a_row_over_the_budget_is_marked_and_the_rest_can_go(
    qtbot, runner: Runner, ann: TaskdeskClient
) -> None:
    flow = ChangeSetFlow(runner, ann, "o_acme")
    dialog = ChangePreviewDialog(flow, "Embed the big note")
    qtbot.addWidget(dialog)
    ann.put_task("a_004", "Say TSV.\n", 1)
    edit = replace_edit("CSV", f"![[{ORG}/big.md]]")
    with qtbot.waitSignal(flow.preview_ready, timeout=TIMEOUT):
        flow.preview(["a_001", "a_004"], edit)
    (row,) = dialog.model.rows
    assert not row.ticked and "over the 64 KB budget" in row.refusal
    assert not dialog.apply_button.isEnabled()
    flag = dialog.model.flags(dialog.model.index(0, 0))
    assert not flag & Qt.ItemFlag.ItemIsUserCheckable


def test_the_audit_lists_changes_and_exports_csv(
    qtbot, runner: Runner, ann: TaskdeskClient, tmp_path: Path
) -> None:
    ann.put_task("a_005", "Edited.\n", 1)
    dialog = AuditDialog(FleetAudit(runner, ann))
    qtbot.addWidget(dialog)
    dialog.agent.setText("a_005")
    with qtbot.waitSignal(dialog._audit.loaded, timeout=TIMEOUT):
        dialog.refresh_button.click()
    assert [e.kind for e in dialog.model.events] == ["task_saved"]
    target = tmp_path / "audit.csv"
    with qtbot.waitSignal(dialog._audit.exported, timeout=TIMEOUT):
        dialog.export_to(target)
    rows = list(csv.reader(target.read_text(encoding="utf-8").splitlines()))
    assert rows[0][:3] == ["at", "kind", "by"]
    assert rows[1][1:5] == ["task_saved", "Ann", "a_005", "2"]
    assert dialog.status.text() == f"Exported 1 changes to {target}."


def test_a_server_without_the_fleet_is_said_in_one_line(
    qtbot, runner: Runner, tmp_path: Path
) -> None:
    spec_only = start_server(WORKSPACE_BASIC, tmp_path / "spec.sqlite3", extensions=False)
    with spec_only as server, TaskdeskClient(server.url, "ann-secret") as client:
        health = FleetHealth(runner, client)
        with qtbot.waitSignal(health.failed, timeout=TIMEOUT) as said:
            health.load()
        runner.wait_idle()
    assert said.args == [NO_FLEET]


def test_a_member_is_told_the_fleet_is_for_operators(
    qtbot, runner: Runner, fleet: LiveServer
) -> None:
    with TaskdeskClient(fleet.url, fleet.token("mia")) as mia:
        health = FleetHealth(runner, mia)
        with qtbot.waitSignal(health.failed, timeout=TIMEOUT) as said:
            health.load()
        runner.wait_idle()
    assert said.args == ["Only operators can see the fleet. Sign in as an operator."]


def test_each_version_a_change_set_made_says_part_of_in_the_versions(
    qtbot, ann: TaskdeskClient, bob: TaskdeskClient
) -> None:
    from app.core.fleet_models import PlannedTaskChange
    from widgets.versions.revision_model import RevisionModel

    live = ann.get_task("a_006")
    change = PlannedTaskChange("a_006", live.version, live.content.replace("CSV", "Parquet"))
    ann.create_change_set("Rename CSV to Parquet", [change])
    bob.put_task("a_006", "Bob's own.\n", live.version + 1)
    doc = ann.get_task("a_006")
    assert doc.change_set_title is None
    model = RevisionModel()
    model.set_task(doc)
    titles = [model.row_at(r).title() for r in range(model.rowCount())]
    assert titles == ["v3 (live)", "v2 · part of: Rename CSV to Parquet", "v1"]


def test_the_shapes_come_after_the_rows_and_a_closed_preview_drops_late_answers(
    qtbot, runner: Runner, ann: TaskdeskClient
) -> None:
    flow = ChangeSetFlow(runner, ann, "o_acme")
    dialog = ChangePreviewDialog(flow, "Rename")
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(flow.shapes_checked, timeout=TIMEOUT):
        flow.preview(["a_001"], replace_edit("## Work", "## Steps"))
    (row,) = dialog.model.rows
    assert row.shape_after is not None and "missing_work" in row.shape_after
    assert "+missing_work" in dialog.model.index(0, 3).data()
    # Closed while the next preview is still being read: its answer is dropped quietly.
    flow.preview(["a_002"], replace_edit("CSV", "TSV"))
    dialog.close()
    dialog.deleteLater()
    qtbot.waitUntil(runner.is_idle, timeout=TIMEOUT)


def test_many_live_tasks_are_read_in_a_few_requests(ann: TaskdeskClient) -> None:
    ids = [f"a_{n:03d}" for n in range(FLEET_SIZE)] + ["a_missing"]
    found = ann.live_tasks(ids)
    assert [t.agent_id for t in found] == ids[:-1]
    assert all(t.version == 1 and "CSV" in t.content for t in found)


def test_every_column_title_shows_whole_and_shape_findings_read_as_words(qtbot) -> None:
    from app.core.shape_codes import shape_words
    from widgets.fleet.fleet_table_model import COLUMNS

    panel = FleetPanel()
    qtbot.addWidget(panel)
    header = panel.table.horizontalHeader()
    metrics = header.fontMetrics()
    for column, title in enumerate(COLUMNS):
        assert header.sectionSize(column) >= metrics.horizontalAdvance(title), title
    assert shape_words("missing_inputs") == "no Inputs"
    assert shape_words("order_outputs") == "Outputs out of order"
    assert shape_words("words_under") == "too short"
    assert shape_words("from_a_newer_server") == "from_a_newer_server"
