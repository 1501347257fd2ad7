"""The client against a server that differs from the reference one in every legitimate way."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from app.client import TaskdeskClient, VersionConflict
from tests.spec_server import CRLF_TASK, SCOUT_LIVE, STYLE_GUIDE, TASK_LIMIT, SpecServer, Variations

Switch = Callable[[Variations], None]


def _set(**changes: object) -> Switch:
    def switch(v: Variations) -> None:
        for name, value in changes.items():
            setattr(v, name, value)

    return switch


VARIATIONS: dict[str, Switch] = {
    "plain": _set(),
    "time offsets and milliseconds": _set(time_offset=True),
    "unknown fields": _set(unknown_fields=True),
    "reordered keys": _set(reordered_keys=True),
    "gzip": _set(gzip=True),
    "chunked": _set(chunked=True),
    "connection close": _set(connection_close=True),
    "path prefix": _set(prefix="/orchestrator"),
    "strong etags": _set(etags="strong"),
    "weak etags": _set(etags="weak"),
    "slow answers": _set(delay=0.2),  # slower than a loopback answer, within every timeout
    "all at once": _set(
        time_offset=True,
        unknown_fields=True,
        reordered_keys=True,
        gzip=True,
        chunked=True,
        connection_close=True,
        prefix="/orchestrator",
        etags="weak",
    ),
}


@pytest.fixture(params=list(VARIATIONS), ids=list(VARIATIONS))
def varied(request: pytest.FixtureRequest, spec_server: SpecServer) -> TaskdeskClient:
    VARIATIONS[request.param](spec_server.variations)
    client = TaskdeskClient(spec_server.url, "ann-secret")
    request.addfinalizer(client.close)
    return client


def test_read_edit_save_and_conflict_hold_under_every_variation(
    varied: TaskdeskClient, spec_server: SpecServer
) -> None:
    doc = varied.get_task("a_scout")
    assert (doc.content, doc.version) == (SCOUT_LIVE, 3)
    assert [r.replaced_by_name for r in doc.revisions] == ["Bob", "Ann"]
    assert doc.display_path == "org/o_acme/agents/a_scout/task.md"
    saved = varied.put_task("a_scout", doc.content + "One more rule.\n", doc.version)
    assert saved.version == 4 and saved.revisions[0].content == SCOUT_LIVE
    assert saved.revisions[0].replaced_by_name == "Ann"
    with pytest.raises(VersionConflict) as conflict:
        varied.put_task("a_scout", "stale", doc.version)
    assert conflict.value.live_version is None  # this server doesn't say; nothing breaks
    notes = varied.embeddable_notes()
    assert STYLE_GUIDE in [n.display_path for n in notes]
    status = varied.embed_status("guild_ops")
    assert {a.id for a in status} == {"a_scout", "a_writer"}


def test_times_with_an_offset_and_milliseconds_are_read(
    spec_server: SpecServer, ann: TaskdeskClient
) -> None:
    spec_server.variations.time_offset = True
    doc = ann.get_task("a_scout")
    assert doc.revisions[-1].replaced_at == "2026-01-05T11:00:00.123+02:00"


def test_gzip_answers_are_asked_for_and_unpacked(spec_server: SpecServer) -> None:
    spec_server.variations.gzip = True
    with TaskdeskClient(spec_server.url, "ann-secret") as client:
        assert client.get_task("a_scout").content == SCOUT_LIVE
    (seen,) = spec_server.seen("GET", "/a_scout/files/task.md")
    assert "gzip" in seen.headers["Accept-Encoding"]


@pytest.mark.parametrize("kind", ["strong", "weak"])
def test_an_unchanged_task_costs_no_body_with_strong_or_weak_etags(
    spec_server: SpecServer, ann: TaskdeskClient, kind: str
) -> None:
    spec_server.variations.etags = kind  # type: ignore[assignment]
    first = ann.get_task("a_scout")
    assert first.etag is not None and first.etag.startswith("W/") == (kind == "weak")
    again = ann.get_task("a_scout")
    assert again == first
    second = spec_server.seen("GET", "/a_scout/files/task.md")[1]
    assert second.headers["If-None-Match"] == first.etag


def test_no_etags_reads_the_whole_task_each_time(
    spec_server: SpecServer, ann: TaskdeskClient
) -> None:
    assert ann.get_task("a_scout").etag is None
    assert ann.get_task("a_scout").content == SCOUT_LIVE
    assert all("If-None-Match" not in r.headers for r in spec_server.requests)


def test_a_409_that_carries_the_live_version_is_read(
    spec_server: SpecServer, ann: TaskdeskClient
) -> None:
    spec_server.variations.conflict_version = True
    with pytest.raises(VersionConflict) as conflict:
        ann.put_task("a_scout", "stale", 1)
    assert conflict.value.live_version == 3


def test_a_task_of_exactly_the_limit_saves_and_reads_back(
    spec_server: SpecServer, ann: TaskdeskClient
) -> None:
    text = "é" * (TASK_LIMIT // 2)  # two bytes each: exactly 262,144 bytes
    assert len(text.encode()) == TASK_LIMIT
    saved = ann.put_task("a_scout", text, 3)
    assert saved.content == text
    assert ann.get_task("a_scout").content == text


def test_the_api_under_a_path_prefix_is_reached_there(spec_server: SpecServer) -> None:
    spec_server.variations.prefix = "/orchestrator"
    with TaskdeskClient(spec_server.root + "/orchestrator/", "ann-secret") as client:
        assert client.get_task("a_scout").version == 3
    assert all(r.path.startswith("/orchestrator/api/") for r in spec_server.requests)


def test_a_crlf_task_reads_back_byte_for_byte(spec_server: SpecServer, ann: TaskdeskClient) -> None:
    assert ann.get_task("a_clerk").content == CRLF_TASK
    edited = CRLF_TASK + "Sign them.\r\n"
    assert ann.put_task("a_clerk", edited, 1).content == edited
    assert b"\\r\\n" in spec_server.seen("PUT", "/a_clerk/files/task.md")[0].body


def test_every_request_names_taskdesk_its_version_and_platform(
    spec_server: SpecServer, ann: TaskdeskClient
) -> None:
    from app import version

    ann.get_task("a_scout")
    ann.embeddable_notes()
    agents = {r.headers["User-Agent"] for r in spec_server.requests}
    (agent,) = agents
    assert re.fullmatch(rf"Taskdesk/{re.escape(version())} \([^()]+\)", agent), agent
