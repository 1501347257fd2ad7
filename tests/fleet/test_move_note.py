"""File › Move note… end to end against a real server: every embed rewritten as one change
set, the note moved, and every agent's expanded Task the same but for the path; a fenced
embed left as written; a path taken or outside the org; Tasks saved meanwhile."""

from __future__ import annotations

import pytest

from app.client import NotFound, TaskdeskClient
from app.desk.change_set_flow import ChangeSetFlow
from app.desk.note_move import NoteMove
from app.desk.runner import Runner
from tests.fleet.fleet_data import FLEET_SIZE, ORG, RULES
from tests.live_server import LiveServer
from widgets.notes.move_note_dialog import MoveNoteDialog, MovePreviewDialog

TIMEOUT = 15_000
MOVED = f"{ORG}/guidelines/rules.md"
HANDBOOK = f"{ORG}/handbook.md"
IDS = [f"a_{n:03d}" for n in range(FLEET_SIZE)]
FENCE = f"Show how to embed:\n\n```\n![[{RULES}]]\n```\n"


def _prompts(client: TaskdeskClient) -> dict[str, str]:
    """Every agent's expanded Task, as the server's expander gives it to a run."""
    return {agent: client.create_run(agent).task_text for agent in IDS}


def _normal(prompt: str) -> str:
    """The prompt with the moved note's path attribute as it was before the move."""
    return prompt.replace(f'path="{MOVED}"', f'path="{RULES}"')


def _plan(qtbot, runner: Runner, client: TaskdeskClient, new_path: str) -> MoveNoteDialog:
    asking = MoveNoteDialog(NoteMove(runner, client, "o_acme"), RULES)
    qtbot.addWidget(asking)
    asking.new_path.setText(new_path)
    asking.preview_button.click()
    qtbot.waitUntil(
        lambda: asking.preview_button.isEnabled() or asking.plan is not None, timeout=TIMEOUT
    )
    return asking


def _preview(qtbot, runner: Runner, client: TaskdeskClient, asking: MoveNoteDialog):
    assert asking.plan is not None, asking.problem.text()
    flow = ChangeSetFlow(runner, client, "o_acme", notes_as=asking.plan.notes_after())
    preview = MovePreviewDialog(flow, NoteMove(runner, client, "o_acme"), asking.plan)
    qtbot.addWidget(preview)
    preview.show()
    with qtbot.waitSignal(flow.preview_ready, timeout=TIMEOUT):
        flow.preview(list(asking.plan.agent_ids), asking.plan.edit)
    return preview


def _move(qtbot, preview: MovePreviewDialog) -> None:
    with qtbot.waitSignal(preview.move_.moved, timeout=TIMEOUT):
        preview.apply_button.click()


@pytest.fixture
def varied(fleet: LiveServer, ann: TaskdeskClient) -> None:
    """Embeds written every way: spaces in the brackets, plain links, a note that embeds it."""
    ann.create_note(
        HANDBOOK,
        "Handbook",
        f"Read the rules:\n![[{RULES}]]\n",
        ann.note(RULES).access,
    )
    task = ann.get_task("a_001")
    ann.put_task(
        "a_001",
        f"Spaced ![[ {RULES} ]] and plain [[rules]] and {RULES} as text.\n",
        task.version,
    )
    task = ann.get_task("a_002")
    ann.put_task("a_002", f"![[{HANDBOOK}]]\n" + task.content, task.version)
    task = ann.get_task("a_004")
    ann.put_task("a_004", f"Only the handbook: ![[{HANDBOOK}]]\n", task.version)


def test_a_moved_note_leaves_every_expanded_task_equal_but_for_its_path(
    qtbot, runner: Runner, ann: TaskdeskClient, varied: None
) -> None:
    before = _prompts(ann)
    asking = _plan(qtbot, runner, ann, MOVED)
    preview = _preview(qtbot, runner, ann, asking)
    # a_004 reaches it only through the handbook: its Task has nothing to rewrite.
    assert sorted(r.agent_id for r in preview.model.rows) == [a for a in IDS if a != "a_004"]
    assert f"The embeds in {HANDBOOK} are rewritten too" in preview.summary.text()
    assert "stays the same but for the path attribute." in preview.summary.text()
    # The budget after counts the note at its new path (and the handbook as rewritten).
    rows = {r.agent_id: r for r in preview.model.rows}
    assert rows["a_000"].embedded_after == rows["a_000"].embedded_before > 0
    grown = len(MOVED) - len(RULES)
    assert rows["a_002"].embedded_after == rows["a_002"].embedded_before + grown
    _move(qtbot, preview)
    outcome = preview.outcome
    assert outcome is not None and outcome.deleted, preview.status.text()
    assert preview.status.text().startswith(f"Moved {RULES} to {MOVED}: 11 Tasks rewritten")
    after = _prompts(ann)
    for agent in IDS:  # only the path attribute differs: the path as text stays as written
        assert f'path="{MOVED}"' in after[agent] and f'path="{RULES}"' not in after[agent]
        assert _normal(after[agent]) == before[agent], agent
    assert ann.get_task("a_001").content == (
        f"Spaced ![[ {MOVED} ]] and plain [[rules]] and {RULES} as text.\n"
    )
    assert ann.note(MOVED).text == "Never page the night shift.\n"
    assert ann.note(HANDBOOK).text == f"Read the rules:\n![[{MOVED}]]\n"
    with pytest.raises(NotFound):
        ann.note(RULES)
    # One change set made the Tasks' versions; it names the move.
    (made,) = ann.change_sets()
    assert made.title == f"Move {RULES} to {MOVED}" and len(made.versions) == 11


def test_an_embed_inside_a_code_fence_is_left_and_keeps_the_old_note(
    qtbot, runner: Runner, ann: TaskdeskClient
) -> None:
    task = ann.get_task("a_003")
    ann.put_task("a_003", FENCE, task.version)
    before = _prompts(ann)
    preview = _preview(qtbot, runner, ann, _plan(qtbot, runner, ann, MOVED))
    assert "code fence in the Task of a_003" in preview.summary.text()
    assert "a_003" not in [r.agent_id for r in preview.model.rows]
    _move(qtbot, preview)
    assert preview.outcome is not None and not preview.outcome.deleted
    assert preview.status.text() == (
        f"The note is at {MOVED} and 11 Tasks rewritten as one change set, but the old note "
        f"stays at {RULES}: the Task of a_003 still embeds it (inside a code fence, left as "
        "written). Edit that Task, then delete the old note."
    )
    assert ann.get_task("a_003").content == FENCE  # untouched
    after = _prompts(ann)
    assert all(_normal(after[a]) == before[a] for a in IDS)
    assert ann.note(MOVED).text == ann.note(RULES).text
    assert not preview.apply_button.isEnabled()


def test_a_path_taken_or_outside_the_org_is_one_sentence_and_nothing_moves(
    qtbot, runner: Runner, ann: TaskdeskClient
) -> None:
    taken = _plan(qtbot, runner, ann, f"{ORG}/big.md")
    assert taken.plan is None
    assert taken.problem.text() == f"A file already exists at {ORG}/big.md: choose another path."
    outside = _plan(qtbot, runner, ann, "org/o_other/rules.md")
    assert outside.problem.text() == (
        "The new path must be inside the org: it starts with org/o_acme/."
    )
    # Taken between the preview and Move: nothing at all is written.
    preview = _preview(qtbot, runner, ann, _plan(qtbot, runner, ann, MOVED))
    ann.create_note(MOVED, "Someone's", "Theirs.\n", ())
    _move(qtbot, preview)
    assert preview.status.text().startswith("Nothing was moved: A file already exists")
    assert all(ann.get_task(a).version == 1 for a in IDS)
    assert ann.note(RULES).version == 1 and ann.note(MOVED).text == "Theirs.\n"


def test_tasks_saved_meanwhile_are_rebased_shown_again_and_the_move_finishes(
    qtbot, runner: Runner, ann: TaskdeskClient, bob: TaskdeskClient
) -> None:
    preview = _preview(qtbot, runner, ann, _plan(qtbot, runner, ann, MOVED))
    live = bob.get_task("a_005")
    bob.put_task("a_005", live.content + "Bob's line.\n", live.version)
    with qtbot.waitSignal(preview.move_.rebased, timeout=TIMEOUT):
        preview.apply_button.click()
    assert preview.status.text() == (
        f"The note is at {MOVED} now, but no Task was saved: 1 Task was saved by someone "
        "else since the preview. They are merged with the change and shown again: Move "
        "again to finish."
    )
    assert ann.get_task("a_000").version == 1  # all or nothing
    assert ann.note(RULES).version == 1  # the old note is still there
    rebased = {r.agent_id: r for r in preview.model.rows}["a_005"]
    assert rebased.rebased and rebased.after.endswith(f"![[{MOVED}]]\nBob's line.\n")
    assert preview.apply_button.isEnabled()
    _move(qtbot, preview)  # the note is not made twice
    assert preview.outcome is not None and preview.outcome.deleted, preview.status.text()
    assert ann.get_task("a_005").content.endswith(f"![[{MOVED}]]\nBob's line.\n")
    with pytest.raises(NotFound):
        ann.note(RULES)
