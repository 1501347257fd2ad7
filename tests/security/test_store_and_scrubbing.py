"""A damaged store schema is named as such; the token scrubber leaves short tokens alone."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from app.client import TaskdeskClient
from app.client.errors import NotFound, ServerError
from app.client.scrubbing import REDACTED, scrub_tokens
from app.store import LocalStore, StoreError, StoreProblem
from tests.live_server import ServerFactory

SERVER = "http://127.0.0.1:8000"


@pytest.mark.parametrize("table", ["drafts", "history"])
def test_a_missing_table_is_schema_damage_not_a_disk_error(tmp_path: Path, table: str) -> None:
    path = tmp_path / "store.sqlite3"
    with LocalStore(path) as store:
        store.save_draft(SERVER, "a_scout", "typed", 1)
    with closing(sqlite3.connect(path)) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        victim = next(n for n in names if n.startswith(table))
        conn.execute(f"DROP TABLE {victim}")
        conn.commit()
    with LocalStore(path) as store, pytest.raises(StoreError) as raised:
        if table == "drafts":
            store.save_draft(SERVER, "a_scout", "typed again", 1)
        else:
            store.add_history(SERVER, "a_scout", "kept", "discard", 1)
    error = raised.value
    assert error.problem is StoreProblem.SCHEMA_DAMAGED
    assert "damaged" in error.message and "structure" in error.message
    assert "disk" not in error.message.lower()
    assert str(path) in error.message


def test_short_tokens_are_not_scrubbed_out_of_words() -> None:
    assert scrub_tokens("could not be read", ["t"]) == "could not be read"
    assert scrub_tokens("token ann-secret leaked", ["ann-secret"]) == f"token {REDACTED} leaked"
    assert scrub_tokens("abcdefgh-long and abcdefgh", ["abcdefgh", "abcdefgh-long"]) == (
        f"{REDACTED} and {REDACTED}"
    )


def test_a_one_character_token_does_not_mangle_the_servers_message(
    server_factory: ServerFactory, workspace_basic: dict[str, Any]
) -> None:
    for person in workspace_basic["people"]:
        if person["id"] == "u_mia":
            person["token"] = "t"
    server = server_factory(workspace_basic)
    with TaskdeskClient(server.url, "t") as client, pytest.raises(NotFound) as raised:
        client.note("org/o_acme/no-such-note.md")
    assert REDACTED not in raised.value.message
    assert "not found" in raised.value.message


def test_a_real_token_echoed_by_the_server_is_still_scrubbed(
    server_factory: ServerFactory,
) -> None:
    server = server_factory()
    token = server.token("ann")
    server.hook("fail", status=500, count=1, error=f"bad token {token}", path="/api/me")
    with TaskdeskClient(server.url, token) as client, pytest.raises(ServerError) as raised:
        client.me()
    assert token not in raised.value.message
