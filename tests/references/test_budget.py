"""The budget breakdown: bytes as the expander counts them, and exact removals when over."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.core.budget import BudgetBreakdown, budget_breakdown
from app.core.expander import Expansion, expand_embeds
from app.core.models import AccessEntry, OrgFile
from tests.references.strategies import ORG_ID, PROPERTIES, READER, org_files, soup

EVERYONE = (AccessEntry("org", "read"),)
KB = 1024


def note(name: str, size: int, embeds: str = "") -> OrgFile:
    """A note of exactly ``size`` bytes whose text ends with ``embeds``."""
    body = embeds + "x" * (size - len(embeds))
    return OrgFile(f"org/o_acme/{name}.md", "note", title=name.upper(), text=body, access=EVERYONE)


def embed(name: str) -> str:
    return f"![[org/o_acme/{name}.md]]"


def expand(task: str, files: dict[str, OrgFile], budget: int = 64 * KB) -> Expansion:
    return expand_embeds(task, org_id=ORG_ID, reader=READER, lookup=files, budget=budget)


def breakdown(task: str, files: dict[str, OrgFile], budget: int = 64 * KB) -> BudgetBreakdown:
    return budget_breakdown(expand(task, files, budget), org_id=ORG_ID, reader=READER, lookup=files)


def by_path(notes: list[OrgFile]) -> dict[str, OrgFile]:
    return {n.display_path: n for n in notes}


def test_rows_are_the_expanders_notes_largest_first() -> None:
    files = by_path([note("a", 30 * KB, embed("b")), note("b", 40 * KB), note("c", 10 * KB)])
    task = f"{embed('a')}\n{embed('c')}\n"
    result = breakdown(task, files)
    assert [(n.path, n.hop, n.bytes) for n in result.notes] == [
        ("org/o_acme/b.md", 2, 40 * KB),
        ("org/o_acme/a.md", 1, 30 * KB),
        ("org/o_acme/c.md", 1, 10 * KB),
    ]
    assert result.total == expand(task, files).embedded_bytes == 80 * KB
    assert (result.over_budget, result.excess) == (True, 16 * KB)
    assert [round(n.share, 3) for n in result.notes] == [0.5, 0.375, 0.125]
    assert result.notes[1].pulled_in == ("org/o_acme/b.md",)


def test_removing_a_note_takes_what_only_it_pulled_in() -> None:
    files = by_path([note("a", 30 * KB, embed("b")), note("b", 40 * KB), note("c", 10 * KB)])
    result = breakdown(f"{embed('a')}\n{embed('c')}\n", files)
    frees = {n.path: n.frees for n in result.notes}
    assert frees["org/o_acme/a.md"] == 70 * KB  # a and the b only it pulls in
    assert frees["org/o_acme/b.md"] == 40 * KB
    # The largest note alone gets the run under: the smallest set is b.
    assert (result.removal, result.total_after_removal) == (("org/o_acme/b.md",), 40 * KB)


def test_a_note_the_task_embeds_too_stays_when_the_note_pulling_it_in_goes() -> None:
    files = by_path([note("a", 30 * KB, embed("b")), note("b", 40 * KB)])
    result = breakdown(f"{embed('a')}\n{embed('b')}\n", files)
    assert {n.path: n.frees for n in result.notes}["org/o_acme/a.md"] == 30 * KB


def test_a_note_moving_up_a_hop_pulls_in_more_and_the_count_says_so() -> None:
    # Without a, b is inlined at hop 1 by the Task, and its embed of d then counts (hop 2).
    files = by_path(
        [note("a", 30 * KB, embed("b")), note("b", 20 * KB, embed("d")), note("d", 25 * KB)]
    )
    result = breakdown(f"{embed('a')}\n{embed('b')}\n", files)
    assert result.total == 50 * KB  # d stays text at hop 3 inside b
    assert {n.path: n.frees for n in result.notes}["org/o_acme/a.md"] == 5 * KB


def test_removal_stops_at_the_first_run_of_largest_notes_under_budget() -> None:
    files = by_path([note(f"n{i}", (20 + i) * KB) for i in range(6)])
    task = "".join(embed(f"n{i}") for i in range(6))
    result = breakdown(task, files)
    assert result.total == sum(20 + i for i in range(6)) * KB  # 135 KB
    assert result.removal == ("org/o_acme/n5.md", "org/o_acme/n4.md", "org/o_acme/n3.md")
    assert result.total_after_removal == (20 + 21 + 22) * KB


def test_within_budget_nothing_is_suggested() -> None:
    files = by_path([note("a", 64 * KB)])
    result = breakdown(embed("a"), files)
    assert (result.over_budget, result.removal, result.total_after_removal) == (False, (), 64 * KB)


def test_an_empty_expansion_breaks_down_to_nothing() -> None:
    result = breakdown("no embeds", {})
    assert (result.notes, result.total, result.removal) == ((), 0, ())


def hidden(files: dict[str, OrgFile], removed: set[str]) -> dict[str, OrgFile]:
    return {p: f for p, f in files.items() if p not in removed}


@PROPERTIES
@given(task=soup, files=org_files(), budget=st.integers(0, 60))
def test_breakdown_agrees_with_expanding_again_without_the_notes(
    task: str, files: dict[str, OrgFile], budget: int
) -> None:
    expansion = expand(task, files, budget)
    result = budget_breakdown(expansion, org_id=ORG_ID, reader=READER, lookup=files)
    assert result.total == expansion.embedded_bytes
    assert sorted((n.path, n.bytes, n.hop) for n in result.notes) == sorted(
        (n.display_path, n.bytes, n.hop) for n in expansion.notes
    )
    assert [n.bytes for n in result.notes] == sorted((n.bytes for n in result.notes), reverse=True)
    for row in result.notes:  # what each removal frees, against the full Task expanded again
        again = expand(task, hidden(files, {row.path}), budget)
        assert row.frees == expansion.embedded_bytes - again.embedded_bytes
    order = [n.path for n in result.notes]
    assert list(result.removal) == order[: len(result.removal)]
    if expansion.over_budget:
        after = expand(task, hidden(files, set(result.removal)), budget).embedded_bytes
        assert after == result.total_after_removal
        if after <= budget:  # the shortest such run: one note fewer is still over
            shorter = set(result.removal[:-1])
            assert expand(task, hidden(files, shorter), budget).embedded_bytes > budget
    else:
        assert result.removal == ()
