"""A change set filed as one proposal per Task, against a real server: by an operator (one
Task refused, named, the rest filed) and by a member, who can't save Tasks but can propose."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.client import TaskdeskClient
from app.client.errors import ProposalRefusal
from app.core.change_plan import replace_edit
from app.desk.change_set_flow import ChangeSetFlow
from app.desk.fleet_desk import FleetSearch
from app.desk.member_search import IN_PROMPT_OPERATORS, LiveTaskSearch
from app.desk.proposal_filing import ProposalFiling
from app.desk.runner import Runner
from tests.fleet.fleet_data import FLEET_SIZE
from tests.live_server import LiveServer
from widgets.fleet.change_preview import FILED, MEMBERS_PROPOSE, ChangePreviewDialog

TIMEOUT = 15_000
IDS = [f"a_{n:03d}" for n in range(FLEET_SIZE)]


def _preview(qtbot, runner: Runner, client: TaskdeskClient, *, operator: bool):
    flow = ChangeSetFlow(runner, client, "o_acme")
    filing = ProposalFiling(runner, client)
    dialog = ChangePreviewDialog(flow, "CSV to Parquet", filing=filing, can_apply=operator)
    qtbot.addWidget(dialog)
    dialog.show()
    with qtbot.waitSignal(flow.preview_ready, timeout=TIMEOUT):
        flow.preview(IDS, replace_edit("CSV", "Parquet"))
    return dialog


def test_an_operator_files_a_change_as_proposals_and_a_refused_one_is_named(
    qtbot, runner: Runner, ann: TaskdeskClient, bob: TaskdeskClient
) -> None:
    live = bob.get_task("a_003")
    for n in range(20):  # a_003 already has as many open proposals as it may
        bob.propose("a_003", live.content + f"line {n}\n", live.version, f"Bob's {n}")
    dialog = _preview(qtbot, runner, ann, operator=True)
    assert dialog.propose_button.isEnabled() and dialog.apply_button.isVisible()
    dialog.model.setData(
        dialog.model.index(0, 0), Qt.CheckState.Unchecked.value, Qt.ItemDataRole.CheckStateRole
    )
    progress: list[tuple[int, int]] = []
    dialog.filing.progress.connect(lambda done, total: progress.append((done, total)))
    with qtbot.waitSignal(dialog.filing.filed, timeout=TIMEOUT):
        dialog.propose_button.click()
    outcome = dialog.filed
    assert outcome is not None
    assert sorted(a for a, _ in outcome.filed) == [a for a in IDS[1:] if a != "a_003"]
    assert outcome.failed == (("a_003", ProposalRefusal.TOO_MANY.value),)
    # Told in order from the filing threads, so the bar never steps back and ends full.
    assert progress == [(n, FLEET_SIZE - 1) for n in range(1, FLEET_SIZE)]
    assert "Filed 10 proposals" in dialog.status.text()
    assert "Not filed for a_003: This agent already has 20 open proposals" in (dialog.status.text())
    # Nothing saved; each proposal is in its Task's queue, on the version previewed.
    assert all(ann.get_task(a).version == 1 for a in IDS)
    for agent_id, proposal_id in outcome.filed:
        (queued,) = ann.agent_proposals(agent_id)
        assert queued.id == proposal_id and queued.status == "open"
        assert queued.title == "CSV to Parquet" and queued.base_version == 1
        assert "Parquet" in ann.proposal(proposal_id).content
    assert ann.agent_proposals("a_000") == []  # unticked: not filed
    health = {row.id: row.open_proposals for row in ann.org_health()}
    assert health["a_001"] == 1 and health["a_000"] == 0
    # Filed rows are unticked and say so; the refused one stays ticked with its reason.
    rows = {r.agent_id: r for r in dialog.model.rows}
    assert not rows["a_001"].ticked and rows["a_003"].ticked
    said = {r.agent_id: dialog.model.index(i, 4).data() for i, r in enumerate(dialog.model.rows)}
    assert said["a_001"] == FILED and said["a_003"] == ProposalRefusal.TOO_MANY.value
    assert dialog.propose_button.isEnabled()  # the refused one can be filed again


def test_a_member_searches_the_tasks_and_files_proposals_but_cannot_apply(
    qtbot, runner: Runner, fleet: LiveServer, ann: TaskdeskClient
) -> None:
    with TaskdeskClient(fleet.url, fleet.token("mia")) as mia:
        search = FleetSearch(runner, LiveTaskSearch(mia))
        with qtbot.waitSignal(search.found, timeout=TIMEOUT) as found:
            search.search("csv", in_prompt=False, regex=False, guild_id="guild_ops")
        hits = found.args[0]
        assert [a.id for a in hits] == [a for a in IDS if int(a[2:]) % 2]
        assert hits[0].matches[0].line == 3 and hits[0].matches[0].column == 23
        with qtbot.waitSignal(search.failed, timeout=TIMEOUT) as said:
            search.search("night", in_prompt=True, regex=False)
        assert said.args == [IN_PROMPT_OPERATORS]

        dialog = _preview(qtbot, runner, mia, operator=False)
        assert not dialog.apply_button.isVisible() and not dialog.revert_button.isVisible()
        assert MEMBERS_PROPOSE in dialog.status.text()
        # A member has no health rows: the budget is counted from the notes it can read.
        by_id = {row.id: row for row in ann.org_health()}
        assert all(r.embedded_before == by_id[r.agent_id].embedded_bytes for r in dialog.model.rows)
        with qtbot.waitSignal(dialog.filing.filed, timeout=TIMEOUT):
            dialog.propose_button.click()
        runner.wait_idle()
    assert dialog.filed is not None and len(dialog.filed.filed) == FLEET_SIZE
    queue = ann.org_proposals()
    assert sorted(p.agent_id for p in queue) == IDS
    assert {p.author_name for p in queue} == {"Mia"}
    assert all(ann.get_task(a).version == 1 for a in IDS)
