"""Property tests: the References tree agrees with the expander exactly, on any workspace.

The expanded text is rebuilt from the tree alone (each embed replaced as its outcome says,
at the position the tree gives) and must equal the expander's byte for byte; the markers,
inlined notes, bytes and collections must be the expander's, in its order; every marker's
reason must be the one a second, plain reading of the rules gives.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from app.core.expander import EMBED_RE, element_name, escape_attr, expand_embeds, level_of
from app.core.marker_reasons import EarlierFile
from app.core.models import OrgFile
from app.core.references import Reference, References, find_references
from tests.references.strategies import (
    ORG_ID,
    PROPERTIES,
    READER,
    TASK_PATH,
    histories,
    org_files,
    soup,
)

_MARKER = '<unreachable path="{}" message="This file is not reachable." />'
_ORG_ID_FORM = re.compile(r"o_[A-Za-z0-9_-]+\Z")


def references(
    task: str, files: dict[str, OrgFile], history: list[EarlierFile] | None = None
) -> References:
    return find_references(
        task,
        org_id=ORG_ID,
        reader=READER,
        lookup=files,
        task_path=TASK_PATH,
        history=history or (),
    )


def rebuild(text: str, items: tuple[Reference, ...], files: dict[str, OrgFile]) -> str:
    """The expanded text, from the original text and the tree alone."""
    out: list[str] = []
    at = 0
    for item in items:
        if item.outcome == "named":
            continue
        out.append(text[at : item.position.offset])
        at = item.position.end
        if item.outcome == "inlined":
            note = files[item.path]
            body = rebuild((note.text or "").rstrip("\r\n"), item.children, files)
            name = element_name(item.path)
            path, level = escape_attr(item.path), level_of(item.path)
            out.append(f'<{name} path="{path}" level="{level}">\n{body}\n</{name}>')
        elif item.outcome in ("repeat", "collection"):
            out.append(item.title)
        elif item.outcome == "marker":
            out.append(_MARKER.format(escape_attr(item.path)))
        else:
            out.append(text[item.position.offset : item.position.end])
    out.append(text[at:])
    return "".join(out)


@PROPERTIES
@given(task=st.one_of(st.text(), soup), files=org_files())
def test_the_tree_rebuilds_the_expanders_text_byte_for_byte(
    task: str, files: dict[str, OrgFile]
) -> None:
    found = references(task, files)
    plain = expand_embeds(task, org_id=ORG_ID, reader=READER, lookup=files, task_path=TASK_PATH)
    assert found.expansion == plain  # the expander's own output, unchanged
    assert rebuild(task, found.items, files) == plain.text


@PROPERTIES
@given(task=soup, files=org_files())
def test_markers_notes_bytes_and_collections_are_the_expanders(
    task: str, files: dict[str, OrgFile]
) -> None:
    found = references(task, files)
    expansion = found.expansion
    walked = list(found.walk())
    markers = [(r.path, r.hop, r.in_path) for r in walked if r.outcome == "marker"]
    assert markers == [(b.path, b.hop, b.in_path) for b in expansion.broken]
    inlined = [(r.path, r.hop, r.bytes, r.version) for r in walked if r.outcome == "inlined"]
    assert inlined == [(n.display_path, n.hop, n.bytes, n.version) for n in expansion.notes]
    assert sum(r.bytes or 0 for r in walked) == expansion.embedded_bytes
    collections = [r.path for r in walked if r.outcome == "collection"]
    assert list(dict.fromkeys(collections)) == list(expansion.collections)
    hop_one = [r.path for r in found.items if r.outcome != "named"]
    assert hop_one == list(expansion.embeds)
    for item in walked:
        assert (item.bytes is not None) == (item.outcome == "inlined")
        assert (item.reason is not None) == (item.outcome == "marker")
        assert item.hop in ((3,) if item.outcome == "text" else (1, 2, 3))
        assert item.outcome not in ("inlined", "repeat", "collection", "marker") or item.hop < 3


def expected_reason(path: str, files: dict[str, OrgFile], history: list[EarlierFile]) -> str:
    """The reason, read once more from the rules as plainly as possible."""
    parts = path.split("/")
    well_formed = (
        "\\" not in path
        and len(parts) >= 3
        and parts[0] == "org"
        and all(p not in ("", ".", "..") for p in parts)
    )
    if not (well_formed and parts[1] == ORG_ID):
        other = well_formed and _ORG_ID_FORM.match(parts[1]) is not None
        return "other_org" if other and not path.startswith("recipe:") else "not_display_path"
    found = files.get(path)
    if found is None:
        return "deleted" if any(e.display_path == path for e in history) else "missing"
    if found.kind == "file":
        return "not_note_or_collection"
    readers = {"agent:a_scout", "guild:guild_ops", "org"}
    assert not any(e.principal in readers and e.role in ("read", "write") for e in found.access)
    return "no_access"


@PROPERTIES
@given(task=soup, files=org_files(), history=histories)
def test_every_marker_has_the_reason_a_plain_reading_gives(
    task: str, files: dict[str, OrgFile], history: list[EarlierFile]
) -> None:
    for item in references(task, files, history).markers:
        assert item.reason is not None
        assert item.reason.code == expected_reason(item.path, files, history), item.path
        assert item.reason.message
        if item.reason.code == "no_access":
            assert item.reason.granted == files[item.path].access
            assert [e.principal for e in item.reason.add] == [
                "agent:a_scout",
                "guild:guild_ops",
                "org",
            ]


@PROPERTIES
@given(task=soup, files=org_files())
def test_positions_point_at_each_reference_in_its_file(
    task: str, files: dict[str, OrgFile]
) -> None:
    texts = {TASK_PATH: task, **{p: f.text or "" for p, f in files.items()}}
    for item in references(task, files).walk():
        text = texts[item.in_path]
        start, end = item.position.offset, item.position.end
        written = text[start:end]
        if item.outcome == "named":
            assert written == item.path
            assert not any(m.start() <= start < m.end() for m in EMBED_RE.finditer(text))
        else:
            match = EMBED_RE.fullmatch(written)
            assert match is not None and match.group(1).strip(" \t") == item.path
        assert item.position.line == text.count("\n", 0, start) + 1
        assert item.position.column == start - text.rfind("\n", 0, start)


@PROPERTIES
@given(task=soup, files=org_files())
def test_the_json_lists_the_tree_depth_first(task: str, files: dict[str, OrgFile]) -> None:
    found = references(task, files)
    rows = found.to_json()
    assert [(r["path"], r["hop"], r["in"], r["outcome"]) for r in rows] == [
        (r.path, r.hop, r.in_path, r.outcome) for r in found.walk()
    ]
    for row in rows:
        assert {"path", "hop", "in", "outcome", "bytes", "reason", "line", "column"} <= set(row)
