"""Answers of the wrong shape are a BadResponse naming what is wrong, never a raw exception."""

from __future__ import annotations

import orjson
import pytest

from app.client import BadResponse
from app.client.parse import (
    agents_from,
    embed_status_from,
    me_from,
    note_from,
    parse_answer,
    run_from,
    task_from,
)

GOOD_TASK = {
    "path": "task.md",
    "display_path": "org/o/agents/a/task.md",
    "content": "text",
    "version": 2,
    "revisions": [
        {
            "version": 1,
            "content": "old",
            "replaced_at": "2026-01-01T00:00:00Z",
            "replaced_by_name": "Ann",
        }
    ],
    "an_extension_field": {"ignored": True},
}


def test_a_good_task_parses_and_unknown_fields_are_ignored() -> None:
    doc = parse_answer(orjson.dumps(GOOD_TASK), "the Task", task_from("a", '"e1"'))
    assert (doc.version, doc.etag, doc.revisions[0].replaced_by_name) == (2, '"e1"', "Ann")


@pytest.mark.parametrize(
    "change",
    [
        {"version": "2"},
        {"version": True},
        {"version": 2.5},
        {"content": None},
        {"content": 5},
        {"revisions": None},
        {"revisions": [1]},
        {"revisions": [{"version": 1}]},
    ],
)
def test_a_task_of_the_wrong_shape_is_a_bad_response(change: dict[str, object]) -> None:
    with pytest.raises(BadResponse) as caught:
        parse_answer(orjson.dumps(GOOD_TASK | change), "the Task", task_from("a", None))
    assert "not in the expected form" in caught.value.message


@pytest.mark.parametrize(
    ("build", "body"),
    [
        (me_from, b"[]"),
        (me_from, b'{"id": "u", "name": "N", "type": "robot", "org_id": "o"}'),
        (agents_from, b'{"agents": {"a": 1}}'),
        (agents_from, b'{"agents": [null]}'),
        (embed_status_from, b'{"agents": [{"id": "a", "broken_embeds": [{"path": 1}]}]}'),
        (note_from, b'{"display_path": "p", "kind": "note", "version": 1}'),
        (run_from, b'{"id": "r", "system_prompt": "p", "task_source": {"version": 1}}'),
        (run_from, b"null"),
        (run_from, b"12"),
    ],
)
def test_wrong_shapes_of_every_answer(build: object, body: bytes) -> None:
    with pytest.raises(BadResponse):
        parse_answer(body, "it", build)  # type: ignore[arg-type]


@pytest.mark.parametrize("body", [b"", b"{", b"\xff\xfe", b'{"a": 1} trailing', b"NaN"])
def test_bodies_that_are_not_json(body: bytes) -> None:
    with pytest.raises(BadResponse) as caught:
        parse_answer(body, "the Task", task_from("a", None))
    assert "not valid JSON" in caught.value.message


def test_a_web_page_is_named_as_such() -> None:
    with pytest.raises(BadResponse) as caught:
        parse_answer(b"<html><body>Sign in</body></html>", "the Task", me_from, "text/html")
    assert "web page" in caught.value.message
