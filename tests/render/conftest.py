"""The HTML audit the render tests share: parse the output, check it against an allowlist."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest

# What note and Task text may produce. Kept here, apart from the sanitiser's own list, so a
# widened sanitiser fails these tests instead of quietly passing them.
TEXT_TAGS = {
    "a", "b", "blockquote", "br", "code", "dd", "del", "div", "dl", "dt", "em", "h1", "h2",
    "h3", "h4", "h5", "h6", "hr", "i", "li", "ol", "p", "pre", "s", "span", "strong", "sub",
    "sup", "table", "tbody", "td", "th", "thead", "tr", "u", "ul",
}  # fmt: skip
TEXT_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}, "td": {"align"}, "th": {"align"}}
TEXT_SCHEMES = {"http", "https", "mailto"}

# What the preview itself adds around embeds (trusted, built with every value escaped).
EMBED_ATTRIBUTES = {
    "a": {"href", "title", "class"},
    "p": {"class", "style"},
    "span": {"class", "style"},
    "td": {"class"},
    "table": {"class", "width", "border", "cellspacing", "cellpadding", "bgcolor", "style"},
}
EMBED_SCHEME = "taskdesk-embed"
SAFE_STYLE = re.compile(r"^[a-z-]+:[#a-z0-9 ]+$")

_STRIPPED_IN_URLS = re.compile(r"[\x00-\x20]")


@dataclass
class Audit:
    tags: int = 0
    attributes: int = 0
    urls: int = 0
    problems: list[str] = field(default_factory=list)


class _Auditor(HTMLParser):
    def __init__(self, trusted_embeds: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.trusted = trusted_embeds
        self.audit = Audit()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.audit.tags += 1
        if tag not in TEXT_TAGS:
            self.audit.problems.append(f"tag <{tag}>")
        allowed = set(TEXT_ATTRIBUTES.get(tag, set()))
        if self.trusted:
            allowed |= EMBED_ATTRIBUTES.get(tag, set())
        for name, value in attrs:
            self.audit.attributes += 1
            if name not in allowed:
                self.audit.problems.append(f"attribute {name} on <{tag}>")
                continue
            value = value or ""
            if name == "href":
                self._check_url(value)
            if name == "style" and not all(
                SAFE_STYLE.match(part.strip()) for part in value.split(";") if part.strip()
            ):
                self.audit.problems.append(f"style {value!r}")

    handle_startendtag = handle_starttag

    def _check_url(self, url: str) -> None:
        self.audit.urls += 1
        # Browsers drop control characters and spaces before reading the scheme.
        bare = _STRIPPED_IN_URLS.sub("", url)
        schemes = TEXT_SCHEMES | ({EMBED_SCHEME} if self.trusted else set())
        scheme = urlsplit(bare).scheme.lower()
        script_inside = "javascript:" in bare.lower() and scheme not in {"http", "https"}
        if scheme not in schemes or script_inside:
            self.audit.problems.append(f"url {url!r}")

    def handle_comment(self, data: str) -> None:
        self.audit.problems.append(f"comment {data!r}")


def audit(html: str, *, trusted_embeds: bool = False) -> Audit:
    auditor = _Auditor(trusted_embeds)
    auditor.feed(html)
    auditor.close()
    return auditor.audit


@pytest.fixture
def audit_html() -> Callable[..., Audit]:
    return audit


VOID_TAGS = {"br", "hr", "img", "input", "meta", "link", "base", "col", "wbr"}


@dataclass
class Node:
    """A parsed element, enough to ask the preview's HTML about its structure."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def find_all(self, tag: str, css_class: str | None = None) -> list[Node]:
        found: list[Node] = []
        for child in self.children:
            if isinstance(child, Node):
                if child.tag == tag and (
                    css_class is None or child.attrs.get("class") == css_class
                ):
                    found.append(child)
                found.extend(child.find_all(tag, css_class))
        return found


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("root")
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID_TAGS:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse_tree(html: str) -> Node:
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


@pytest.fixture
def parse_html() -> Callable[[str], Node]:
    return parse_tree
