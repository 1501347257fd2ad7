"""No endpoint hands any caller the text or the path of a file that caller can't read.

Every operation the server's OpenAPI document lists is called by every person and agent of
the demo workspace, with every value its path parameters can take there (and a missing one),
and every answer (status, headers, body) is searched for the text of each note the caller
can't read and for each path the caller has no way to know. A new route fails this test until
it is given parameter values here, so no endpoint escapes it.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import requests

from app.core.expander import EMBED_RE, embed_path, task_display_path
from app.core.resource_files import resource
from app.core.workspace import Workspace, load_workspace
from tests.live_server import LiveServer, ServerFactory

BOTH_BACKENDS = True  # every test here runs on SQLite and on PostgreSQL (tests/live_server.py)

TIMEOUT = 15.0
EMBEDDABLE = "/api/org/embeddable-notes"
TASK = "/api/agents/{agent_id}/files/task.md"
FLEET_QUERIES = {
    "/api/org/search": ("?q=.&regex=1&in=prompt", "?q=rules&in=task"),
    "/api/org/audit": ("?limit=5000",),
    "/api/org/tasks": ("?agent=a_dispatch&agent=a_scout&agent=a_librarian",),
}
EVENTS = "/api/events"
PRESENCE = "/api/presence"
FRAGMENT_MIN = 12  # shorter lines ("- Be brief.") are too common to call anyone's secret


@dataclass
class Caller:
    id: str
    type: str  # operator, member, agent
    guild_id: str | None = None
    token: str = field(default="", repr=False)

    def principals(self) -> set[str]:
        if self.type == "agent":
            return {f"agent:{self.id}", f"guild:{self.guild_id}", "org"}
        return {f"user:{self.id}", "org"}


def can_read(caller: Caller, access: tuple[Any, ...]) -> bool:
    """The access rule, written here from the spec, not taken from the server."""
    if caller.type == "operator":
        return True
    return any(e.role in ("read", "write") and e.principal in caller.principals() for e in access)


@dataclass
class Secrets:
    """What one caller must never be shown, worked out from the workspace alone."""

    fragments: set[str]
    paths: set[str]


def _task_texts(workspace: Workspace) -> list[str]:
    return [t for a in workspace.agents for t in (a.task, *(s.task for s in a.saves))]


def secrets_of(caller: Caller, workspace: Workspace) -> Secrets:
    files = workspace.files.values()
    readable = [f for f in files if can_read(caller, f.access)]
    hidden = [f for f in files if not can_read(caller, f.access)]
    # Everything the caller may read: every Task (any caller of the org reads Tasks), and
    # the notes their access lists give them. Whatever stands in those is not a secret.
    known_text = "\n".join([*_task_texts(workspace), *(f.text or "" for f in readable)])
    fragments = {
        line.strip()
        for f in hidden
        for line in (f.text or "").splitlines()
        if len(line.strip()) >= FRAGMENT_MIN and line.strip() not in known_text
    }
    fragments |= {f.title for f in hidden if len(f.title) >= FRAGMENT_MIN}
    fragments = {f for f in fragments if f not in known_text}
    mentioned = {embed_path(m.group(1)) for f in files for m in EMBED_RE.finditer(f.text or "")}
    candidates = {f.display_path for f in files} | mentioned
    known_paths = {f.display_path for f in readable}
    paths = {p for p in candidates if p not in known_paths and p not in known_text}
    return Secrets(fragments, paths)


@dataclass(frozen=True)
class Call:
    method: str
    template: str
    path: str
    body: dict[str, Any] | None = None


def _callers(workspace: Workspace, server: LiveServer) -> list[Caller]:
    people = [Caller(p.id, p.type, token=server.token(p.id)) for p in workspace.people]
    agents = [
        Caller(a.id, "agent", a.guild_id, server.token(a.id)) for a in workspace.agents if a.token
    ]
    # Operators last: their deletes change what is there to read.
    return sorted(people + agents, key=lambda c: c.type == "operator")


def _values(
    workspace: Workspace,
    runs: list[str],
    proposals: list[str] | None = None,
    change_sets: list[str] | None = None,
) -> dict[str, list[str]]:
    org = workspace.org_id
    return {
        "proposal_id": [*(proposals or []), "prop_missing"],
        "agent_id": [a.id for a in workspace.agents] + ["a_missing"],
        "guild_id": [g.id for g in workspace.guilds] + ["guild_missing"],
        "run_id": [*runs, "run_missing"],
        "version": ["1", "2", "3", "999"],  # kept revisions of the Tasks with saves, a missing one
        "change_set_id": [*(change_sets or []), "cs_missing"],
        "display_path": [
            *workspace.files,
            *(task_display_path(org, a.id) for a in workspace.agents),
            f"org/{org}/missing.md",
        ],
    }


def _calls(operations: list[tuple[str, str]], values: dict[str, list[str]]) -> Iterator[Call]:
    for method, template in operations:
        names = re.findall(r"{(\w+)(?::path)?}", template)
        if template == EVENTS:  # the whole log as this caller's stream tells it, then closed
            yield Call(method, template, template + "?once=1&last_event_id=0")
            continue
        if template == PRESENCE:  # each caller opens every Task: the streams tell who is there
            for agent_id in values["agent_id"]:
                yield Call(method, template, template, {"agent_id": agent_id, "editing": True})
            continue
        if not names:
            body = NEW_NOTE if (method, template) == ("POST", "/api/notes") else None
            yield Call(method, template, template, body)
            if template == EMBEDDABLE:  # the same list in its compact form (EXTENSION)
                yield Call(method, template, template + "?form=compact")
            for query in FLEET_QUERIES.get(template, ()):  # every line of every prompt
                yield Call(method, template, template + query)
            continue
        for name in names:
            assert name in values, f"{method} {template}: give this test values for {{{name}}}"
        for chosen in itertools.product(*(values[name] for name in names)):
            path = template
            for value in chosen:
                path = re.sub(r"{\w+(?::path)?}", value.replace("\\", "\\\\"), path, count=1)
            body = {"content": ""} if method == "PUT" else None
            if template.endswith("/impact"):  # what an edit would do: the note emptied
                body = {"text": ""}
            yield Call(method, template, path, body)
            if template == TASK:  # the Task without its revisions' text (EXTENSION)
                yield Call(method, template, path + "?revisions=summary", body)


NEW_NOTE = {"display_path": "org/o_acme/made-here.md", "title": "Made", "text": "", "access": []}
"""POST /api/notes's body: a note only operators can read (their first call makes it)."""


def _same(live: dict[str, Any]) -> dict[str, Any]:
    """A PUT of what a GET gave: a Task's content, or a note's text at its version."""
    if "content" in live:
        return live
    return {"text": live.get("text"), "expected_version": live.get("version")}


def _operations(server: LiveServer) -> list[tuple[str, str]]:
    """Every operation the running server documents, deletes last."""
    spec = requests.get(server.url + "/openapi.json", timeout=TIMEOUT).json()
    operations = [
        (method.upper(), template)
        for template, item in spec["paths"].items()
        for method in item
        if method in ("get", "put", "post", "delete", "patch")
    ]
    return sorted(operations, key=lambda op: op[0] == "DELETE")


def _search(answer: requests.Response, secrets: Secrets) -> list[str]:
    seen = f"{answer.status_code}\n{json.dumps(dict(answer.headers))}\n{answer.text}"
    # JSON escapes quotes and slashes in strings; look in the decoded text too.
    with contextlib.suppress(ValueError):
        decoded = answer.json()
        seen += "\n" + json.dumps(decoded, ensure_ascii=False)
        seen += "\n" + "\n".join(_compact_paths(decoded))
    leaks = [f"text {f!r}" for f in secrets.fragments if f in seen]
    leaks += [f"path {p!r}" for p in secrets.paths if p in seen]
    return leaks


def _compact_paths(decoded: object) -> list[str]:
    """The display paths of a compact answer, which sends each as a folder and a name."""
    if not isinstance(decoded, dict) or decoded.get("form") != "compact":
        return []
    folders = decoded["folders"]
    return [folders[entry[0]] + entry[1] for entry in decoded["entries"]]


def _compact_rows(decoded: dict[str, Any]) -> list[tuple[str, str, str, list[list[str]]]]:
    """(path, title, kind, access pairs) of each entry of a compact answer, read here from
    docs/API-EXTENSIONS.md, not with the client's reader."""
    rows = []
    for folder, name, title, kind, access in (e[:5] for e in decoded["entries"]):
        path = decoded["folders"][folder] + name
        rows.append((path, title, decoded["kinds"][kind], decoded["access"][access]))
    return rows


@pytest.fixture
def demo(server_factory: ServerFactory) -> tuple[LiveServer, Workspace]:
    path = resource("demo_workspace.json")
    workspace = load_workspace(str(path))
    return server_factory(path, test_hooks=False), workspace


def test_no_endpoint_shows_any_caller_a_file_they_cannot_read(
    demo: tuple[LiveServer, Workspace],
) -> None:
    server, workspace = demo
    callers = _callers(workspace, server)
    operations = _operations(server)
    ann = next(c for c in callers if c.type == "operator")
    runs = []
    for agent in workspace.agents:  # runs someone else started, for GET /api/runs/…
        made = requests.post(
            f"{server.url}/api/agents/{agent.id}/runs",
            headers={"Authorization": f"Bearer {ann.token}"},
            timeout=TIMEOUT,
        )
        assert made.status_code in (201, 422), made.text  # 422: a demo agent over budget
        if made.status_code == 201:
            runs.append(made.json()["id"])
    proposals = []
    for who in ("u_dana", "u_ann"):  # a member's and an operator's, for /api/proposals/…
        token = server.token(who)
        for agent in workspace.agents[:2]:
            live = requests.get(
                f"{server.url}/api/agents/{agent.id}/files/task.md",
                headers={"Authorization": f"Bearer {token}"},
                timeout=TIMEOUT,
            ).json()
            draft = {"content": live["content"] + "\n+", "base_version": live["version"]}
            made = requests.post(
                f"{server.url}/api/agents/{agent.id}/proposals",
                headers={"Authorization": f"Bearer {token}"},
                json={**draft, "title": f"From {who}"},
                timeout=TIMEOUT,
            )
            assert made.status_code == 201, made.text
            proposals.append(made.json()["id"])
    live = requests.get(  # a change set someone made, for GET and revert /api/org/change-sets/…
        f"{server.url}/api/agents/a_dispatch/files/task.md",
        headers={"Authorization": f"Bearer {ann.token}"},
        timeout=TIMEOUT,
    ).json()
    change = {"agent_id": "a_dispatch", "expected_version": live["version"]}
    made = requests.post(
        f"{server.url}/api/org/change-sets",
        json={"title": "Checked", "changes": [{**change, "content": live["content"] + "\nOk.\n"}]},
        headers={"Authorization": f"Bearer {ann.token}"},
        timeout=TIMEOUT,
    )
    assert made.status_code == 201, made.text
    change_sets = [made.json()["id"]]
    leaks: list[str] = []
    called: set[tuple[str, str]] = set()
    statuses: set[int] = set()
    for caller in callers:
        secrets = secrets_of(caller, workspace)
        own_runs: list[str] = []
        with requests.Session() as session:
            session.headers["Authorization"] = f"Bearer {caller.token}"
            values = _values(workspace, runs + own_runs, proposals, change_sets)
            for call in _calls(operations, values):
                if call.method == "PUT" and call.body is not None:
                    live = session.get(server.url + call.path, timeout=TIMEOUT)
                    if live.ok:  # the same text again: a save that changes nothing
                        call = Call(call.method, call.template, call.path, _same(live.json()))
                answer = session.request(
                    call.method, server.url + call.path, json=call.body, timeout=TIMEOUT
                )
                called.add((call.method, call.template))
                statuses.add(answer.status_code)
                if call.template.endswith("/runs") and answer.status_code == 201:
                    own_runs.append(answer.json()["id"])
                leaks += [f"{caller.id} {call.method} {call.path}: {leak}" for leak in
                          _search(answer, secrets)]  # fmt: skip
            for run_id in own_runs:  # their own runs, read back
                answer = session.get(f"{server.url}/api/runs/{run_id}", timeout=TIMEOUT)
                leaks += [f"{caller.id} GET own run: {leak}" for leak in _search(answer, secrets)]
    assert called == set(operations)
    assert {200, 201, 404, 422} <= statuses  # the calls reached the routes, not just auth
    assert not leaks, "\n".join(sorted(leaks)[:40])


def test_the_secrets_are_real(demo: tuple[LiveServer, Workspace]) -> None:
    """The search above can find something: Dana has secrets, and an operator has none."""
    _, workspace = demo
    dana = Caller("u_dana", "member")
    secrets = secrets_of(dana, workspace)
    assert any("Triage rules" in f for f in secrets.fragments)
    assert "org/o_acme/guilds/guild_ops/severity-levels.md" in secrets.paths  # inside triage
    assert secrets_of(Caller("u_ann", "operator"), workspace) == Secrets(set(), set())


def test_a_member_gets_the_run_with_unreadable_notes_withheld(
    demo: tuple[LiveServer, Workspace],
) -> None:
    server, _ = demo
    dana = {"Authorization": f"Bearer {server.token('u_dana')}"}
    ann = {"Authorization": f"Bearer {server.token('u_ann')}"}
    made = requests.post(f"{server.url}/api/agents/a_dispatch/runs", headers=dana, timeout=TIMEOUT)
    assert made.status_code == 201
    prompt = made.json()["system_prompt"]
    triage = "org/o_acme/guilds/guild_ops/triage-rules.md"
    assert f'<withheld path="{triage}" />' in prompt
    assert "# Triage rules" not in prompt
    paths = [n["display_path"] for n in made.json()["task_source"]["notes"]]
    assert triage not in paths
    # The operator sees the same run whole; so does the run's own agent.
    run_id = made.json()["id"]
    whole = requests.get(f"{server.url}/api/runs/{run_id}", headers=ann, timeout=TIMEOUT).json()
    assert "# Triage rules" in whole["system_prompt"]
    agent = {"Authorization": f"Bearer {server.token('a_dispatch')}"}
    own = requests.get(f"{server.url}/api/runs/{run_id}", headers=agent, timeout=TIMEOUT).json()
    assert own["system_prompt"] == whole["system_prompt"]
    assert triage in [n["display_path"] for n in whole["task_source"]["notes"]]


def test_the_runs_list_names_only_what_each_caller_may_read(
    demo: tuple[LiveServer, Workspace],
) -> None:
    """Every kind of caller lists a run: operators and the run's own agent see its every
    note; a member and another agent see only the notes their access lists give them."""
    server, workspace = demo
    ann = {"Authorization": f"Bearer {server.token('u_ann')}"}
    made = requests.post(f"{server.url}/api/agents/a_dispatch/runs", headers=ann, timeout=TIMEOUT)
    assert made.status_code == 201
    whole = [n["display_path"] for n in made.json()["task_source"]["notes"]]
    triage = "org/o_acme/guilds/guild_ops/triage-rules.md"
    assert triage in whole
    files = workspace.files
    for who, kind, guild in [
        ("u_bob", "operator", None),
        ("a_dispatch", "agent", "guild_ops"),
        ("u_dana", "member", None),
        ("a_scout", "agent", "guild_research"),
        ("a_helper", "agent", "guild_support"),
    ]:
        caller = Caller(who, kind, guild)
        headers = {"Authorization": f"Bearer {server.token(who)}"}
        listed = requests.get(
            f"{server.url}/api/agents/a_dispatch/runs", headers=headers, timeout=TIMEOUT
        )
        assert listed.status_code == 200, (who, listed.text)
        (entry,) = listed.json()["runs"]
        assert "system_prompt" not in entry
        paths = [n["display_path"] for n in entry["task_source"]["notes"]]
        if kind == "operator" or who == "a_dispatch":
            assert paths == whole, who
        else:
            # A note shows only when it and every note it was inlined from are readable.
            assert set(paths) <= {p for p in whole if can_read(caller, files[p].access)}, who
            assert triage not in paths, who
        one = requests.get(f"{server.url}/api/runs/{entry['id']}", headers=headers, timeout=TIMEOUT)
        assert paths == [n["display_path"] for n in one.json()["task_source"]["notes"]], who


def test_both_forms_of_the_picker_list_give_each_caller_the_same_notes(
    demo: tuple[LiveServer, Workspace],
) -> None:
    """Operators, members and agents: the compact form lists exactly what the spec form
    lists, with the same access lists, and that is what the access rule gives them."""
    server, workspace = demo
    callers = _callers(workspace, server)
    assert {c.type for c in callers} == {"operator", "member", "agent"}
    for caller in callers:
        auth = {"Authorization": f"Bearer {caller.token}"}
        spec = requests.get(server.url + EMBEDDABLE, headers=auth, timeout=TIMEOUT).json()
        compact = requests.get(
            server.url + EMBEDDABLE + "?form=compact", headers=auth, timeout=TIMEOUT
        ).json()
        rows = _compact_rows(compact)
        assert [r[0] for r in rows] == [n["display_path"] for n in spec["notes"]], caller.id
        assert [r[2] for r in rows] == [n["kind"] for n in spec["notes"]], caller.id
        assert [[{"principal": p, "role": r} for p, r in row[3]] for row in rows] == [
            n["access"] for n in spec["notes"]
        ], caller.id
        expected = {
            f.display_path
            for f in workspace.files.values()
            if f.kind in ("note", "collection") and can_read(caller, f.access)
        }
        assert {r[0] for r in rows} == expected, caller.id
