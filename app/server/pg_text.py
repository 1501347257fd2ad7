"""Text PostgreSQL can't hold, held anyway: NUL characters, escaped on the way in and out.

A Task, note or prompt is any Unicode text, NUL included (SQLite keeps it; the API returns
it byte for byte), but a PostgreSQL ``TEXT`` value cannot contain U+0000. Every string
sent is escaped (U+0000 → U+E000 ``0``, and the escape U+E000 itself doubled) and every
text read is unescaped, in psycopg's own dumper and loader, so queries and the API never
see the difference; a string holding neither character (nearly all) passes unchanged.
Equality keeps working (both sides are escaped); ``LIKE`` narrows no worse than before.
"""

from __future__ import annotations

import re
from typing import Any

from psycopg.adapt import AdaptersMap
from psycopg.types.string import StrDumperUnknown, TextLoader

ESCAPE = "\ue000"
_TO_ESCAPE = re.compile("[\x00\ue000]")
_ESCAPED = re.compile("\ue000(.)", re.DOTALL)


def escape(text: str) -> str:
    if "\x00" not in text and ESCAPE not in text:
        return text
    return _TO_ESCAPE.sub(lambda m: ESCAPE + ("0" if m.group() == "\x00" else ESCAPE), text)


def unescape(text: str) -> str:
    if ESCAPE not in text:
        return text
    return _ESCAPED.sub(lambda m: "\x00" if m.group(1) == "0" else ESCAPE, text)


class _EscapingStrDumper(StrDumperUnknown):
    def dump(self, obj: str) -> Any:
        return super().dump(escape(obj))


class _UnescapingTextLoader(TextLoader):
    def load(self, data: Any) -> Any:
        value = super().load(data)
        return unescape(value) if isinstance(value, str) else value


def register_escaping(adapters: AdaptersMap) -> None:
    """Escape every str sent and unescape every text read, on these adapters."""
    adapters.register_dumper(str, _EscapingStrDumper)
    for name in ("text", "varchar", "bpchar"):
        adapters.register_loader(name, _UnescapingTextLoader)
