"""The used-by index equals a brute-force expansion of every agent, after any changes.

A real server on a random org: random Task saves, note creations, saves and deletes go in
over HTTP, then every path's used-by is compared with what this test works out itself by
expanding every agent's live Task with the expander (hop 1 from the Task's own embeds, hop 2
from the embeds of the notes the run inlines at hop 1, ``reaches`` from the access rule).
The audit's ``agent_ids`` of each note change is checked the same way, before against after.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import requests
from hypothesis import example, given, settings
from hypothesis import strategies as st

from app.core.expander import EMBED_RE, embed_path, expand_embeds, is_display_path
from app.core.models import AccessEntry, OrgFile, Reader
from tests.live_server import LiveServer, ServerFactory
from tests.org_strategies import access_entry
from tests.references.strategies import DISPLAY_PATHS, ORG_ID, PROPERTIES, soup

BOTH_BACKENDS = True  # the index's upkeep is SQL both databases run
TIMEOUT = 15.0
AGENTS = {"a_scout": "guild_ops", "a_other": "guild_research", "a_third": "guild_ops"}
NOTE_PATHS = [p for p in DISPLAY_PATHS if p.endswith(".md") and "memory.md" not in p]
WORKSPACE: dict[str, Any] = {
    "org": {"id": ORG_ID, "name": "Acme"},
    "guilds": [{"id": "guild_ops", "name": "Ops"}, {"id": "guild_research", "name": "Research"}],
    "people": [{"id": "u_ann", "name": "Ann", "type": "operator", "token": "ann-secret"}],
    "agents": [
        {"id": a, "name": a[2:].title(), "guild": g, "task": "", "token": f"{a}-secret"}
        for a, g in AGENTS.items()
    ],
    "collections": [
        {
            "path": "org/o_acme/customers",
            "name": "Customers",
            "access": [{"principal": "guild:guild_ops", "role": "read"}],
        }
    ],
    "files": [{"path": "org/o_acme/agents/a_scout/memory.md", "kind": "memory"}],
}

# Soup with embeds of the notes the changes make, so runs meet them at hop 1 and 2.
embeds = st.lists(st.sampled_from([f"![[{p}]]" for p in [*NOTE_PATHS, "org/o_acme/customers"]]))
text = st.tuples(soup, embeds, soup).map(lambda t: t[0] + "".join(t[1]) + t[2])
task_save = st.tuples(st.just("task"), st.sampled_from(sorted(AGENTS)), text)
note_put = st.tuples(
    st.just("note"),
    st.sampled_from(NOTE_PATHS),
    text,
    st.lists(access_entry.filter(lambda e: e.role != "comment"), max_size=3),
)
note_delete = st.tuples(st.just("delete"), st.sampled_from(NOTE_PATHS))
changes = st.tuples(
    st.lists(note_put, max_size=4),
    st.lists(st.one_of(task_save, note_put, note_delete), max_size=6),
).map(lambda t: t[0] + t[1])


def _org(session: requests.Session, url: str) -> tuple[dict[str, str], dict[str, OrgFile]]:
    tasks = {
        a: session.get(f"{url}/api/agents/{a}/files/task.md", timeout=TIMEOUT).json()["content"]
        for a in AGENTS
    }
    files: dict[str, OrgFile] = {}
    for path in DISPLAY_PATHS:
        got = session.get(f"{url}/api/notes/{path}", timeout=TIMEOUT)
        if got.status_code == 200:
            b = got.json()
            access = tuple(AccessEntry(e["principal"], e["role"]) for e in b["access"])
            files[path] = OrgFile(path, b["kind"], b["title"], b.get("text"), b["version"], access)
    return tasks, files


def _reaches(path: str, files: dict[str, OrgFile], reader: Reader) -> bool:
    found = files.get(path) if is_display_path(path, ORG_ID) else None
    if found is None or found.kind == "file":
        return False
    return any(
        e.role in ("read", "write") and e.principal in reader.principals() for e in found.access
    )


def brute_force(
    tasks: dict[str, str], files: dict[str, OrgFile]
) -> tuple[set[tuple[str, str, int, str, bool]], dict[str, str]]:
    """(path, agent, hop, via, reaches) of every embed every run meets; each expanded Task."""
    rows: set[tuple[str, str, int, str, bool]] = set()
    expanded: dict[str, str] = {}
    for agent, guild in AGENTS.items():
        reader = Reader(agent, guild)
        task_path = f"org/{ORG_ID}/agents/{agent}/task.md"
        expansion = expand_embeds(
            tasks[agent], org_id=ORG_ID, reader=reader, lookup=files, task_path=task_path
        )
        expanded[agent] = expansion.text
        holders = [(tasks[agent], 1, task_path)]
        holders += [(n.text, 2, n.display_path) for n in expansion.notes if n.hop == 1]
        for text, hop, via in holders:
            for match in EMBED_RE.finditer(text.rstrip("\r\n")):
                path = embed_path(match.group(1))
                rows.add((path, agent, hop, via, _reaches(path, files, reader)))
    return rows, expanded


def _apply(session: requests.Session, url: str, change: tuple[Any, ...]) -> None:
    if change[0] == "task":
        _, agent, text = change
        answer = session.put(
            f"{url}/api/agents/{agent}/files/task.md", json={"content": text}, timeout=TIMEOUT
        )
        assert answer.status_code == 200, answer.text
        return
    path = change[1]
    live = session.get(f"{url}/api/notes/{path}", timeout=TIMEOUT)
    if change[0] == "delete":
        if live.status_code == 200:
            answer = session.delete(f"{url}/api/notes/{path}", timeout=TIMEOUT)
            assert answer.status_code in (204, 409), answer.text
        return
    _, _, text, access = change
    entries = [{"principal": e.principal, "role": e.role} for e in access]
    if live.status_code == 404:
        body = {"display_path": path, "title": "T", "text": text, "access": entries}
        answer = session.post(f"{url}/api/notes", json=body, timeout=TIMEOUT)
        assert answer.status_code == 201, answer.text
    else:
        body = {"text": text, "expected_version": live.json()["version"], "title": "T2"}
        answer = session.put(f"{url}/api/notes/{path}", json=body, timeout=TIMEOUT)
        assert answer.status_code == 200, answer.text


def _used_by(
    session: requests.Session, url: str, path: str
) -> set[tuple[str, str, int, str, bool]]:
    answer = session.get(f"{url}/api/notes/{path}/used-by", timeout=TIMEOUT)
    if answer.status_code == 404:
        return set()
    body = answer.json()
    agents = body["agents"]
    keys = [(a["id"], a["hop"], a["via"]) for a in agents]
    assert keys == sorted(keys)  # by agent id, then hop
    return {(path, a["id"], a["hop"], a["via"], a["reaches"]) for a in agents}


def _reset(session: requests.Session, url: str) -> None:
    """Each example starts from empty Tasks and no notes (so a failure shrinks)."""
    for agent in AGENTS:
        answer = session.put(
            f"{url}/api/agents/{agent}/files/task.md", json={"content": ""}, timeout=TIMEOUT
        )
        assert answer.status_code == 200, answer.text
    for path in NOTE_PATHS:
        answer = session.delete(f"{url}/api/notes/{path}", timeout=TIMEOUT)
        assert answer.status_code in (204, 404), answer.text


def _check_impact(
    session: requests.Session,
    url: str,
    tasks: dict[str, str],
    files: dict[str, OrgFile],
    note: OrgFile,
) -> None:
    """Impact of two edits (prose only; a new embed) equals the expander on the edited text."""
    for text in ((note.text or "") + " more", (note.text or "") + "![[org/o_acme/a.md]]"):
        answer = session.post(f"{url}/api/notes/{note.display_path}/impact", json={"text": text},
                              timeout=TIMEOUT)  # fmt: skip
        assert answer.status_code == 200, answer.text
        edited = {**files, note.display_path: replace(note, text=text)}
        for row in answer.json()["agents"]:
            reader = Reader(row["id"], AGENTS[row["id"]])
            task_path = f"org/{ORG_ID}/agents/{row['id']}/task.md"
            before, after = (
                expand_embeds(
                    tasks[row["id"]], org_id=ORG_ID, reader=reader, lookup=org, task_path=task_path
                )
                for org in (files, edited)
            )
            assert row["embedded_bytes_before"] == before.embedded_bytes
            assert row["embedded_bytes_after"] == after.embedded_bytes
            assert row["broken_before"] == [b.to_json() for b in before.broken]
            assert row["broken_after"] == [b.to_json() for b in after.broken]
            assert row["prompt_changes"] is (before.text != after.text)


def _newest_event(server: LiveServer) -> tuple[list[str], dict[str, Any], int]:
    """The org log's newest row (agent ids, data, id), read from the server's own database."""
    row = server.query("SELECT agent_ids, data, id FROM org_events ORDER BY id DESC LIMIT 1")[0]
    return sorted(json.loads(row[0])), json.loads(row[1]), int(row[2])


HOP_2_ORG = [
    ("note", "org/o_acme/guilds/guild_ops/b.md", "Rules.", [AccessEntry("org", "read")]),
    (
        "note",
        "org/o_acme/guilds/guild_research/d.md",
        "Research only.",
        [AccessEntry("guild:guild_research", "read")],
    ),
    (
        "note",
        "org/o_acme/a.md",
        "![[org/o_acme/guilds/guild_ops/b.md]] ![[org/o_acme/guilds/guild_research/d.md]]",
        [AccessEntry("org", "read")],
    ),
    ("task", "a_scout", "![[org/o_acme/a.md]] ![[org/o_acme/gone.md]]"),
]
"""A Task embedding a note that embeds one note its agent reads and one it can't: hop 1 and
2, each reached and given the marker (a note that exists, so its used-by lists the row)."""


def test_used_by_equals_a_brute_force_expansion_of_every_agent(
    server_factory: ServerFactory,
) -> None:
    server = server_factory(WORKSPACE)
    with requests.Session() as session:
        session.headers["Authorization"] = "Bearer ann-secret"

        seen: set[tuple[int, bool]] = set()  # (hop, reaches) of the rows compared

        @settings(PROPERTIES, max_examples=25, derandomize=True)  # the same orgs on every run
        @given(changes)
        @example(HOP_2_ORG)  # every kind of row, whatever the generated orgs hold
        def check(steps: list[tuple[Any, ...]]) -> None:
            _reset(session, server.url)
            for change in steps:
                tasks, files = _org(session, server.url)
                before = brute_force(tasks, files)[1]
                logged = _newest_event(server)
                _apply(session, server.url, change)
                tasks, files = _org(session, server.url)
                rows, after = brute_force(tasks, files)
                newest = _newest_event(server)
                # A refused delete (409) logs nothing: only a new row is this change's.
                if change[0] != "task" and newest[2] != logged[2]:
                    assert newest[1].get("display_path") == change[1]
                    assert newest[0] == sorted(a for a in AGENTS if before[a] != after[a])
            tasks, files = _org(session, server.url)
            rows, _ = brute_force(tasks, files)
            assert steps or not rows
            served = set().union(*(_used_by(session, server.url, p) for p in files))
            expected = {r for r in rows if r[0] in files}
            assert served == expected
            seen.update((r[2], r[4]) for r in served)
            for _path, found in files.items():
                if found.kind == "note":
                    _check_impact(session, server.url, tasks, files, found)

        check()
    # The random orgs held every kind of row: hop 1 and 2, reached and given the marker.
    assert seen == {(1, True), (1, False), (2, True), (2, False)}
