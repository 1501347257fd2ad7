"""Decoding a big answer item by item gives exactly what decoding it whole gives."""

from __future__ import annotations

import json
import sys
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.client.json_pieces import decode_in_pieces

_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
_values = st.recursive(
    _scalars | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(
    before=st.dictionaries(st.text(max_size=6), _values, max_size=3),
    items=st.lists(_values, max_size=8),
    after=st.dictionaries(st.text(max_size=6), _values, max_size=3),
    spaced=st.booleans(),
)
def test_same_as_decoding_whole(
    before: dict[str, object], items: list[object], after: dict[str, object], spaced: bool
) -> None:
    document = {**before, "notes": items, **after}
    body = json.dumps(document, indent=2 if spaced else None, ensure_ascii=False).encode()
    assert decode_in_pieces(body, ("notes",), whole_below=0) == json.loads(body)


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"{",
        b'{"notes": [1, 2',
        b'{"notes": [1 2]}',
        b'{"notes": [1,]}',
        b'{"notes": []} x',
        b'{"notes" []}',
        b"{notes: []}",
        b'{"a": 1,}',
        b"\xff\xfe",
        b"<html>not json</html>",
    ],
)
def test_what_is_not_json_is_refused_as_decoding_whole_refuses_it(body: bytes) -> None:
    with pytest.raises(ValueError):
        json.loads(body)
    with pytest.raises(ValueError):
        decode_in_pieces(body, ("notes",), whole_below=0)


@pytest.mark.parametrize("body", [b"[1, 2]", b'"text"', b"{}", b' { "notes" : [ ] } ', b"3"])
def test_other_shapes_decode_as_they_are(body: bytes) -> None:
    assert decode_in_pieces(body, ("notes",), whole_below=0) == json.loads(body)


def test_other_threads_run_while_a_big_list_decodes() -> None:
    """The point of it: a thread that wants the GIL gets it between items. Counted in
    turns, not time: the ticking thread must get many turns during the decode."""
    notes = [
        {"display_path": f"org/n{i}.md", "title": f"Note {i}", "kind": "note", "level": "org"}
        for i in range(60_000)
    ]
    body = json.dumps({"notes": notes}).encode()
    turns = 0
    done = threading.Event()

    def tick() -> None:
        nonlocal turns
        while not done.is_set():
            turns += 1
            time.sleep(0)

    old = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        decoded = decode_in_pieces(body, ("notes",))
    finally:
        done.set()
        ticker.join()
        sys.setswitchinterval(old)
    assert decoded == {"notes": notes}
    assert turns > 20
