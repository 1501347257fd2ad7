"""The kept answers of the picker's list: the newest generation only, within a byte budget."""

from __future__ import annotations

import gzip

import pytest

from app.server import picker_notes
from app.server.picker_notes import PickerBodies, accepts_gzip


def test_a_newer_generation_drops_every_older_answer() -> None:
    bodies = PickerBodies()
    bodies.keep('"a-1"', 1, "spec", b"one")
    bodies.keep('"b-1"', 1, "spec", b"uno")
    bodies.keep('"a-2"', 2, "spec", b"two")
    assert bodies.get('"a-1"') is None and bodies.get('"b-1"') is None
    assert bodies.get('"a-2"') is not None
    late = bodies.keep('"b-1"', 1, "spec", b"read before the change")  # answered, not kept
    assert late.body == b"read before the change" and bodies.get('"b-1"') is None


def test_the_oldest_answers_go_first_past_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(picker_notes, "KEPT_BYTES", 10)
    bodies = PickerBodies()
    for name in "abc":
        bodies.keep(f'"{name}"', 1, "spec", b"1234")
    assert [bodies.get(f'"{n}"') is not None for n in "abc"] == [False, True, True]
    big = bodies.keep('"big"', 1, "spec", b"x" * 50)  # the newest stays, however large
    assert bodies.get('"big"') is big and bodies.get('"c"') is None
    assert gzip.decompress(big.gzipped()) == big.body


@pytest.mark.parametrize(
    ("header", "takes"),
    [
        ("gzip, deflate", True),
        ("deflate, gzip;q=0.5", True),
        ("*", True),
        ("gzip;q=0", False),
        ("identity", False),
        ("", False),
        (None, False),
        ("gzip;q=nonsense", False),
    ],
)
def test_accept_encoding(header: str | None, takes: bool) -> None:
    assert accepts_gzip(header) is takes
