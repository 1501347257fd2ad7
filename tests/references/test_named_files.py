"""Named files: display paths written without ``![[…]]``, found where a reader sees them."""

from __future__ import annotations

import pytest

from app.core.expander import EMBED_RE
from app.core.named_files import named_mentions


def named(text: str) -> list[str]:
    spans = [m.span() for m in EMBED_RE.finditer(text)]
    return [path for _, _, path in named_mentions(text, "o_acme", spans)]


@pytest.mark.parametrize(
    ("text", "paths"),
    [
        ("See org/o_acme/handbook.md.", ["org/o_acme/handbook.md"]),
        ("(see org/o_acme/a.md), then org/o_acme/b.md;", ["org/o_acme/a.md", "org/o_acme/b.md"]),
        ("Plan: org/o_acme/2024 plan (v2).md", ["org/o_acme/2024"]),
        ("`org/o_acme/2024 plan (v2).md` is the plan", ["org/o_acme/2024 plan (v2).md"]),
        ("**org/o_acme/a.md**!", ["org/o_acme/a.md"]),
        ("'org/o_acme/a.md' and \"org/o_acme/b.md\"", ["org/o_acme/a.md", "org/o_acme/b.md"]),
        ("[the guide](org/o_acme/guide.md)", ["org/o_acme/guide.md"]),
        ("org/o_acme/guilds/guild_ops/customers\n", ["org/o_acme/guilds/guild_ops/customers"]),
        # A short [[link]] is plain text (the spec), so a display path in one names the file.
        ("[[org/o_acme/a.md]]", ["org/o_acme/a.md"]),
        # A code span that runs into an embed is no path; the path before it still counts.
        ("`org/o_acme/a.md ![[org/o_acme/b.md]]`", ["org/o_acme/a.md"]),
    ],
)
def test_mentions_end_where_the_sentence_goes_on(text: str, paths: list[str]) -> None:
    assert named(text) == paths


@pytest.mark.parametrize(
    "text",
    [
        "![[org/o_acme/a.md]]",  # an embed is an embed, not a named file
        "![[ org/o_acme/a.md ]] and ![[recipe:org/o_acme/a.md]]",
        "https://example.com/org/o_acme/a.md",  # part of a web address
        "/srv/org/o_acme/a.md and xorg/o_acme/a.md and my-org/o_acme/a.md",
        "org/o_other/a.md, org/o_acme/, org/o_acme//a.md, org/o_acme/./a.md",
    ],
)
def test_these_name_no_file(text: str) -> None:
    assert named(text) == []


def test_offsets_cover_the_path_exactly() -> None:
    text = "x ![[org/o_acme/a.md]] org/o_acme/a.md `org/o_acme/b c.md`"
    spans = [m.span() for m in EMBED_RE.finditer(text)]
    found = list(named_mentions(text, "o_acme", spans))
    assert [text[start:end] for start, end, _ in found] == ["org/o_acme/a.md", "org/o_acme/b c.md"]
    assert [path for _, _, path in found] == ["org/o_acme/a.md", "org/o_acme/b c.md"]
