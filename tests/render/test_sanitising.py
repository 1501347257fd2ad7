"""Hostile Markdown and HTML: after rendering, nothing outside the allowlist remains."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from app.render import PreviewRenderer, render_markdown
from app.render.sanitise import sanitise_html

CORPUS_FILE = Path(__file__).with_name("xss_corpus.txt")


def load_corpus() -> list[str]:
    sections = CORPUS_FILE.read_text(encoding="utf-8").split("\n%%\n")
    return [s.strip("\n") for s in sections[1:] if s.strip()]


CORPUS = load_corpus()


def test_the_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 40


@pytest.mark.parametrize("payload", CORPUS, ids=[f"xss{n:02d}" for n in range(len(CORPUS))])
def test_payload_leaves_nothing_dangerous(payload: str, audit_html: Callable) -> None:
    html = PreviewRenderer().render_markdown(payload)
    result = audit_html(html)
    assert result.problems == [], html


def test_the_audit_catches_what_it_should(audit_html: Callable) -> None:
    # The audit itself must fail on the raw payloads, or the tests above prove nothing.
    caught = sum(1 for p in CORPUS if audit_html(p).problems)
    assert caught >= 40
    found = audit_html('<a href="java\tscript:x">a</a><img src=x><p style="x">t</p><!-- c -->')
    assert len(found.problems) == 5


def test_the_whole_corpus_at_once_is_clean(audit_html: Callable) -> None:
    html = render_markdown("\n\n".join(CORPUS), PreviewRenderer())
    result = audit_html(html)
    assert result.problems == []
    assert result.tags > 100 and result.urls > 5


def test_images_become_text_placeholders() -> None:
    html = render_markdown('![Team "chart" <1>](https://example.com/c.png) and ![](x.png)')
    assert "<img" not in html
    assert "[image: Team &quot;chart&quot; &lt;1&gt;]" in html or (
        '[image: Team "chart" &lt;1&gt;]' in html
    )
    assert "[image]" in html


def test_safe_links_survive() -> None:
    html = sanitise_html(
        '<a href="https://example.com/a?b=1&amp;c=2">w</a> <a href="mailto:ops@example.com">m</a>'
    )
    assert 'href="https://example.com/a?b=1&amp;c=2"' in html
    assert 'href="mailto:ops@example.com"' in html


def test_relative_and_fragment_links_lose_their_target() -> None:
    html = render_markdown("[a](notes/x.md) [b](#top) [c](/etc/passwd)")
    assert "href" not in html
    assert "<a>a</a>" in html


def test_our_embed_scheme_is_refused_in_text() -> None:
    html = render_markdown("[x](taskdesk-embed:org/o/secret.md)")
    assert "taskdesk-embed" not in html


def test_markdown_structure_is_kept() -> None:
    html = render_markdown(
        "# H\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\n1. one\n2. two\n\n```py\nx = 1\n```"
    )
    for piece in ("<h1>H</h1>", '<td align="left">1</td>', "<ol>", "<pre><code>x = 1"):
        assert piece in html
    assert "class=" not in html
