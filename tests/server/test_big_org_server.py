"""What keeps the server quick for a big org: one embed-status answer for the whole org, the
picker's list kept per caller behind an ETag, and restarts that don't parse the workspace again."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import requests

from app.core.workspace import WorkspaceError
from app.server import start_server
from app.server.app_factory import WORKSPACE_DIGEST, _file_digest, _seeded_from
from tests.live_server import WORKSPACE_BASIC, LiveServer
from tests.server.http_calls import ORG, TIMEOUT, call


def test_org_embed_status_is_every_guilds_answer_in_one(live_server: LiveServer) -> None:
    guilds = [g["id"] for g in call(live_server, "GET", "/api/org/guilds").json()["guilds"]]
    per_guild = {
        a["id"]: a["broken_embeds"]
        for gid in guilds
        for a in call(live_server, "GET", f"/api/guilds/{gid}/embed-status").json()["agents"]
    }
    whole = call(live_server, "GET", "/api/org/embed-status").json()["agents"]
    assert {a["id"]: a["broken_embeds"] for a in whole} == per_guild
    assert any(per_guild.values())  # the basic workspace has marks to compare


def test_org_embed_status_gives_operators_the_embedded_size(live_server: LiveServer) -> None:
    # Extension: the sidebar's over-budget mark reads it from the one org-wide answer too.
    whole = call(live_server, "GET", "/api/org/embed-status").json()["agents"]
    assert whole and all(isinstance(a["embedded_bytes"], int) for a in whole)
    member = call(live_server, "GET", "/api/org/embed-status", "mia").json()["agents"]
    assert member and all("embedded_bytes" not in a for a in member)


def test_the_kept_picker_list_carries_access_lists(live_server: LiveServer) -> None:
    first = call(live_server, "GET", "/api/org/embeddable-notes").json()["notes"]
    kept = call(live_server, "GET", "/api/org/embeddable-notes").json()["notes"]
    assert kept == first
    assert all(isinstance(n["access"], list) for n in kept)
    assert any(n["access"] for n in kept)


def test_a_spec_only_server_leaves_the_access_lists_out(tmp_path: Path) -> None:
    with start_server(WORKSPACE_BASIC, tmp_path / "db.sqlite3", extensions=False) as plain:
        response = requests.get(
            plain.url + "/api/org/embeddable-notes",
            headers={"Authorization": "Bearer ann-secret"},
            timeout=TIMEOUT,
        )
    notes = response.json()["notes"]
    assert notes and all("access" not in n for n in notes)


def test_org_embed_status_is_an_extension(tmp_path: Path) -> None:
    with start_server(WORKSPACE_BASIC, tmp_path / "db.sqlite3", extensions=False) as plain:
        response = requests.get(
            plain.url + "/api/org/embed-status",
            headers={"Authorization": "Bearer ann-secret"},
            timeout=TIMEOUT,
        )
    assert response.status_code == 404


def test_embeddable_notes_carry_an_etag_that_changes_with_the_notes(
    live_server: LiveServer,
) -> None:
    first = call(live_server, "GET", "/api/org/embeddable-notes")
    etag = first.headers["ETag"]
    again = call(live_server, "GET", "/api/org/embeddable-notes", headers={"If-None-Match": etag})
    assert again.status_code == 304
    # Another caller reads other notes: never the operator's cached answer.
    scout = call(live_server, "GET", "/api/org/embeddable-notes", "scout")
    assert scout.headers["ETag"] != etag
    assert len(scout.json()["notes"]) < len(first.json()["notes"])
    live_server.put_note(f"{ORG}/new-note.md", title="New note", text="Hello.")
    changed = call(live_server, "GET", "/api/org/embeddable-notes", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert f"{ORG}/new-note.md" in {n["display_path"] for n in changed.json()["notes"]}
    assert changed.headers["ETag"] != etag


def test_a_restart_on_the_same_file_skips_parsing_and_a_changed_file_is_checked(
    tmp_path: Path,
) -> None:
    workspace = tmp_path / "ws.json"
    shutil.copy(WORKSPACE_BASIC, workspace)
    db = tmp_path / "db.sqlite3"
    start_server(workspace, db).stop()
    digest = _file_digest(workspace)
    assert digest is not None and _seeded_from(db, digest)
    with start_server(workspace, db) as again:  # the same file: not parsed again
        assert again.running
    data = json.loads(workspace.read_text(encoding="utf-8"))
    data["agents"][0]["guild"] = "guild_nowhere"
    workspace.write_text(json.dumps(data), encoding="utf-8")
    assert not _seeded_from(db, _file_digest(workspace) or "")
    with pytest.raises(WorkspaceError, match=r"agents\[0\]"):
        start_server(workspace, db)
    assert WORKSPACE_DIGEST == "workspace_sha256"


def test_the_compact_form_is_gzipped_when_accepted_and_has_its_own_etag(
    live_server: LiveServer,
) -> None:
    path = "/api/org/embeddable-notes?form=compact"
    zipped = call(live_server, "GET", path, headers={"Accept-Encoding": "gzip"})
    whole = call(live_server, "GET", path, headers={"Accept-Encoding": "identity"})
    refused = call(live_server, "GET", path, headers={"Accept-Encoding": "gzip;q=0"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert "Content-Encoding" not in whole.headers and "Content-Encoding" not in refused.headers
    assert zipped.json() == whole.json() == refused.json()
    assert whole.json()["form"] == "compact" and whole.headers["Vary"] == "Accept-Encoding"
    assert int(zipped.headers["Content-Length"]) < len(whole.content)
    etag = whole.headers["ETag"]
    spec = call(live_server, "GET", "/api/org/embeddable-notes")
    assert etag == zipped.headers["ETag"] != spec.headers["ETag"]
    again = call(live_server, "GET", path, headers={"If-None-Match": etag})
    assert (again.status_code, again.content, again.headers["ETag"]) == (304, b"", etag)
    other_form = call(
        live_server, "GET", "/api/org/embeddable-notes", headers={"If-None-Match": etag}
    )
    assert other_form.status_code == 200


def test_the_spec_form_is_sent_as_before_whatever_the_client_accepts(
    live_server: LiveServer,
) -> None:
    answer = call(
        live_server, "GET", "/api/org/embeddable-notes", headers={"Accept-Encoding": "gzip"}
    )
    assert "Content-Encoding" not in answer.headers
    assert answer.content.startswith(b'{"notes":[{"display_path":"')
    first = answer.json()["notes"][0]
    assert list(first) == ["display_path", "title", "kind", "level", "access"]


def test_a_spec_only_server_ignores_the_form(tmp_path: Path) -> None:
    with start_server(WORKSPACE_BASIC, tmp_path / "db.sqlite3", extensions=False) as plain:
        response = requests.get(
            plain.url + "/api/org/embeddable-notes?form=compact",
            headers={"Authorization": "Bearer ann-secret", "Accept-Encoding": "gzip"},
            timeout=TIMEOUT,
        )
    assert response.status_code == 200 and "ETag" not in response.headers
    assert "Content-Encoding" not in response.headers
    notes = response.json()["notes"]
    assert notes and all(set(n) == {"display_path", "title", "kind", "level"} for n in notes)
