"""The preview of an expanded Task: each kind of embed drawn as its own block or chip."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote

import pytest

from app.core.expander import Expansion, expand_embeds
from app.core.models import AccessEntry, OrgFile, Reader
from app.render import PreviewRenderer, classify_link, render_plain, render_preview

ORG = "o_acme"
READER = Reader("a_scout", "guild_ops")
OPEN = (AccessEntry("org", "read"),)
STYLE = f"org/{ORG}/guilds/guild_ops/style-guide.md"
TONE = f"org/{ORG}/guilds/guild_ops/tone.md"
DEEP = f"org/{ORG}/deep.md"
CUSTOMERS = f"org/{ORG}/guilds/guild_ops/customers"
SECRET = f"org/{ORG}/secret.md"


def workspace(**overrides: OrgFile) -> dict[str, OrgFile]:
    files = {
        STYLE: OrgFile(
            STYLE, "note", "Style guide", f"Write *short* sentences.\n\n![[{TONE}]]\n", access=OPEN
        ),
        TONE: OrgFile(TONE, "note", "Tone", f"Be kind. ![[{DEEP}]]", access=OPEN),
        DEEP: OrgFile(DEEP, "note", "Deep", "Too deep.", access=OPEN),
        CUSTOMERS: OrgFile(CUSTOMERS, "collection", "Customers", access=OPEN),
        SECRET: OrgFile(SECRET, "note", "Secret", "hidden", access=()),
    }
    files.update(overrides)
    return files


def expand(text: str, files: dict[str, OrgFile] | None = None) -> Expansion:
    return expand_embeds(text, org_id=ORG, reader=READER, lookup=files or workspace())


def render(text: str, files: dict[str, OrgFile] | None = None) -> str:
    return PreviewRenderer().render_preview(expand(text, files))


def link_target(node) -> str:  # type: ignore[no-untyped-def]
    action = classify_link(node.attrs["href"])
    assert action.kind == "embed"
    return action.target


def test_inlined_note_is_a_headed_block_with_its_body(parse_html: Callable) -> None:
    tree = parse_html(render(f"# Task\n\n![[{STYLE}]]\n\nAfter."))
    (outer, inner) = tree.find_all("table", "embed-note")
    header = outer.find_all("p", "embed-header")[0]
    assert "Style guide" in header.text()
    assert STYLE in header.text()
    assert "guild" in header.text()
    assert link_target(header.find_all("a", "embed-note-link")[0]) == STYLE
    assert outer.find_all("em")[0].text() == "short"  # the body is rendered Markdown
    # hop 2: the note inside the note is a block of its own, tinted apart
    assert "Tone" in inner.find_all("p", "embed-header")[0].text()
    assert outer.find_all("td")[0].attrs["class"] == "embed-hop-1"
    assert inner.find_all("td")[0].attrs["class"] == "embed-hop-2"
    # hop 3 stays as written
    assert f"![[{DEEP}]]" in inner.text()
    assert tree.find_all("p")[-1].text() == "After."


def test_a_note_alone_in_its_paragraph_replaces_the_paragraph() -> None:
    html = render(f"![[{STYLE}]]")
    assert html.startswith('<table class="embed-note"')


def test_collection_is_a_chip_with_its_name(parse_html: Callable) -> None:
    tree = parse_html(render(f"Rows from ![[{CUSTOMERS}]] only."))
    (chip,) = tree.find_all("a", "embed-collection")
    assert "Customers" in chip.text()
    assert link_target(chip) == CUSTOMERS
    assert chip.find_all("span")[0].attrs["class"] == "chip-collection"
    assert tree.find_all("p")[0].text().startswith("Rows from ")


def test_repeat_is_a_subtle_chip_with_the_title(parse_html: Callable) -> None:
    tree = parse_html(render(f"![[{DEEP}]]\n\nAgain: ![[{DEEP}]]"))
    assert len(tree.find_all("table", "embed-note")) == 1
    (chip,) = tree.find_all("a", "embed-repeat")
    assert chip.text().strip() == "Deep"
    assert link_target(chip) == DEEP


def test_unreachable_embed_is_a_red_marker_naming_the_path(parse_html: Callable) -> None:
    tree = parse_html(render(f"See ![[{SECRET}]] and ![[recipe:old]]."))
    chips = tree.find_all("a", "embed-marker")
    assert [link_target(c) for c in chips] == [SECRET, "recipe:old"]
    for chip, path in zip(chips, [SECRET, "recipe:old"], strict=True):
        assert path in chip.text() and "not reachable" in chip.text()
        assert chip.find_all("span")[0].attrs["class"] == "chip-marker"
    assert "hidden" not in tree.text()


def test_embed_in_a_code_block_is_a_chip_not_a_block(parse_html: Callable) -> None:
    tree = parse_html(render(f"```\nuse ![[{STYLE}]] here\n```"))
    (pre,) = tree.find_all("pre")
    assert pre.find_all("a", "embed-note-chip")[0].text().strip().endswith("Style guide")
    assert tree.find_all("table") == []


def test_embed_inside_a_link_target_stays_text(parse_html: Callable, audit_html: Callable) -> None:
    html = render(f"[doc](https://example.com/![[{CUSTOMERS}]]) and [x](![[{SECRET}]])")
    tree = parse_html(html)
    (web, bare) = tree.find_all("a")
    assert web.attrs["href"] == f"https://example.com/![[{CUSTOMERS}]]"
    assert "href" not in bare.attrs
    assert audit_html(html, trusted_embeds=True).problems == []


HOSTILE = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "javascript:alert(1)",
    "' onmouseover='alert(1)",
    "a&amp;b <b>bold</b>",
    "</td></tr></table><iframe src=x>",
]


@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_titles_and_paths_are_escaped(
    hostile: str, parse_html: Callable, audit_html: Callable
) -> None:
    path = f"org/{ORG}/guilds/guild_ops/{hostile}.md"
    coll = f"org/{ORG}/c/{hostile}"
    files = workspace(
        **{
            path: OrgFile(path, "note", hostile, f"body {hostile}", access=OPEN),
            coll: OrgFile(coll, "collection", hostile, access=OPEN),
        }
    )
    missing = f"org/{ORG}/missing/{hostile}"
    html = render(f"![[{path}]]\n\n![[{path}]] ![[{coll}]] ![[{missing}]]", files)
    result = audit_html(html, trusted_embeds=True)
    assert result.problems == [], html
    tree = parse_html(html)
    header = tree.find_all("p", "embed-header")[0]
    assert hostile in header.text()  # shown as text, exactly as written
    assert link_target(tree.find_all("a", "embed-repeat")[0]) == path
    assert hostile in tree.find_all("a", "embed-collection")[0].text()
    marker = tree.find_all("a", "embed-marker")[0]
    assert unquote(marker.attrs["href"].split(":", 1)[1]) == missing


def test_text_that_looks_like_a_placeholder_is_left_alone() -> None:
    html = render(f"TDEMBED0Z and TDEMBEDX0Z stay. ![[{CUSTOMERS}]]")
    assert "TDEMBED0Z and TDEMBEDX0Z stay." in html
    assert "Customers" in html


def test_no_embeds_renders_plain_markdown() -> None:
    assert render("Just *text*.") == "<p>Just <em>text</em>.</p>"


def test_note_bodies_are_cached_by_content() -> None:
    renderer = PreviewRenderer()
    first = renderer.render_preview(expand(f"![[{STYLE}]]"))
    changed = workspace(
        **{STYLE: OrgFile(STYLE, "note", "Style guide", "Now *different*.", access=OPEN)}
    )
    second = renderer.render_preview(expand(f"![[{STYLE}]]", changed))
    assert "short" in first and "short" not in second
    assert "different" in second


def test_render_preview_uses_a_shared_renderer_by_default() -> None:
    assert render_preview(expand("*x*")) == "<p><em>x</em></p>"


def test_render_plain_shows_text_as_written() -> None:
    assert render_plain("<b>x</b>\n# y") == (
        '<pre style="white-space: pre-wrap;">&lt;b&gt;x&lt;/b&gt;\n# y</pre>'
    )


def test_unchecked_markers_say_not_checked_instead_of_unreachable() -> None:
    from app.core.expander import expand_embeds
    from app.core.models import Reader
    from app.render import render_preview

    text = "See ![[org/o_acme/a.md]] and ![[org/o_acme/b.md]]."
    expansion = expand_embeds(
        text, org_id="o_acme", reader=Reader("a_x", "g_x"), lookup={}, task_path=""
    )
    html = render_preview(expansion, unchecked=frozenset({"org/o_acme/a.md"}))
    assert "org/o_acme/a.md — not checked" in html
    assert "org/o_acme/b.md — not reachable" in html
    assert "org/o_acme/a.md — not reachable" not in html
