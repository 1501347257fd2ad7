"""Preview HTML cut into top-level blocks, and the range an update changes (no Qt)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.render.html_blocks import (
    Patch,
    changed_chars,
    patch_range,
    plan_patch,
    split_top_level_html,
)


def _preview_html() -> str:
    """A real preview: headings, lists, code, links and an inlined note, about 60 KB."""
    from app.core.expander import expand_embeds
    from app.core.models import AccessEntry, OrgFile, Reader
    from app.render import render_preview

    note = "org/o_acme/guilds/guild_ops/style-guide.md"
    files = {
        note: OrgFile(
            note, "note", "Style guide", "- short\n- *clear*\n", 1, (AccessEntry("org", "read"),)
        )
    }
    sections = [
        f"## Section {i}\n\nSome **bold** and `code` and [a link](https://example.com/{i}).\n\n"
        f"- one\n- two ![[{note}]]\n\n```\ncode {i}\n```\n\n> quoted {i}\n"
        for i in range(300)
    ]
    text = f"# Task\n\nFollow ![[{note}]].\n\n" + "\n".join(sections)
    expansion = expand_embeds(text, org_id="o_acme", reader=Reader("a", "g"), lookup=files)
    return render_preview(expansion)


def test_split_cuts_only_between_top_level_blocks() -> None:
    html = _preview_html()
    pieces = split_top_level_html(html, 2_000)
    assert len(pieces) > 10
    assert "".join(pieces) == html
    for piece in pieces[:-1]:
        assert piece.rstrip().endswith(
            (
                "</p>",
                "</ul>",
                "</ol>",
                "</pre>",
                "</table>",
                "</blockquote>",
                "</h2>",
                "</h1>",
                "</div>",
            )
        )


def test_split_keeps_nested_blocks_and_void_tags_inside_their_block() -> None:
    html = "<ul><li><p>a<br>b</p></li></ul><p>c<img src='x'/></p>tail"
    assert split_top_level_html(html) == [
        "<ul><li><p>a<br>b</p></li></ul>",
        "<p>c<img src='x'/></p>",
        "tail",
    ]


def test_split_joins_small_blocks_up_to_the_chunk_size() -> None:
    html = "<p>one</p><p>two</p><p>three</p>"
    assert split_top_level_html(html, 15) == ["<p>one</p><p>two</p>", "<p>three</p>"]
    assert split_top_level_html("") == []


def test_patch_range_is_the_changed_middle() -> None:
    old = ["<h1>T</h1>", "<p>a</p>", "<p>b</p>", "<p>z</p>"]
    new = ["<h1>T</h1>", "<p>A</p>", "<p>new</p>", "<p>b</p>", "<p>z</p>"]
    assert patch_range(old, new) == (1, 2, 3)
    assert changed_chars(old, new, (1, 2, 3)) == len("<p>a</p>") + len("<p>A</p><p>new</p>")


def test_patch_range_needs_an_unchanged_first_block() -> None:
    assert patch_range(["<p>a</p>", "<p>b</p>"], ["<p>A</p>", "<p>b</p>"]) is None
    assert patch_range(["<p>a</p>"], ["<p>a</p>"]) is None  # nothing changed


def test_plan_patch_says_when_to_build_afresh() -> None:
    old = ["<h1>T</h1>", "<p>a</p>", "<p>b</p>"]
    new = ["<h1>T</h1>", "<p>changed</p>", "<p>b</p>"]
    assert plan_patch(None, new) is None  # nothing shown yet
    assert plan_patch(old, list(old)) == Patch(None)  # the same blocks: nothing to do
    assert plan_patch(old, new) == Patch((1, 2, 2))
    assert plan_patch(old, new, max_changed_chars=10) is None  # too much to patch in place
    assert plan_patch(old, ["<h1>U</h1>", *old[1:]]) is None  # the first block changed


BLOCKS = st.lists(st.sampled_from(["<p>a</p>", "<p>b</p>", "<ul><li>c</li></ul>"]), max_size=8)


@settings(max_examples=300, deadline=None)
@given(BLOCKS, BLOCKS)
def test_applying_a_patch_range_gives_the_new_blocks(old: list[str], new: list[str]) -> None:
    head = ["<h1>Task</h1>"]
    before, after = head + old, head + new
    span = patch_range(before, after)
    if span is None:
        assert before == after
        return
    first, old_stop, new_stop = span
    assert before[:first] + after[first:new_stop] + before[old_stop:] == after
