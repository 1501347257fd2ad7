"""See what the agent gets, and why: References, the budget, runs and their System view, and
what changed since the last run, in the real window against the real reference server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import requests

from app.core.limits import EMBED_BUDGET_BYTES
from app.core.workspace import load_workspace
from app.server import start_server
from app.server.system_prompt import task_section
from tests.live_server import WORKSPACE_BASIC, LiveServer, ServerFactory
from tests.window_steps import WindowFactory, open_agent, said, sign_in
from widgets.insight.budget_dialog import BudgetDialog
from widgets.insight.changes_dialog import ChangesDialog
from widgets.insight.insight_flow import InsightFlow
from widgets.insight.run_flow import NO_RUNS_LIST
from widgets.insight.system_view import SystemViewDialog
from widgets.window.main_window import MainWindow
from widgets.window.messages import Severity

TIMEOUT = 10_000
ORG = "org/o_acme"
STYLE_GUIDE = f"{ORG}/guilds/guild_ops/style-guide.md"
ESCALATION = f"{ORG}/escalation.md"  # inlined at hop 2, from the style guide
EVERY_REASON_TASK = f"""# Writer

Draft replies to customers for an operator to review.

## Work
![[{STYLE_GUIDE}]]
![[{ORG}/retired-playbook.md]]
![[{ORG}/guilds/guild_research/methods.md]]
![[{ORG}/agents/a_scout/memory.md]]
![[org/o_globex/plan.md]]
![[guild/style-guide.md]]

## Files
- {ORG}/handbook.md, named without an embed.
"""


def _said(window: MainWindow, fragment: str) -> bool:
    return any(fragment in text for text in said(window, Severity.ERROR))


def _insight(window: MainWindow) -> InsightFlow:
    return window.task_tab.insight


def _writer_window(
    qtbot, make_window: WindowFactory, server: LiveServer, agent: str = "a_writer"
) -> MainWindow:
    window = make_window()
    sign_in(qtbot, window, server.url, server.token("ann"))
    open_agent(qtbot, window, agent)
    return window


def _ask_and_start_run(qtbot, window: MainWindow) -> None:
    """View › Start a run…, and Start in its question."""
    insight = _insight(window)
    insight.commands.start_run.trigger()
    qtbot.waitUntil(lambda: insight.run_confirmation.dialog is not None, timeout=TIMEOUT)
    assert insight.run_confirmation.dialog is not None
    insight.run_confirmation.dialog.confirm_button.click()


def _start_run(qtbot, window: MainWindow) -> str:
    """Start a run; returns the new run's id, once the Runs tab lists it first."""
    insight = _insight(window)
    before = len(insight.panel.runs.model.rows)
    _ask_and_start_run(qtbot, window)
    qtbot.waitUntil(lambda: len(insight.panel.runs.model.rows) > before, timeout=TIMEOUT)
    return insight.panel.runs.model.rows[0].id


def _dialog(qtbot, window: MainWindow, kind: type) -> Any:
    insight = _insight(window)
    qtbot.waitUntil(lambda: isinstance(insight.dialog, kind), timeout=TIMEOUT)
    return insight.dialog


def test_references_give_every_markers_reason(
    qtbot, make_window: WindowFactory, server_factory: ServerFactory, workspace_basic: dict
) -> None:
    for agent in workspace_basic["agents"]:
        if agent["id"] == "a_writer":
            agent["task"] = EVERY_REASON_TASK
    server = server_factory(workspace_basic)
    window = _writer_window(qtbot, make_window, server)
    _start_run(qtbot, window)  # inlines the escalation note at hop 2
    gone = requests.delete(
        f"{server.url}/api/notes/{ESCALATION}", headers=server.auth("ann"), timeout=10
    )
    assert gone.status_code == 204
    notes = window.task_tab.live_preview.notes
    assert notes is not None
    notes.forget()  # as after the preview's revalidation interval: the deletion is seen
    insight = _insight(window)
    insight.commands.references.setChecked(True)
    view = insight.panel.references

    def reasons() -> dict[str, Any]:
        refs = view.references
        return {r.path: r for r in refs.walk()} if refs is not None else {}

    qtbot.waitUntil(
        lambda: ESCALATION in reasons() and reasons()[ESCALATION].reason is not None,
        timeout=TIMEOUT,
    )
    found = reasons()
    codes = {
        path: (r.hop, r.outcome, r.reason.code if r.reason else None) for path, r in found.items()
    }
    assert codes == {
        STYLE_GUIDE: (1, "inlined", None),
        ESCALATION: (2, "marker", "deleted"),
        f"{ORG}/retired-playbook.md": (1, "marker", "missing"),
        f"{ORG}/guilds/guild_research/methods.md": (1, "marker", "no_access"),
        f"{ORG}/agents/a_scout/memory.md": (1, "marker", "not_note_or_collection"),
        "org/o_globex/plan.md": (1, "marker", "other_org"),
        "guild/style-guide.md": (1, "marker", "not_display_path"),
        f"{ORG}/handbook.md": (1, "named", None),
    }
    no_access = found[f"{ORG}/guilds/guild_research/methods.md"].reason
    assert no_access is not None and "Add agent:a_writer read" in no_access.message
    assert "guild:guild_research read" in no_access.message  # what it gives now
    assert "6 unreachable" in view.summary_label.text()
    # A reference in the Task jumps to its line in the editor.
    tree, model = view.tree, view.model
    missing_row = next(
        model.index(r, 0)
        for r in range(model.rowCount())
        if model.reference(model.index(r, 0)).path == f"{ORG}/retired-playbook.md"
    )
    tree.setCurrentIndex(missing_row)
    assert "There is no note or collection" in view.detail_label.text()
    view.on_activated(missing_row)
    assert window.task_tab.editor.textCursor().blockNumber() == 6  # line 7
    # The shape check reads the same text.
    insight.commands.shape.setChecked(True)
    qtbot.waitUntil(lambda: insight.panel.shape.check is not None, timeout=TIMEOUT)
    advice = [
        insight.panel.shape.advice.item(i).text() for i in range(insight.panel.shape.advice.count())
    ]
    assert any("Add Inputs and Outputs" in a for a in advice)


def _over_budget(workspace: dict[str, Any]) -> dict[str, Any]:
    """Analyst embeds two notes its guild reads, 40,000 and 30,000 bytes: 4,464 over."""
    for name, size in (("big", 40_000), ("bigger", 30_000)):
        workspace["notes"].append(
            {
                "path": f"{ORG}/guilds/guild_research/{name}.md",
                "title": name.title(),
                "text": "é" * (size // 2),
                "access": [{"principal": "guild:guild_research", "role": "read"}],
            }
        )
    for agent in workspace["agents"]:
        if agent["id"] == "a_analyst":
            agent["task"] = (
                f"# Analyst\n\n![[{ORG}/guilds/guild_research/bigger.md]]\n\n"
                f"## Sources\n![[{ORG}/guilds/guild_research/big.md]]\n"
            )
    return workspace


def test_the_breakdown_counts_as_the_expander_and_a_run_over_budget_is_refused(
    qtbot,
    make_window: WindowFactory,
    server_factory: ServerFactory,
    workspace_basic: dict,
    tmp_path: Path,
) -> None:
    workspace = _over_budget(workspace_basic)
    server = server_factory(workspace)
    window = _writer_window(qtbot, make_window, server, "a_analyst")
    insight = _insight(window)
    window.task_tab.size_meters.embeds_meter.clicked.emit()
    dialog: BudgetDialog = _dialog(qtbot, window, BudgetDialog)
    path = tmp_path / "over.json"
    path.write_text(json.dumps(workspace))
    expansion = load_workspace(str(path)).expand_for("a_analyst")
    assert dialog.budget.total == expansion.embedded_bytes == 70_000
    assert sum(n.bytes for n in dialog.budget.notes) == expansion.embedded_bytes
    assert [n.path for n in dialog.budget.notes] == [
        f"{ORG}/guilds/guild_research/big.md",
        f"{ORG}/guilds/guild_research/bigger.md",
    ]
    assert dialog.budget.removal == (f"{ORG}/guilds/guild_research/big.md",)
    assert "Over by 4,464 bytes" in dialog.headline.text()
    assert sum(s.bytes for s in dialog.sizes.sections) == len(expansion_task(workspace).encode())
    assert len(dialog.notes_chart.rows()) == 2
    dialog.close()
    qtbot.waitUntil(lambda: insight.dialog is None, timeout=TIMEOUT)
    # Start a run: refused, by how much, and the breakdown opens.
    _ask_and_start_run(qtbot, window)
    qtbot.waitUntil(lambda: _said(window, "over the 64 KB budget"), timeout=TIMEOUT)
    assert _said(window, f"{70_000 - EMBED_BUDGET_BYTES:,} over")
    _dialog(qtbot, window, BudgetDialog)
    assert window.task_tab.editor.text() == expansion_task(workspace)  # the editor is left alone


def expansion_task(workspace: dict[str, Any]) -> str:
    return next(a["task"] for a in workspace["agents"] if a["id"] == "a_analyst")


def test_a_runs_system_view_is_its_task_section_byte_for_byte(
    qtbot, window: MainWindow, live_server: LiveServer
) -> None:
    open_agent(qtbot, window, "a_scout")
    run_id = _start_run(qtbot, window)
    insight = _insight(window)
    assert insight.panel.runs.model.rows[0].created_by == "Ann"
    insight.panel.runs.select_rows(0)
    insight.panel.runs.open_button.click()
    dialog: SystemViewDialog = _dialog(qtbot, window, SystemViewDialog)
    qtbot.waitUntil(lambda: dialog.is_filled, timeout=TIMEOUT)
    stored = requests.get(
        f"{live_server.url}/api/runs/{run_id}", headers=live_server.auth("ann"), timeout=10
    ).json()
    assert dialog.shown_text() == task_section(stored["system_prompt"])
    assert dialog.run.task_text == task_section(stored["system_prompt"])
    rows = dialog.source.topLevelItemCount()
    assert rows == 1 + len(stored["task_source"]["notes"]) + len(
        stored["task_source"]["collections"]
    )
    assert dialog.gone == ()
    dialog.close()
    # A note the run inlined is deleted since: the System view says so, in one sentence.
    checklist = f"{ORG}/agents/a_scout/checklist.md"
    assert checklist in [n["display_path"] for n in stored["task_source"]["notes"]]
    notes = window.task_tab.live_preview.notes
    assert notes is not None
    ann = {"Authorization": f"Bearer {live_server.token('ann')}"}
    live = requests.get(
        f"{live_server.url}/api/agents/a_scout/files/task.md", headers=ann, timeout=10
    )
    without = live.json()["content"].replace(f"![[{checklist}]]", "the checklist")
    requests.put(
        f"{live_server.url}/api/agents/a_scout/files/task.md",
        json={"content": without},
        headers=ann,
        timeout=10,
    ).raise_for_status()
    assert requests.delete(f"{live_server.url}/api/notes/{checklist}", headers=ann, timeout=10).ok
    notes.forget()
    qtbot.waitUntil(lambda: insight.dialog is None, timeout=TIMEOUT)
    insight.runs.open_run(run_id)
    again: SystemViewDialog = _dialog(qtbot, window, SystemViewDialog)
    assert again.gone == (checklist,)
    assert f"no longer exist or can't be read now ({checklist})" in again.headline.text()
    qtbot.waitUntil(lambda: again.is_filled, timeout=TIMEOUT)
    assert again.shown_text() == task_section(stored["system_prompt"])  # kept as it was
    # The list comes from the server: a run started elsewhere shows after a refresh.
    requests.post(
        f"{live_server.url}/api/agents/a_scout/runs", headers=live_server.auth("bob"), timeout=10
    )
    insight.runs.refresh_runs()
    qtbot.waitUntil(lambda: len(insight.panel.runs.model.rows) == 2, timeout=TIMEOUT)
    assert insight.panel.runs.model.rows[0].created_by == "Bob"


def test_changed_since_the_last_run_shows_a_note_edit_with_the_task_unchanged(
    qtbot, window: MainWindow, live_server: LiveServer
) -> None:
    open_agent(qtbot, window, "a_writer")
    run_id = _start_run(qtbot, window)
    live_server.put_note(
        STYLE_GUIDE,
        title="Style guide",
        text="Write short sentences.\nNo jargon at all.\n\n![[org/o_acme/escalation.md]]\n",
        access=[{"principal": "guild:guild_ops", "role": "read"}],
    )
    insight = _insight(window)
    insight.panel.runs.select_rows(0)
    insight.panel.runs.changes_button.click()
    dialog: ChangesDialog = _dialog(qtbot, window, ChangesDialog)
    changes = dialog.changes
    assert not changes.task.changed
    assert [(n.path, n.old_version, n.new_version) for n in changes.changed_notes] == [
        (STYLE_GUIDE, 1, 2)
    ]
    assert dialog.headline.text().startswith("The Task is unchanged")  # a sentence
    first_blocks = dialog.block_texts()
    assert first_blocks == [f"line 8: from note {STYLE_GUIDE} (v1 → v2)"]
    assert "No jargon at all." in dialog.diff.new_text
    assert "No jargon at all." not in dialog.diff.old_text
    assert run_id in dialog.diff.old_title.text()
    dialog.close()
    qtbot.waitUntil(lambda: insight.dialog is None, timeout=TIMEOUT)
    # The same from View › Changed since the last run, without choosing the run.
    insight.commands.changed_since.trigger()
    latest: ChangesDialog = _dialog(qtbot, window, ChangesDialog)
    assert latest.block_texts() == first_blocks
    assert run_id in latest.diff.old_title.text()
    latest.close()
    # Two runs compared: the newer one has the edit.
    _start_run(qtbot, window)
    insight.panel.runs.select_rows(0, 1)
    assert insight.panel.runs.changes_button.text() == "Compare the two"
    insight.panel.runs.changes_button.click()
    qtbot.waitUntil(
        lambda: isinstance(insight.dialog, ChangesDialog) and insight.dialog is not dialog,
        timeout=TIMEOUT,
    )
    assert [n.path for n in insight.dialog.changes.changed_notes] == [STYLE_GUIDE]


def test_a_server_without_runs_says_so_and_leaves_the_editor_alone(
    qtbot, make_window: WindowFactory, tmp_path: Path
) -> None:
    handle = start_server(WORKSPACE_BASIC, tmp_path / "spec.sqlite3", extensions=False)
    try:
        window = make_window()
        sign_in(qtbot, window, handle.url, "ann-secret", first_agent=False)
        with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
            window.on_agent_id_entered("a_writer")
        text = window.task_tab.editor.text()
        insight = _insight(window)
        insight.commands.runs.setChecked(True)
        qtbot.waitUntil(
            lambda: insight.panel.runs.notice_label.text() == NO_RUNS_LIST, timeout=TIMEOUT
        )
        _ask_and_start_run(qtbot, window)
        qtbot.waitUntil(lambda: _said(window, "this server doesn't start runs"), timeout=TIMEOUT)
        assert window.task_tab.editor.text() == text
    finally:
        handle.stop()


def test_a_long_task_fills_the_system_view_in_slices_byte_for_byte(qtbot) -> None:
    """256 KB is put in slices between events; the text shown is exactly the run's."""
    from app.client.runs import RunInfo, TaskSource

    lines = [f"Line {n}: é — 漢字 {'word ' * (n % 17)}" for n in range(9_000)]
    text = "\n".join(lines) + '\n\n<unreachable path="org/o_acme/x.md" message="m" />'
    source = TaskSource(1, "0" * 64, f"{ORG}/agents/a_scout/task.md", False, (), (), ())
    dialog = SystemViewDialog(RunInfo("run_long", f"<task>\n{text}\n</task>", source))
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.is_filled  # the rest comes between events
    with qtbot.waitSignal(dialog.filled, timeout=TIMEOUT):
        pass
    assert dialog.shown_text() == text


def test_a_member_is_told_that_files_they_cannot_read_show_as_missing(
    qtbot, make_window: WindowFactory, live_server: LiveServer
) -> None:
    window = make_window()
    sign_in(qtbot, window, live_server.url, live_server.token("mia"))
    open_agent(qtbot, window, "a_writer")
    insight = _insight(window)
    insight.commands.references.setChecked(True)
    view = insight.panel.references
    qtbot.waitUntil(lambda: view.references is not None, timeout=TIMEOUT)
    assert view.notice_label.isVisible()
    assert "files you may not read show as missing" in view.notice_label.text()
    assert view.references is not None
    style = next(r for r in view.references.walk() if r.path == STYLE_GUIDE)
    assert (style.outcome, style.reason and style.reason.code) == ("marker", "missing")
