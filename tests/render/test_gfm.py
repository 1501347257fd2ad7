"""The Markdown operators write every day, and GitHub's extensions, rendered as GitHub does."""

from __future__ import annotations

import pytest

from app.render import render_markdown

GOLDEN = [
    pytest.param(
        "Rules:\n- one\n- two",
        "<p>Rules:</p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>",
        id="list right after a line of text",
    ),
    pytest.param(
        "- a\n  - b\n    - c\n- d",
        "<ul>\n<li>a\n<ul>\n<li>b\n<ul>\n<li>c</li>\n</ul>\n</li>\n</ul>\n</li>\n<li>d</li>\n</ul>",
        id="list nested by two spaces",
    ),
    pytest.param(
        "1. a\n\n   b\n2. c",
        "<ol>\n<li>\n<p>a</p>\n<p>b</p>\n</li>\n<li>\n<p>c</p>\n</li>\n</ol>",
        id="continuation paragraph stays in its item",
    ),
    pytest.param(
        "3. three\n4. four",
        '<ol start="3">\n<li>three</li>\n<li>four</li>\n</ol>',
        id="ordered list keeps its start",
    ),
    pytest.param(
        "- [ ] todo\n- [x] done\n- [X] also done",
        "<ul>\n<li>\u2610 todo</li>\n<li>\u2611 done</li>\n<li>\u2611 also done</li>\n</ul>",
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
        "<table>\n<thead>\n<tr>\n"
        '<th align="left">left</th>\n<th align="right">right</th>\n<th align="center">centre</th>\n'
        "</tr>\n</thead>\n<tbody>\n<tr>\n"
        '<td align="left">a</td>\n<td align="right">b</td>\n<td align="center">c</td>\n'
        "</tr>\n</tbody>\n</table>",
        id="table with alignment",
    ),
    pytest.param(
        "```python\ncode\n\n\nmore\n```",
        "<pre><code>code\n\n\nmore\n</code></pre>",
        id="fenced code keeps its blank lines",
    ),
    pytest.param(
        "> quote\nlazy line",
        "<blockquote>\n<p>quote\nlazy line</p>\n</blockquote>",
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
