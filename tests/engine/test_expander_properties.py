"""Property tests of the expander: it never raises, and its output keeps EXPANSION.md's rules.

Beside the listed properties, every random workspace is also expanded by a small independent
reading of EXPANSION.md written here, and the two must agree byte for byte.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.expander import EMBED_RE, Expansion, expand_embeds
from app.core.models import AccessEntry, OrgFile, Reader
from tests.org_strategies import org_files_at

# Modest runs keep the suite fast; no deadline or too-slow check, since a busy CI machine
# would turn them into failures that say nothing about the expander.
ENGINE = settings(deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow])

ORG_ID = "o_acme"
READER = Reader("a_scout", "guild_ops")
TASK_PATH = "org/o_acme/agents/a_scout/task.md"

DISPLAY_PATHS = [
    "org/o_acme/a.md",
    "org/o_acme/guilds/guild_ops/b.md",
    "org/o_acme/agents/a_scout/c.md",
    "org/o_acme/guilds/guild_research/d.md",
    "org/o_acme/Memory.md",
    "org/o_acme/2024 plan (v2).MD",
    "org/o_acme/R&D <x>.md",
    "org/o_acme/customers",
    "org/o_acme/agents/a_scout/memory.md",
]
NOT_DISPLAY_PATHS = [
    "org/o_other/e.md",
    "guild/f.md",
    "agent/scout/g.md",
    "recipe:h",
    "org/o_acme//i.md",
]
TOKENS = [
    "![[",
    "]]",
    "[[",
    "[",
    "]",
    "!",
    "\n",
    "\r\n",
    "\r",
    " ",
    "\t",
    "é€",
    '&<>"',
    "```\n",
    "text",
    "![[]]",
    "! [[org/o_acme/a.md]]",
    *(f"![[{p}]]" for p in DISPLAY_PATHS + NOT_DISPLAY_PATHS),
    *(f"![[ \t{p} ]]" for p in DISPLAY_PATHS[:3]),
]

soup = st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=4)), max_size=25).map("".join)


def org_files() -> st.SearchStrategy[dict[str, OrgFile]]:
    """A random workspace: some display paths hold notes, collections or other files."""
    return org_files_at(DISPLAY_PATHS, soup)


# ---------------------------------------------------------------- a second reading of the rules

_SPEC_EMBED = re.compile(r"!\[\[([^\[\]\r\n]+)\]\]")
_NAME_CHARS = set(string.ascii_letters + string.digits + "_-")


def _escape(value: str) -> str:
    return (
        value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def _stem(path: str) -> str:
    last = path.split("/")[-1]
    return last[:-3] if last.lower().endswith(".md") else last


def _name(path: str) -> str:
    name = "".join(c for c in _stem(path) if c in _NAME_CHARS)
    if not name:
        return "note"
    reserved = {"guidelines", "task", "state", "memory", "unreachable"}
    if name[0] not in string.ascii_letters + "_" or name.lower() in reserved:
        return "note-" + name
    return name


def _is_display_path(path: str) -> bool:
    segments = path.split("/")
    return (
        "\\" not in path
        and len(segments) >= 3
        and segments[:2] == ["org", ORG_ID]
        and not any(s in ("", ".", "..") for s in segments)
    )


def _level(path: str) -> str:
    segments = path.split("/")
    if len(segments) > 3 and segments[2] in ("guilds", "agents"):
        return segments[2][:-1]
    return "org"


def reference_expand(task: str, files: Mapping[str, OrgFile]) -> tuple[str, list, int]:
    """EXPANSION.md read once more, as plainly as possible: (text, broken, embedded bytes)."""
    principals = {f"agent:{READER.agent_id}", f"guild:{READER.guild_id}", "org"}
    inlined: list[str] = []
    broken: list[tuple[str, int, str]] = []

    def readable(f: OrgFile) -> bool:
        return any(e.role in ("read", "write") and e.principal in principals for e in f.access)

    def expand(text: str, hop: int, holder: str) -> str:
        if hop > 2:
            return text

        def one(match: re.Match[str]) -> str:
            path = match.group(1).strip(" \t")
            f = files.get(path) if _is_display_path(path) else None
            if f is not None and f.kind == "note" and path in inlined:
                return f.title or _stem(path)
            if f is not None and f.kind == "note" and readable(f):
                inlined.append(path)
                body = expand((f.text or "").rstrip("\r\n"), hop + 1, path)
                name = _name(path)
                return f'<{name} path="{_escape(path)}" level="{_level(path)}">\n{body}\n</{name}>'
            if f is not None and f.kind == "collection" and readable(f):
                return f.title
            broken.append((path, hop, holder))
            return f'<unreachable path="{_escape(path)}" message="This file is not reachable." />'

        return _SPEC_EMBED.sub(one, text)

    text = expand(task, 1, TASK_PATH)
    size = sum(len((files[p].text or "").encode("utf-8")) for p in inlined)
    return text, broken, size


# ---------------------------------------------------------------- the properties


def run(task: str, files: Mapping[str, OrgFile]) -> Expansion:
    return expand_embeds(task, org_id=ORG_ID, reader=READER, lookup=files, task_path=TASK_PATH)


@ENGINE
@given(task=st.one_of(st.text(), soup), files=org_files())
def test_agrees_with_a_second_reading_of_the_rules(task: str, files: dict[str, OrgFile]) -> None:
    expansion = run(task, files)
    text, broken, size = reference_expand(task, files)
    assert expansion.text == text
    assert [(b.path, b.hop, b.in_path) for b in expansion.broken] == broken
    assert expansion.embedded_bytes == size


@ENGINE
@given(task=st.one_of(st.text(), soup), files=org_files())
def test_text_only_gives_the_same_text_and_sums(task: str, files: dict[str, OrgFile]) -> None:
    """What the fleet's prompt search reads: the very text and figures, without the pieces."""
    whole = run(task, files)
    bare = expand_embeds(
        task, org_id=ORG_ID, reader=READER, lookup=files, task_path=TASK_PATH, text_only=True
    )
    assert bare.text == whole.text
    assert bare.embeds == whole.embeds and bare.collections == whole.collections
    assert bare.broken == whole.broken and bare.embedded_bytes == whole.embedded_bytes
    assert bare.pieces == () and bare.notes == ()


lone_surrogates = st.text(st.characters(categories=["Cs", "Ll", "Sm"]), max_size=6)


@ENGINE
@given(task=st.one_of(st.text(), soup), files=org_files(), odd=lone_surrogates, data=st.data())
def test_never_raises_even_with_odd_lookups(
    task: str, files: dict[str, OrgFile], odd: str, data: st.DataObject
) -> None:
    """A lookup may answer any path with any file, even one filed under another path, and a
    note may hold lone surrogates (JSON can escape them)."""
    everyone = (AccessEntry("org", "read"),)
    pool = [*files.values(), OrgFile("org/o_acme/odd.md", "note", text=odd, access=everyone)]

    def odd_lookup(path: str) -> OrgFile | None:
        return data.draw(st.sampled_from([None, *pool]))

    expansion = expand_embeds(task, org_id=ORG_ID, reader=READER, lookup=odd_lookup)
    assert isinstance(expansion.text, str)


@ENGINE
@given(task=st.text().filter(lambda t: "![[" not in t), files=org_files())
def test_text_without_embeds_comes_back_unchanged(task: str, files: dict[str, OrgFile]) -> None:
    expansion = run(task, files)
    assert expansion.text == task
    assert expansion.embeds == () and expansion.broken == () and expansion.embedded_bytes == 0


@ENGINE
@given(task=soup, files=org_files())
def test_each_note_inlined_at_most_once(task: str, files: dict[str, OrgFile]) -> None:
    expansion = run(task, files)
    paths = [n.display_path for n in expansion.notes]
    assert len(paths) == len(set(paths))
    for path, f in files.items():
        opening = f'<{_name(path)} path="{_escape(path)}" level="'
        assert expansion.text.count(opening) == (1 if path in paths else 0), path
        assert f.kind == "note" or path not in paths


@ENGINE
@given(task=soup, files=org_files())
def test_embedded_bytes_is_the_stored_size_of_the_inlined_notes(
    task: str, files: dict[str, OrgFile]
) -> None:
    expansion = run(task, files)
    stored = sum(len((files[n.display_path].text or "").encode("utf-8")) for n in expansion.notes)
    assert expansion.embedded_bytes == stored
    assert expansion.over_budget is (stored > 65_536)


@ENGINE
@given(task=soup, files=org_files())
def test_hop_two_notes_keep_their_embeds_as_written(task: str, files: dict[str, OrgFile]) -> None:
    expansion = run(task, files)
    assert {n.hop for n in expansion.notes} <= {1, 2}
    assert all(b.hop in (1, 2) for b in expansion.broken)
    for n in expansion.notes:
        if n.hop == 2:
            name, path = _name(n.display_path), n.display_path
            body = (files[path].text or "").rstrip("\r\n")
            wrapped = f'<{name} path="{_escape(path)}" level="{_level(path)}">\n{body}\n</{name}>'
            assert wrapped in expansion.text


@ENGINE
@given(length=st.integers(3, 6), lead=soup)
def test_nothing_deeper_than_two_hops(length: int, lead: str) -> None:
    """A chain of notes, each embedding the next: only the first two are inlined."""
    chain = [f"org/o_acme/chain{i}.md" for i in range(length)]
    files = {
        path: OrgFile(
            path,
            "note",
            text=f"link {i} ![[{chain[i + 1]}]]" if i + 1 < length else "end",
            access=(AccessEntry("org", "read"),),
        )
        for i, path in enumerate(chain)
    }
    expansion = run(lead.replace("![[", "") + f"![[{chain[0]}]]", files)
    assert [n.display_path for n in expansion.notes] == chain[:2]
    assert f"link 1 ![[{chain[2]}]]" in expansion.text
    assert "<chain2 " not in expansion.text


@ENGINE
@given(task=soup, files=org_files())
def test_task_text_outside_embeds_is_kept_in_order(task: str, files: dict[str, OrgFile]) -> None:
    expansion = run(task, files)
    segments = EMBED_RE.split(task)[::2]  # split keeps the captured inner text at odd places
    out = expansion.text
    assert out.startswith(segments[0]) and out.endswith(segments[-1])
    pos = 0
    for segment in segments:
        found = out.find(segment, pos)
        assert found >= 0, segment
        pos = found + len(segment)
