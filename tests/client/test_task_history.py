"""A Task's earlier texts cross the wire once: after the first read, reads and saves ask for
the Task without them (EXTENSION) and fill them in from what the client holds, fetching only
the ones it never saw; against a server without that, the Task is read whole. And the client
opens the largest answer a server may legally send."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.client import TaskdeskClient
from app.core.limits import MAX_REVISIONS, TASK_ANSWER_MAX_BYTES, TASK_MAX_BYTES
from app.server import start_server
from tests.client.conftest import ANN, BOB
from tests.faultproxy import FaultProxy
from tests.live_server import WORKSPACE_BASIC, LiveServer

AGENT = "a_scout"


def _whole(server_url: str) -> tuple[str, int, tuple[object, ...]]:
    """The Task as a fresh client reads it: whole, in one answer."""
    with TaskdeskClient(server_url, BOB) as fresh:
        doc = fresh.get_task(AGENT)
    return doc.content, doc.version, doc.revisions


def test_reads_and_saves_after_the_first_carry_no_earlier_text(
    proxy: FaultProxy, proxied: TaskdeskClient, server: LiveServer
) -> None:
    with TaskdeskClient(server.url, BOB) as bob:  # a history of 20 KB texts
        bob.put_task(AGENT, "x" * 20_000, None)
        bob.put_task(AGENT, "y" * 20_000, None)
    proxied.get_task(AGENT)
    assert "revisions=summary" not in proxy.last("GET").path  # nothing held yet: whole
    assert proxy.last("GET").body_bytes_sent > 40_000
    for n in range(3):
        saved = proxied.put_task(AGENT, f"Ann's rules, take {n}.\n", None)
        put = proxy.last("PUT")
        assert put.path.endswith("?revisions=summary")
        assert put.body_bytes_sent < 20_000  # the history's texts are not in it
        assert (saved.content, saved.version, saved.revisions) == _whole(server.url)
    again = proxied.get_task(AGENT)
    assert proxy.last("GET").status == 304
    assert again.revisions == saved.revisions
    fetched_before = len([e for e in proxy.exchanges if "/revisions/" in e.path])
    assert fetched_before == 0  # every archived text was one the client had read


def test_a_text_saved_elsewhere_is_fetched_on_its_own_once(
    proxy: FaultProxy, proxied: TaskdeskClient, server: LiveServer
) -> None:
    first = proxied.get_task(AGENT)
    with TaskdeskClient(server.url, BOB) as bob:
        bob.put_task(AGENT, "Bob's first go.\n", first.version)
        bob.put_task(AGENT, "Bob's second go.\n", first.version + 1)
    fresh = proxied.get_task(AGENT)
    assert proxy.last("GET").path.endswith("/revisions/" + str(first.version + 1))
    one_each = [e.path for e in proxy.exchanges if "/revisions/" in e.path]
    assert one_each == [f"/api/agents/{AGENT}/files/task.md/revisions/{first.version + 1}"]
    assert (fresh.content, fresh.version, fresh.revisions) == _whole(server.url)
    assert {r.version: r.content for r in fresh.revisions}[first.version + 1] == "Bob's first go.\n"


def test_a_server_without_the_extension_gets_whole_reads(tmp_path: Path) -> None:
    with (
        start_server(WORKSPACE_BASIC, tmp_path / "spec.sqlite3", extensions=False) as spec,
        TaskdeskClient(spec.url, ANN) as client,
    ):
        first = client.get_task(AGENT)
        saved = client.put_task(AGENT, "Plain server, plain save.\n", first.version)
        again = client.get_task(AGENT)
    assert saved.revisions[0].content == first.content
    assert (again.content, again.version) == (saved.content, saved.version)


def test_the_answer_bound_is_the_spec_worst_case() -> None:
    # The live text and 50 revisions, each 256 KB of control characters at six bytes each.
    assert TASK_ANSWER_MAX_BYTES >= (MAX_REVISIONS + 1) * 6 * TASK_MAX_BYTES
    from app.client.transport import DEFAULT_MAX_BODY_BYTES

    assert DEFAULT_MAX_BODY_BYTES >= TASK_ANSWER_MAX_BYTES


@pytest.mark.slow
def test_the_largest_legal_history_opens(tmp_path: Path) -> None:
    """52 saves of 256 KB of control characters: ~80 MB of answer, refused before (64 MiB)."""
    with start_server(WORKSPACE_BASIC, tmp_path / "big.sqlite3") as server:
        with TaskdeskClient(server.url, BOB, read_timeout=60.0) as bob:
            for n in range(MAX_REVISIONS + 2):
                bob.put_task(AGENT, chr(1 + n % 7) * TASK_MAX_BYTES, None)
        with TaskdeskClient(server.url, ANN, read_timeout=60.0) as ann:
            doc = ann.get_task(AGENT)
            assert len(doc.revisions) == MAX_REVISIONS
            assert all(len(r.content) == TASK_MAX_BYTES for r in doc.revisions)
            saved = ann.put_task(AGENT, "Short again.\n", doc.version)
    assert saved.revisions[0].content == doc.content
    assert len(saved.revisions) == MAX_REVISIONS


def test_a_held_text_the_server_numbers_otherwise_is_fetched(tmp_path: Path) -> None:
    """The database replaced under the same address (a local workspace set aside and made
    afresh): a version number comes back with another text, and the held one is not used."""
    with start_server(WORKSPACE_BASIC, tmp_path / "first.sqlite3") as first:
        port = int(first.url.rsplit(":", 1)[1])
        with TaskdeskClient(first.url, BOB) as bob:
            bob.put_task(AGENT, "The first database's text.\n", None)
        ann = TaskdeskClient(first.url, ANN)
        held = ann.get_task(AGENT)
    try:
        with start_server(WORKSPACE_BASIC, tmp_path / "second.sqlite3", port=port) as second:
            with TaskdeskClient(second.url, BOB) as bob:
                bob.put_task(AGENT, "The second database's text.\n", None)
                bob.put_task(AGENT, "And its next one.\n", None)
            doc = ann.get_task(AGENT)
            assert (doc.content, doc.version, doc.revisions) == _whole(second.url)
    finally:
        ann.close()
    texts = {r.version: r.content for r in doc.revisions}
    assert texts[held.version] == "The second database's text.\n"
