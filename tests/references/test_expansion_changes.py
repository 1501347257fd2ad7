"""What changed between two expansions: each changed block told by the Task or note it is in."""

from __future__ import annotations

from hypothesis import given

from app.core.expander import Expansion, expand_embeds, task_source
from app.core.expansion_changes import (
    ChangeSource,
    ExpandedSide,
    NoteState,
    compare_expansions,
    side_from_expansion,
    side_from_run,
)
from app.core.models import AccessEntry, OrgFile
from tests.references.strategies import ORG_ID, PROPERTIES, READER, TASK_PATH, org_files, soup

EVERYONE = (AccessEntry("org", "read"),)
A, B, C = "org/o_acme/a.md", "org/o_acme/guilds/guild_ops/b.md", "org/o_acme/c.md"
TASK = f"# Scout\nWatch the queue.\n\n![[{A}]]\n\nThen reply.\n"


def files(**texts: tuple[str, int]) -> dict[str, OrgFile]:
    paths = {"a": A, "b": B, "c": C}
    return {
        paths[k]: OrgFile(paths[k], "note", title=k.upper(), text=t, version=v, access=EVERYONE)
        for k, (t, v) in texts.items()
    }


def expand(task: str, org: dict[str, OrgFile]) -> Expansion:
    return expand_embeds(task, org_id=ORG_ID, reader=READER, lookup=org, task_path=TASK_PATH)


def run_side(task: str, org: dict[str, OrgFile], version: int) -> ExpandedSide:
    """A run's side, as the server records it: the text it got and its task_source."""
    expansion = expand(task, org)
    source = task_source(expansion, version=version, task_text=task, display_path=TASK_PATH)
    return side_from_run(expansion.text, source)


def now_side(task: str, org: dict[str, OrgFile], version: int) -> ExpandedSide:
    return side_from_expansion(expand(task, org), task_version=version, task_text=task)


def test_a_note_edited_after_the_run_shows_as_that_notes_change() -> None:
    before = files(a=(f"Rule one.\n![[{B}]]\n", 1), b=("Be brief.\nCite.", 4))
    after = {**before, **files(a=(f"Rule one, changed.\n![[{B}]]\n", 2))}
    changes = compare_expansions(run_side(TASK, before, 3), now_side(TASK, after, 3))
    assert changes.task == ChangeSource("task", "", 3, 3, False)
    assert changes.changed_notes == (ChangeSource("note", A, 1, 2, True),)
    assert [b.sources for b in changes.blocks] == [(ChangeSource("note", A, 1, 2, True),)]
    chunk = changes.blocks[0].chunk
    assert (chunk.old_start, chunk.old_end) == (4, 5)


def test_an_edit_to_a_note_inlined_at_hop_two_names_that_note() -> None:
    before = files(a=(f"Rule one.\n![[{B}]]\n", 1), b=("Be brief.\nCite.", 4))
    after = {**before, **files(b=("Be brief.\nCite twice.", 5))}
    changes = compare_expansions(run_side(TASK, before, 3), now_side(TASK, after, 3))
    assert [b.sources for b in changes.blocks] == [(ChangeSource("note", B, 4, 5, True),)]


def test_a_task_edit_shows_as_the_tasks_change() -> None:
    org = files(a=("Rule one.", 1))
    edited = TASK.replace("Then reply.", "Then reply within the hour.")
    changes = compare_expansions(run_side(TASK, org, 3), now_side(edited, org, 4))
    assert changes.changed_notes == ()
    assert [b.sources for b in changes.blocks] == [(ChangeSource("task", "", 3, 4, True),)]


def test_a_new_embed_comes_from_the_task_and_brings_its_note() -> None:
    org = files(a=("Rule one.", 1), c=("Third.", 7))
    edited = TASK + f"![[{C}]]\n"
    changes = compare_expansions(run_side(TASK, org, 3), now_side(edited, org, 4))
    (block,) = changes.blocks
    assert block.sources == (
        ChangeSource("task", "", 3, 4, True),
        ChangeSource("note", C, None, 7, True),
    )


def test_an_unchanged_task_line_that_changes_is_an_embed_resolving_differently() -> None:
    before = files(a=("Rule one.", 1))
    org_gone: dict[str, OrgFile] = {}
    changes = compare_expansions(run_side(TASK, before, 3), now_side(TASK, org_gone, 3))
    sources = {s for b in changes.blocks for s in b.sources}
    # The element lines are the Task's (its embed), unchanged; the note's text is gone.
    assert sources == {
        ChangeSource("task", "", 3, 3, False),
        ChangeSource("note", A, 1, None, True),
    }


def test_two_runs_compare_the_same_way() -> None:
    before = files(a=("Rule one.", 1))
    after = files(a=("Rule two.", 2))
    changes = compare_expansions(run_side(TASK, before, 3), run_side(TASK, after, 3))
    assert [b.sources for b in changes.blocks] == [(ChangeSource("note", A, 1, 2, True),)]


def test_a_run_whose_text_lacks_a_note_it_names_is_read_as_far_as_it_goes() -> None:
    org = files(a=("Rule one.", 1))
    expansion = expand(TASK, org)
    source = task_source(expansion, version=3, task_text=TASK, display_path=TASK_PATH)
    source["notes"].append({"display_path": C, "version": 1, "content_hash": "0", "kind": "note"})
    side = side_from_run(expansion.text, source)
    assert side.exact is False
    assert [s.path for s in side.spans] == [A]


def test_a_garbled_task_source_reads_as_unknown_instead_of_failing() -> None:
    source = {"version": "3", "hash": None, "notes": [{"display_path": A, "version": 1.5}, "x"]}
    side = side_from_run("plain text", source)
    assert (side.task_version, side.task_hash) == (None, "")
    assert side.notes == (NoteState(A, None, ""),)
    assert (side.spans, side.exact) == ((), False)


@PROPERTIES
@given(task=soup, org=org_files())
def test_a_runs_note_spans_read_from_its_text_are_the_expanders(
    task: str, org: dict[str, OrgFile]
) -> None:
    expansion = expand(task, org)
    source = task_source(expansion, version=1, task_text=task, display_path=TASK_PATH)
    from_run = side_from_run(expansion.text, source)
    exact = side_from_expansion(expansion, task_version=1, task_text=task)
    assert from_run.exact
    assert sorted(from_run.spans, key=repr) == sorted(exact.spans, key=repr)
    assert (from_run.task_hash, from_run.notes) == (exact.task_hash, exact.notes)


@PROPERTIES
@given(task=soup, org=org_files(), edited=org_files())
def test_with_the_task_unchanged_no_block_blames_a_changed_task(
    task: str, org: dict[str, OrgFile], edited: dict[str, OrgFile]
) -> None:
    before = side_from_expansion(expand(task, org), task_version=1, task_text=task)
    after = side_from_expansion(expand(task, edited), task_version=1, task_text=task)
    changes = compare_expansions(before, after)
    assert not changes.task.changed
    assert all(not (s.kind == "task" and s.changed) for b in changes.blocks for s in b.sources)
    if before.text == after.text:
        assert changes.blocks == ()
    for block in changes.blocks:
        assert block.sources
