"""The picker's notes in the compact form and behind their ETag, against the real server."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.client import TaskdeskClient
from app.client.compact_notes import compact_notes
from app.core.models import AccessEntry, EmbeddableNote
from app.server import start_server
from tests.client.conftest import ANN, MIA
from tests.faultproxy import FaultProxy
from tests.live_server import WORKSPACE_BASIC, LiveServer
from tests.spec_server import SpecServer, Variations

ORG = "org/o_acme"
SCOUT = "scout-secret"  # an agent of guild_ops

# Paths and titles at the edges of "the title is the file name": untitled, upper-case .MD,
# a title that is the stem, no .md at all, a bare ".md", an org-level, guild and agent note.
ODD_NOTES = {
    f"{ORG}/untitled.md": "",
    f"{ORG}/LOUD.MD": "",
    f"{ORG}/guilds/guild_ops/same.md": "same",
    f"{ORG}/guilds/guild_ops/plain-name": "",
    f"{ORG}/guilds/guild_ops/.md": "",
    f"{ORG}/agents/a_scout/own.md": "Scout's own",
    f"{ORG}/titled.md": "A title, not the name",
}


def _put_odd_notes(server: LiveServer) -> None:
    shared = [{"principal": "guild:guild_ops", "role": "read"}]
    for path, title in ODD_NOTES.items():
        access = [{"principal": "agent:a_scout", "role": "write"}] if "/agents/" in path else shared
        server.put_note(path, title=title, text="Some text.", access=access)


def _both_forms(server: LiveServer, token: str) -> tuple[list[EmbeddableNote], ...]:
    with TaskdeskClient(server.url, token) as plain, TaskdeskClient(server.url, token) as compact:
        compact.ask_compact_notes()
        return plain.embeddable_notes(), compact.embeddable_notes()


@pytest.mark.parametrize("token", [ANN, MIA, SCOUT], ids=["operator", "member", "agent"])
def test_the_compact_form_reads_as_the_same_rows_as_the_spec_form(
    server: LiveServer, token: str
) -> None:
    _put_odd_notes(server)
    plain, compact = _both_forms(server, token)
    assert compact == plain
    assert all(n.access is not None for n in compact)
    paths = {n.display_path for n in compact}
    assert (set(ODD_NOTES) <= paths) == (token != MIA)  # the member reads none of them


def test_the_odd_titles_come_out_as_in_the_spec_form(server: LiveServer) -> None:
    _put_odd_notes(server)
    _, compact = _both_forms(server, ANN)
    titles = {n.display_path: n.title for n in compact if n.display_path in ODD_NOTES}
    assert titles == {
        f"{ORG}/untitled.md": "untitled",
        f"{ORG}/LOUD.MD": "LOUD",
        f"{ORG}/guilds/guild_ops/same.md": "same",
        f"{ORG}/guilds/guild_ops/plain-name": "plain-name",
        f"{ORG}/guilds/guild_ops/.md": ".md",
        f"{ORG}/agents/a_scout/own.md": "Scout's own",
        f"{ORG}/titled.md": "A title, not the name",
    }
    levels = {n.display_path: n.level for n in compact if n.display_path in ODD_NOTES}
    assert levels[f"{ORG}/untitled.md"] == "org"
    assert levels[f"{ORG}/guilds/guild_ops/same.md"] == "guild"
    assert levels[f"{ORG}/agents/a_scout/own.md"] == "agent"


def test_an_unchanged_list_is_a_304_and_the_client_keeps_its_rows(
    server: LiveServer, proxy: FaultProxy
) -> None:
    with TaskdeskClient(proxy.url, ANN) as client:
        client.ask_compact_notes()
        first = client.embeddable_notes()
        second = client.embeddable_notes()
    asked = [e for e in proxy.exchanges if "/embeddable-notes" in e.path]
    assert [e.status for e in asked] == [200, 304]
    assert all(e.path.endswith("?form=compact") for e in asked)
    assert "if-none-match" not in asked[0].headers
    assert asked[1].body_bytes_sent == 0
    assert second == first
    assert all(a is b for a, b in zip(first, second, strict=True))  # the very rows kept
    assert second is not first  # a list of its own: the caller may change it


def test_a_note_added_or_changed_brings_the_new_list(server: LiveServer, proxy: FaultProxy) -> None:
    with TaskdeskClient(proxy.url, ANN) as client:
        client.ask_compact_notes()
        first = client.embeddable_notes()
        server.put_note(f"{ORG}/fresh.md", title="Fresh", text="New.")
        added = client.embeddable_notes()
        server.put_note(f"{ORG}/fresh.md", title="Fresher", text="New.")
        changed = client.embeddable_notes()
        unchanged = client.embeddable_notes()
    statuses = [e.status for e in proxy.exchanges if "/embeddable-notes" in e.path]
    assert statuses == [200, 200, 200, 304]
    etags = [e.headers.get("if-none-match") for e in proxy.exchanges][1:]
    assert len(set(etags)) == 3  # each answer's own ETag was sent back
    assert len(added) == len(first) + 1
    fresh = {n.display_path: n.title for n in changed}[f"{ORG}/fresh.md"]
    assert fresh == "Fresher" and unchanged == changed


def test_each_caller_and_form_has_its_own_etag(server: LiveServer, proxy: FaultProxy) -> None:
    """A member never revalidates against the operator's list, nor one form against the other."""
    with TaskdeskClient(proxy.url, ANN) as ann, TaskdeskClient(proxy.url, MIA) as mia:
        ann.embeddable_notes()
        ann.ask_compact_notes()
        ann.embeddable_notes()  # the spec form's ETag does not stand for the compact form
        mia.ask_compact_notes()
        assert len(mia.embeddable_notes()) < len(ann.embeddable_notes())
    statuses = [e.status for e in proxy.exchanges if "/embeddable-notes" in e.path]
    assert statuses == [200, 200, 200, 304]


def test_a_spec_only_reference_server_answers_the_spec_form(
    server: LiveServer, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    with (
        start_server(WORKSPACE_BASIC, db, extensions=False) as plain,
        TaskdeskClient(plain.url, ANN) as client,
    ):
        client.ask_compact_notes()  # a server that lacks the form ignores the question
        notes = client.embeddable_notes()
        again = client.embeddable_notes()  # no ETag: read whole again
    with TaskdeskClient(server.url, ANN) as full:
        expected = [
            EmbeddableNote(n.display_path, n.title, n.kind, n.level)
            for n in full.embeddable_notes()
        ]
    assert notes == again == expected  # the same rows, without access lists


def test_the_independent_spec_server_still_works() -> None:
    server = SpecServer(Variations()).start()
    try:
        with TaskdeskClient(server.url, "ann-secret") as client:
            client.ask_compact_notes()
            notes = client.embeddable_notes()
            assert client.embeddable_notes() == notes
        assert notes and all(n.access is None for n in notes)
        asked = server.seen("GET", "/api/org/embeddable-notes?form=compact")
        assert len(asked) == 2  # no ETag from this server: nothing to revalidate with
        assert all("if-none-match" not in {k.lower() for k in r.headers} for r in asked)
    finally:
        server.stop()


def test_odd_entries_are_skipped_with_their_reason() -> None:
    answer = {
        "form": "compact",
        "kinds": ["note", "collection", "record"],
        "folders": ["org/o/", 7],
        "access": [[["org", "read"]], "not a list", []],
        "entries": [
            [0, "fine.md", "", 0, 0],
            [0, "table", "Table", 1, 2, "a later field"],
            [0, "rec.md", "", 2, 0],
            [1, "bad-folder.md", "", 0, 0],
            [0, "bad-access.md", "", 0, 1],
            [0, "no-index.md", "", 0, 9],
            [0, "negative.md", "", 0, -1],
            [0, "flag.md", "", True, 0],
            "not a list",
            [0, "short.md"],
        ],
    }
    usable, skipped = compact_notes(answer)
    assert usable == [
        EmbeddableNote("org/o/fine.md", "fine", "note", "org", (AccessEntry("org", "read"),)),
        EmbeddableNote("org/o/table", "Table", "collection", "org", ()),
    ]
    assert len(skipped) == 8
    assert skipped[0].startswith("“org/o/rec.md”: kind record")
    assert skipped[-2:] == [
        "an entry: an entry is not a list of five",
        "“org/o/short.md”: an entry is not a list of five",
    ]


def test_the_app_asks_a_server_with_extensions_for_the_compact_form(
    proxy: FaultProxy, app_home: Path, tmp_path: Path
) -> None:
    from app.connect.connection import open_connection
    from app.store import LocalStore

    store = LocalStore(tmp_path / "store.sqlite3")
    connection = open_connection(proxy.url, ANN, store=store)
    try:
        first = connection.client.embeddable_notes()
        assert connection.client.embeddable_notes() == first
    finally:
        connection.close()
        store.close()
    asked = [e for e in proxy.exchanges if "/embeddable-notes" in e.path]
    assert [(e.path, e.status) for e in asked] == [
        ("/api/org/embeddable-notes?form=compact", 200),
        ("/api/org/embeddable-notes?form=compact", 304),
    ]


def test_the_app_asks_a_spec_only_server_for_the_spec_form(app_home: Path, tmp_path: Path) -> None:
    from app.connect.connection import open_connection
    from app.store import LocalStore

    server = SpecServer(Variations()).start()
    store = LocalStore(tmp_path / "store.sqlite3")
    try:
        connection = open_connection(server.url, "ann-secret", store=store)
        try:
            notes = connection.client.embeddable_notes()
        finally:
            connection.close()
        assert notes and not connection.features.me
        paths = [r.path for r in server.requests if "/embeddable-notes" in r.path]
        assert paths and all(p.endswith("/api/org/embeddable-notes") for p in paths)
    finally:
        store.close()
        server.stop()
