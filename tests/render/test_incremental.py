"""Incremental rendering: a warm cache gives exactly what a cold render gives."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.expander import expand_embeds
from app.core.models import AccessEntry, OrgFile, Reader
from app.render import PreviewRenderer
from app.render.block_split import BlockSplitter
from app.render.commonmark import new_markdown
from app.render.markdown_blocks import MarkdownBlocks, compact_html
from app.render.sanitise import sanitise_html

ORG = "o_acme"
OPEN = (AccessEntry("org", "read"),)
NOTE = f"org/{ORG}/n.md"
FILES = {
    NOTE: OrgFile(NOTE, "note", "N", "note *body*\n\n- a\n- b", access=OPEN),
    f"org/{ORG}/c": OrgFile(f"org/{ORG}/c", "collection", "C", access=OPEN),
}

SNIPPETS = [
    "# Heading",
    "Some *text* here.",
    "- one\n- two",
    "- loose\n\n- list",
    "1. first\n2. second",
    "```\ncode\n\nmore code\n```",
    "    indented\n\n    code",
    "| a | b |\n| - | - |\n| 1 | 2 |",
    "> quoted\n> text",
    "[link][r]",
    "[r]: https://example.com",
    "<div>raw <b>html</b></div>",
    f"![[{NOTE}]]",
    f"see ![[org/{ORG}/c]] inline",
    f"![[org/{ORG}/missing.md]]",
    "",
    "text with `code`",
    "Rules:\n- one\n  - nested\n- two",
    "1. a\n\n   b\n2. c",
    "> lazy\ncontinued",
    "- [ ] todo\n- [x] done",
    "| a |\n| - |",
    "Title\n---",
    "~~~\nfence\n\n\nwith blanks\n~~~",
]
EDIT_CHARS = [
    "\n", "\n\n", " ", "`", "-", "*", "#", "[", "]", "x", "    ", "|", "!", "```",
    "> ", "- ", "  ", "1. ", "| - |", "---", "~~~", "]: https://e.com",
]  # fmt: skip


def build(parts: list[str]) -> str:
    return "\n\n".join(parts)


def render_preview_text(renderer: PreviewRenderer, text: str) -> str:
    expansion = expand_embeds(text, org_id=ORG, reader=Reader("a", "g"), lookup=FILES)
    return renderer.render_preview(expansion)


edits = st.lists(
    st.tuples(st.integers(min_value=0), st.integers(0, 3), st.sampled_from(EDIT_CHARS)),
    min_size=1,
    max_size=8,
)


def apply(text: str, at: int, cut: int, insert: str) -> str:
    at = at % (len(text) + 1)
    return text[:at] + insert + text[at + cut :]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(SNIPPETS), min_size=1, max_size=10), edits)
def test_warm_render_after_edits_equals_a_cold_render(
    parts: list[str], changes: list[tuple[int, int, str]]
) -> None:
    warm = PreviewRenderer()
    text = build(parts)
    render_preview_text(warm, text)
    for at, cut, insert in changes:
        text = apply(text, at, cut, insert)
        assert render_preview_text(warm, text) == render_preview_text(PreviewRenderer(), text)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(SNIPPETS[:12] + SNIPPETS[15:]), min_size=1, max_size=10), edits)
def test_warm_markdown_after_edits_equals_a_cold_render(
    parts: list[str], changes: list[tuple[int, int, str]]
) -> None:
    warm = MarkdownBlocks()
    text = build(parts)
    warm.render(text)
    for at, cut, insert in changes:
        text = apply(text, at, cut, insert)
        assert warm.render(text) == MarkdownBlocks().render(text)


def whole(text: str) -> str:
    return compact_html(sanitise_html(new_markdown().render(text)))


MARKDOWN_SNIPPETS = SNIPPETS[:12] + SNIPPETS[15:]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(MARKDOWN_SNIPPETS), min_size=1, max_size=10),
    st.sampled_from(["\n\n", "\n"]),
)
def test_block_rendering_matches_a_whole_document_render(parts: list[str], joint: str) -> None:
    # Lines between blocks differ only in blank lines, which the preview does not show.
    text = joint.join(parts)

    def lines(html: str) -> list[str]:
        return [line for line in compact_html(html).split("\n") if line]

    assert lines(MarkdownBlocks().render(text)) == lines(whole(text))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(MARKDOWN_SNIPPETS), min_size=1, max_size=12), edits)
def test_blocks_found_after_an_edit_are_the_blocks_of_a_fresh_parse(
    parts: list[str], changes: list[tuple[int, int, str]]
) -> None:
    splitter = BlockSplitter()
    text = build(parts)
    splitter.split(text)
    for at, cut, insert in changes:
        text = apply(text, at, cut, insert)
        assert splitter.split(text) == BlockSplitter().split(text)


def test_a_link_definition_applies_across_blocks() -> None:
    text = "First [a][r].\n\n- item [b][r]\n\n> [r]: https://example.com/x 'T'\n\n[r]: /no"
    html = MarkdownBlocks().render(text)
    assert html.count('href="https://example.com/x"') == 2
    assert compact_html(html) == whole(text).strip("\n")


def test_only_changed_blocks_are_rendered_again() -> None:
    blocks = MarkdownBlocks()
    text = build([f"Paragraph {n} with *emphasis*." for n in range(50)])
    blocks.render(text)
    cached = len(blocks._cache)
    blocks.render(text.replace("Paragraph 7 ", "Paragraph seven "))
    assert len(blocks._cache) == cached + 1


def test_split_keeps_fences_lists_quotes_and_continuations_whole() -> None:
    text = (
        "a\n\n```\nx\n\n\ny\n```\n\n- 1\n\n- 2\n  more\n\n      code\n\n"
        "1. a\n\n   b\n\n> quote\nlazy line\n\nText\n- list right after"
    )
    assert BlockSplitter().split(text) == [
        "a\n",
        "```\nx\n\n\ny\n```\n",
        "- 1\n\n- 2\n  more\n\n      code\n\n",  # a list takes the blank line after it
        "1. a\n\n   b\n\n",
        "> quote\nlazy line\n",
        "Text\n",
        "- list right after",
    ]


def test_an_unclosed_fence_runs_to_the_end_as_commonmark_says() -> None:
    assert BlockSplitter().split("```\nopen\n\nnext") == ["```\nopen\n\nnext"]


def test_an_edit_far_into_a_long_text_parses_only_near_it() -> None:
    text = build([f"Paragraph {n}\n- item {n}" for n in range(400)])
    splitter = BlockSplitter()
    before = splitter.split(text)
    after = splitter.split(text.replace("item 200", "item two hundred"))
    changed = [n for n, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]
    assert changed == [401]


def test_deep_nesting_is_shown_not_raised() -> None:
    html = MarkdownBlocks().render(">" * 2000 + " deep")
    assert "deep" in html


def test_a_one_word_edit_renders_one_commonmark_block_again() -> None:
    # Block shapes Python-Markdown split wrongly: a list item's continuation paragraph, a
    # lazy continuation line, fenced code with blank lines, a list right after its line.
    shapes = [
        "1. item\n\n   continued {n}",
        "> quoted\nlazy {n}",
        "```\ncode\n\n\nafter blanks {n}\n```",
        "Rules {n}:\n- one\n  - nested",
    ]
    text = build([shapes[n % 4].format(n=n) for n in range(200)])
    blocks = MarkdownBlocks()
    blocks.render(text)
    for word in ("continued 40", "lazy 41", "after blanks 42", "Rules 43"):
        before = len(blocks._cache)
        edited = text.replace(word, word + " edited")
        assert blocks.render(edited) == MarkdownBlocks().render(edited)
        assert len(blocks._cache) - before == 1, word


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(MARKDOWN_SNIPPETS), min_size=1, max_size=12),
    edits,
    st.sampled_from(["\n\n", "\n"]),
)
def test_a_text_parsed_once_renders_as_its_blocks_parsed_alone(
    parts: list[str], changes: list[tuple[int, int, str]], joint: str
) -> None:
    # The first render of a text parses it whole once and renders every block from that
    # parse; it must give, byte for byte, what parsing each block alone gives.
    text = joint.join(parts)
    for at, cut, insert in changes:
        text = apply(text, at, cut, insert)
    assert MarkdownBlocks().render(text) == MarkdownBlocks(one_parse=False).render(text)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(SNIPPETS), min_size=1, max_size=10), edits)
def test_a_preview_parsed_once_renders_as_its_blocks_parsed_alone(
    parts: list[str], changes: list[tuple[int, int, str]]
) -> None:
    text = build(parts)
    for at, cut, insert in changes:
        text = apply(text, at, cut, insert)
    twice = PreviewRenderer()
    twice.blocks = MarkdownBlocks(one_parse=False)
    assert render_preview_text(PreviewRenderer(), text) == render_preview_text(twice, text)


def test_a_cold_render_parses_the_text_once() -> None:
    text = build([f"Paragraph {n} with *emphasis*.\n\n- item {n}" for n in range(50)])
    blocks = MarkdownBlocks()
    parses: list[str] = []
    md = blocks._markdown()
    parse = md.parse

    def counted(src: str, env: object = None) -> object:
        parses.append(src)
        return parse(src, env)

    md.parse = counted  # type: ignore[method-assign]
    parser = blocks._splitter._parser
    block_parse = parser.parse
    parser.parse = counted  # type: ignore[method-assign]
    try:
        html = blocks.render(text)
    finally:
        parser.parse = block_parse  # type: ignore[method-assign]
    assert parses == [text]
    assert html == MarkdownBlocks(one_parse=False).render(text)
