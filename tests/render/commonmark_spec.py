"""The CommonMark spec's own examples, and HTML compared the way a reader sees it."""

from __future__ import annotations

import html as html_lib
import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from app.render.sanitise import sanitise_html

SPEC_FILE = Path(__file__).parent / "data" / "commonmark_spec_0.29.json"

# Raw HTML is inert in the preview and links go through the one link rule, so the sections
# about them measure the sanitiser, not the Markdown: left out, as issue 16 measures.
LEFT_OUT = frozenset(
    {
        "HTML blocks",
        "Raw HTML",
        "Entity and numeric character references",
        "Links",
        "Autolinks",
        "Images",
    }
)

_BLOCK = "p|div|table|thead|tbody|tr|th|td|ul|ol|li|pre|blockquote|hr|h[1-6]|dl|dt|dd"
_SPACE_AT_BLOCK = re.compile(rf"\s*(</?(?:{_BLOCK})\b[^>]*>)\s*")


@dataclass(frozen=True)
class SpecExample:
    number: int
    section: str
    markdown: str
    html: str


def spec_examples() -> list[SpecExample]:
    """The examples of the sections the preview's Markdown is measured on."""
    data = json.loads(SPEC_FILE.read_text(encoding="utf-8"))
    return [
        SpecExample(e["example"], e["section"], e["markdown"], e["html"])
        for e in data["examples"]
        if e["section"] not in LEFT_OUT
    ]


class _Canonical(HTMLParser):
    """Tags with their attributes sorted, text with entities decoded, link targets dropped."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        kept = sorted((k, v or "") for k, v in attrs if k != "href")
        shown = "".join(f' {k}="{html_lib.escape(v)}"' for k, v in kept)
        self.out.append(f"<{tag}{shown}>")

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag: str) -> None:
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        self.out.append(html_lib.escape(data, quote=False))


def normalise(fragment: str) -> str:
    """HTML as a reader of the preview meets it: sanitised (what the preview lets through,
    for both sides), link targets ignored (the link rule decides those by design), entities
    decoded, and no whitespace around block tags (it is not shown)."""
    parser = _Canonical()
    parser.feed(sanitise_html(fragment))
    parser.close()
    return _SPACE_AT_BLOCK.sub(r"\1", "".join(parser.out)).strip()
