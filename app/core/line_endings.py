"""A Task's own line endings, kept through an editor that shows every line break as ``\\n``.

The editor turns ``\\r\\n``, ``\\r``, U+2028 and U+2029 into ``\\n`` on load. Writing that
back would change every line of a CRLF Task. `LineEndings` remembers the text as loaded and
gives back the edited text with the loaded bytes everywhere outside the edit: unchanged lines
keep their own break, new lines take the Task's convention (its most common break).
"""

from __future__ import annotations

import bisect
import re
from difflib import SequenceMatcher

BREAK = re.compile(r"\r\n|\r|\n|\u2028|\u2029")
"""Every sequence the editor shows as one line break."""

_TOKEN = re.compile(r"\r\n|\r|\n|\u2028|\u2029|[^\r\n\u2028\u2029]+")


def editor_form(text: str) -> str:
    """``text`` as the editor shows it: every line break one ``\\n``."""
    return BREAK.sub("\n", text)


class LineEndings:
    """The line breaks of one loaded text, to put back into its edited form."""

    __slots__ = ("_crlf_at", "convention", "form", "original", "uniform")

    def __init__(self, original: str) -> None:
        self.original = original
        # Counted by str.count (C speed), not by a regex match per line: every Task load
        # does this on the GUI thread (a 256 KB Task has ~5,000 lines).
        crlf = original.count("\r\n")
        breaks = {
            "\n": original.count("\n") - crlf,
            "\r\n": crlf,
            "\r": original.count("\r") - crlf,
            "\u2028": original.count("\u2028"),
            "\u2029": original.count("\u2029"),
        }
        # Ties go to the first in this order: LF, then CRLF, then the rarer ones.
        order = list(breaks)
        self.convention = max(order, key=lambda b: (breaks[b], -order.index(b)))
        self.uniform = {b for b, n in breaks.items() if n} <= {self.convention}
        self.form = original if self.uniform and self.convention == "\n" else editor_form(original)
        # Where each CRLF sits in the editor's form: the one place the two lengths differ.
        self._crlf_at: list[int] = []
        if crlf:
            shift = 0
            for m in BREAK.finditer(original):
                if m.group() == "\r\n":
                    self._crlf_at.append(m.start() - shift)
                    shift += 1

    def restore(self, edited: str) -> str:
        """``edited`` (the editor's form) with the original bytes outside the edit."""
        if edited == self.form:
            return self.original
        if self.uniform:
            return edited if self.convention == "\n" else edited.replace("\n", self.convention)
        start = _common_prefix(self.form, edited)
        end_cap = min(len(self.form), len(edited)) - start
        tail = _common_suffix(self.form, edited, end_cap)
        old_start, old_end = self._original_at(start), self._original_at(len(self.form) - tail)
        middle = self._merge(self.original[old_start:old_end], edited[start : len(edited) - tail])
        return _join([self.original[:old_start], *middle, self.original[old_end:]])

    def _original_at(self, index: int) -> int:
        """The index in the original text of ``index`` in the editor's form."""
        return index + bisect.bisect_left(self._crlf_at, index)

    def _merge(self, old: str, new: str) -> list[str]:
        """The edited span, as runs of text and single breaks: a break matched to one of
        the old span keeps its bytes, a new one takes the convention."""
        old_tokens = _TOKEN.findall(old)
        new_tokens = _TOKEN.findall(new)
        old_forms = [editor_form(t) for t in old_tokens]
        out: list[str] = []
        matcher = SequenceMatcher(None, old_forms, new_tokens, autojunk=False)
        for op, a1, a2, b1, b2 in matcher.get_opcodes():
            if op == "equal":
                out.extend(old_tokens[a1:a2])
            else:
                out.extend(self.convention if t == "\n" else t for t in new_tokens[b1:b2])
        return out


def _join(pieces: list[str]) -> str:
    """The pieces as one text, never letting a lone CR and a LF meet as one CRLF break: the
    LF's piece (the edit's side) then starts with a CR of its own."""
    out: list[str] = []
    for piece in pieces:
        if piece and out and out[-1].endswith("\r") and piece.startswith("\n"):
            piece = "\r" + piece
        if piece:
            out.append(piece)
    return "".join(out)


def _common_prefix(a: str, b: str) -> int:
    """Length of the common start of ``a`` and ``b``, by halving (slices compare in C)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        mid = (low + high + 1) // 2
        if a[:mid] == b[:mid]:
            low = mid
        else:
            high = mid - 1
    return low


def _common_suffix(a: str, b: str, cap: int) -> int:
    """Length of the common end of ``a`` and ``b``, at most ``cap``."""
    low, high = 0, cap
    while low < high:
        mid = (low + high + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            low = mid
        else:
            high = mid - 1
    return low
