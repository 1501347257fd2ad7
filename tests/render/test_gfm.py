"""The Markdown operators write every day, and GitHub's extensions, rendered as GitHub does."""

from __future__ import annotations

import pytest

from app.render import render_markdown

GOLDEN = [
    pytest.param(
        "Rules:\n- one\n- two",
        "<p>Rules:</p>\n<ul><li>one</li><li>two</li></ul>",
        id="list right after a line of text",
    ),
    pytest.param(
        "- a\n  - b\n    - c\n- d",
        "<ul><li>a\n<ul><li>b\n<ul><li>c</li></ul></li></ul></li><li>d</li></ul>",
        id="list nested by two spaces",
    ),
    pytest.param(
        "1. a\n\n   b\n2. c",
        "<ol><li><p>a</p><p>b</p></li><li><p>c</p></li></ol>",
        id="continuation paragraph stays in its item",
    ),
    pytest.param(
        "3. three\n4. four",
        '<ol start="3"><li>three</li><li>four</li></ol>',
        id="ordered list keeps its start",
    ),
    pytest.param(
        "- [ ] todo\n- [x] done\n- [X] also done",
        "<ul><li>\u2610 todo</li><li>\u2611 done</li><li>\u2611 also done</li></ul>",
        id="task list shown checked or not, no checkbox to click",
    ),
    pytest.param(
        "~~struck~~ and ~single~",
        "<p><s>struck</s> and ~single~</p>",
        id="strikethrough",
    ),
    pytest.param(
        "see https://example.com/a?b=1 and http://example.org.",
        '<p>see <a href="https://example.com/a?b=1">https://example.com/a?b=1</a> and '
        '<a href="http://example.org">http://example.org</a>.</p>',
        id="bare web links",
    ),
    pytest.param(
        "www.example.com, ftp://example.com, me@example.com, mailto:me@example.com",
        "<p>www.example.com, ftp://example.com, me@example.com, mailto:me@example.com</p>",
        id="only http and https are linked bare",
    ),
    pytest.param(
        "| left | right | centre |\n| :--- | ---: | :---: |\n| a | b | c |",
        "<table><thead><tr>"
        '<th align="left">left</th><th align="right">right</th><th align="center">centre</th>'
        "</tr></thead><tbody><tr>"
        '<td align="left">a</td><td align="right">b</td><td align="center">c</td>'
        "</tr></tbody></table>",
        id="table with alignment",
    ),
    pytest.param(
        "```python\ncode\n\n\nmore\n```",
        "<pre><code>code\n\n\nmore\n</code></pre>",
        id="fenced code keeps its blank lines",
    ),
    pytest.param(
        "> quote\nlazy line",
        "<blockquote><p>quote\nlazy line</p></blockquote>",
        id="lazy continuation line",
    ),
]


@pytest.mark.parametrize(("markdown", "expected"), GOLDEN)
def test_everyday_markdown_renders_as_on_github(markdown: str, expected: str) -> None:
    assert render_markdown(markdown) == expected


@pytest.mark.parametrize(
    "markdown",
    [
        "- [ ] <input type=checkbox onclick=alert(1)>",
        '<input class="task-list-item-checkbox" type="checkbox">',
        "[x](javascript:alert(1)) https://ok.example/<script>alert(1)</script>",
        "<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>",
    ],
)
def test_extensions_let_nothing_active_through(markdown: str) -> None:
    html = render_markdown(markdown)
    for active in ("<input", "<script", "onclick", "onerror", 'href="javascript'):
        assert active not in html


def test_a_task_box_written_as_html_is_not_taken_for_a_task() -> None:
    assert "\u2610" not in render_markdown('- <input class="task-list-item-checkbox"> x')
