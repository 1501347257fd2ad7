"""The notes search: every word must match, best matches first, readable notes first, at a
size where the narrowing and ranking shortcuts are taken (thousands of notes)."""

from __future__ import annotations

from app.core.models import AccessEntry, EmbeddableNote, Reader
from widgets.editor.note_search import RANK_ALL_UP_TO, NoteIndex

ORG = (AccessEntry("org", "read"),)
OPS = (AccessEntry("guild:g_ops", "read"),)
RESEARCH = (AccessEntry("guild:g_research", "write"),)
SCOUT = Reader("a_scout", "g_ops")


def _big_org(count: int = 3_000) -> list[EmbeddableNote]:
    """``count`` notes, a third each readable by the org, by Operations, by Research; and
    some collections."""
    notes = []
    for n in range(count):
        access = (ORG, OPS, RESEARCH)[n % 3]
        guild = ("all", "g_ops", "g_research")[n % 3]
        notes.append(
            EmbeddableNote(
                f"org/o/guilds/{guild}/page-{n:05d}.md",
                f"Page {n} about rules",
                "note",
                "guild",
                access,
            )
        )
    notes += [
        EmbeddableNote(f"org/o/table-{c}", f"Table {c}", "collection", "org") for c in range(50)
    ]
    return notes


def _paths(index: NoteIndex, rows: list[int]) -> list[str]:
    return [index.notes[r].display_path for r in rows]


def test_every_word_must_match_in_any_order_at_thousands_of_notes() -> None:
    notes = _big_org()
    index = NoteIndex(notes)
    found = index.find("rules g_research 12", "note")
    expected = {
        n.display_path
        for n in notes
        if n.kind == "note"
        and all(
            w in f"{n.title}\n{n.display_path}".casefold() for w in ("rules", "g_research", "12")
        )
    }
    assert set(_paths(index, found.rows)) == expected
    assert len(found) == len(expected) > 10
    # Typed a key at a time (each search narrows the last), then back again: the same rows.
    for end in range(1, len("12 g_research rules") + 1):
        index.find("12 g_research rules"[:end], "note")
    assert set(_paths(index, index.find("12 g_research rules", "note").rows)) == expected
    assert len(index.find("12 g_res", "note")) >= len(expected)
    assert set(_paths(index, index.find("rules g_research 12", "note").rows)) == expected


def test_kind_filter_keeps_notes_and_tables_apart() -> None:
    index = NoteIndex(_big_org())
    tables = index.find("", "collection").rows
    assert len(tables) == 50
    assert all(index.notes[r].kind == "collection" for r in tables)
    assert index.find("table", "note").rows == []
    assert len(index.find("page", None)) == 3_000


def test_an_exact_title_comes_before_a_scattered_match() -> None:
    notes = [
        *_big_org(2_000),
        EmbeddableNote("org/o/release/notes-old.md", "Checklist 7", "note", "org"),  # scattered
        EmbeddableNote("org/o/a.md", "Notes on the release plan", "note", "org"),  # every word
        EmbeddableNote("org/o/b.md", "Release notes 2024", "note", "org"),  # starts with it
        EmbeddableNote("org/o/c.md", "Release notes", "note", "org"),  # the same
        EmbeddableNote("org/o/d.md", "Release notesy", "note", "org"),  # starts, mid-word
    ]
    index = NoteIndex(notes)
    assert _paths(index, index.find("release notes", "note").rows) == [
        "org/o/c.md",
        "org/o/b.md",
        "org/o/d.md",
        "org/o/a.md",
        "org/o/release/notes-old.md",
    ]


def test_a_short_search_lifts_the_titles_starting_with_it() -> None:
    notes = [*_big_org(), EmbeddableNote("org/o/z.md", "Ru", "note", "org", ORG)]
    index = NoteIndex(notes)
    found = index.find("ru", "note")
    assert len(found) > RANK_ALL_UP_TO  # every "rules" title: the broad case
    assert _paths(index, found.rows[:1]) == ["org/o/z.md"]


def test_readable_notes_first_then_the_ones_the_reader_cant_read() -> None:
    index = NoteIndex(_big_org())
    for text in ("", "page", "page 1", "pa"):
        found = index.find(text, "note", SCOUT)
        readable = [index.notes[r].readable_by(SCOUT) for r in found.rows]
        assert readable == sorted(readable, reverse=True), text  # True before False
        assert all(not index.notes[r].readable_by(SCOUT) for r in found.unreadable)
    assert len(index.find("", "note", SCOUT).unreadable) == 1_000
    # The same notes, no reader: nothing put last.
    assert index.find("", "note").unreadable == []


def test_a_server_without_access_lists_marks_nothing() -> None:
    notes = [EmbeddableNote(f"org/o/n{n}.md", f"N {n}", "note", "org") for n in range(10)]
    index = NoteIndex(notes)
    assert not index.shares_access
    assert index.find("n", "note", SCOUT).unreadable == []
