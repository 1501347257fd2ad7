"""The Task shape check: advice on how close a Task is to the shape the product writes.

The spec: Prompt Studio and the Guild builder "write a Task to one shape: an opening line,
then Inputs, Work, Outputs, and Files, in headings and bullets, about 300 words". This check
says which parts are missing or out of order, counts the words, and points at long rule sets
that belong in a note. It is advice only: nothing here ever blocks a save.

Rules, so that the advice is predictable:
- a part is a top-level heading whose text is the part's name, singular or plural, any
  case, with or without a final colon (``## Inputs``, ``# Output:``); the first one counts;
- the opening line is the first paragraph, before the first part; a title heading may stand
  above it;
- a part "has bullets" when a list stands under its heading; a part written as prose (a
  paragraph with words, not only embeds) and no list gets a note;
- words are runs of non-space characters holding a letter or digit, each embed counting as
  one; "about 300" is 200 to 400;
- a long rule set is a top-level list of 8 or more items, or of 120 or more words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from app.core.expander import EMBED_RE
from app.core.task_outline import Block, line_starts, outline

PARTS = ("Inputs", "Work", "Outputs", "Files")
WORD_TARGET = 300
WORDS_ABOUT = (200, 400)
RULE_SET_ITEMS = 8
RULE_SET_WORDS = 120
RULE_SET_SENTENCE = (
    "You want a long rule set, or a shared one, in every run: you write it in a note and "
    "embed the note in the Task."
)
_PART_NAMES = {"input": "Inputs", "work": "Work", "output": "Outputs", "file": "Files"}
_WORD = re.compile(r"\S*[^\W_]\S*")

WordVerdict = Literal["under", "about", "over"]


@dataclass(frozen=True, slots=True)
class ShapePart:
    """One of Inputs, Work, Outputs and Files: the 1-based line of its heading (None when
    missing) and whether a list stands under it."""

    name: str
    line: int | None
    has_bullets: bool = False
    prose_only: bool = False


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A long list that reads as a rule set; lines are 1-based and inclusive."""

    line: int
    end_line: int
    items: int
    words: int


@dataclass(frozen=True, slots=True)
class ShapeCheck:
    opening_line: int | None
    parts: tuple[ShapePart, ...]
    missing: tuple[str, ...]
    out_of_order: tuple[str, ...]
    words: int
    rule_sets: tuple[RuleSet, ...]
    advice: tuple[str, ...]
    word_target: int = WORD_TARGET

    @property
    def word_verdict(self) -> WordVerdict:
        low, high = WORDS_ABOUT
        return "under" if self.words < low else "over" if self.words > high else "about"

    @property
    def in_shape(self) -> bool:
        return not self.advice


def check_task_shape(text: str) -> ShapeCheck:
    """Compare ``text`` with the Task shape; every finding comes with one sentence of advice."""
    blocks = outline(text)
    starts = line_starts(text)
    parts = _parts(blocks, text, starts)
    found = [p for p in parts if p.line is not None]
    first_part = min((p.line for p in found if p.line is not None), default=None)
    opening = next((b for b in blocks if b.kind != "heading"), None)
    opening_line = (
        opening.start + 1
        if opening is not None
        and opening.kind == "paragraph"
        and (first_part is None or opening.start + 1 < first_part)
        else None
    )
    missing = tuple(p.name for p in parts if p.line is None)
    out_of_order = _out_of_order([p.name for p in sorted(found, key=lambda p: p.line or 0)])
    words = count_words(text)
    rule_sets = tuple(
        # A list's lines run to the blank line after it; the rule set ends at its last word.
        RuleSet(b.start + 1, b.start + len(line_starts(lines.rstrip())), b.items, n)
        for b in blocks
        if b.kind == "list"
        for lines in [_lines(text, starts, b)]
        for n in [count_words(lines)]
        if b.items >= RULE_SET_ITEMS or n >= RULE_SET_WORDS
    )
    advice = _advice(opening_line, parts, missing, out_of_order, words, rule_sets)
    return ShapeCheck(opening_line, parts, missing, out_of_order, words, rule_sets, advice)


def count_words(text: str) -> int:
    """Words as the shape counts them: an embed is one word, ``-`` and ``#`` are none."""
    embeds = 0

    def one_word(_: re.Match[str]) -> str:
        nonlocal embeds
        embeds += 1
        return " "

    rest = EMBED_RE.sub(one_word, text)
    return embeds + len(_WORD.findall(rest))


def _parts(blocks: tuple[Block, ...], text: str, starts: list[int]) -> tuple[ShapePart, ...]:
    headings = [b for b in blocks if b.kind == "heading"]
    found: dict[str, ShapePart] = {}
    for i, heading in enumerate(headings):
        name = _PART_NAMES.get(heading.title.rstrip(":").strip().lower().removesuffix("s"))
        if name is None or name in found:
            continue
        # The part runs to the next heading of its level or higher.
        end = next(
            (h.start for h in headings[i + 1 :] if h.level <= heading.level), len(starts) + 1
        )
        inside = [b for b in blocks if heading.start < b.start < end]
        bullets = any(b.kind == "list" for b in inside)
        prose = any(
            b.kind == "paragraph" and count_words(EMBED_RE.sub("", _lines(text, starts, b)))
            for b in inside
        )
        found[name] = ShapePart(name, heading.start + 1, bullets, prose and not bullets)
    return tuple(found.get(name, ShapePart(name, None)) for name in PARTS)


def _lines(text: str, starts: list[int], block: Block) -> str:
    begin = starts[block.start] if block.start < len(starts) else len(text)
    end = starts[block.end] if block.end < len(starts) else len(text)
    return text[begin:end]


def _out_of_order(names: list[str]) -> tuple[str, ...]:
    """The parts outside the longest run that keeps the shape's order (earliest first)."""
    ranks = [PARTS.index(n) for n in names]
    best: list[list[int]] = []  # best[i]: the longest in-order choice ending at i
    for i, rank in enumerate(ranks):
        longest: list[int] = []
        for j in range(i):
            if ranks[j] < rank and len(best[j]) > len(longest):
                longest = best[j]
        best.append([*longest, i])
    keep: set[int] = set()
    for run in best:
        if len(run) > len(keep):
            keep = set(run)
    return tuple(n for i, n in enumerate(names) if i not in keep)


def _advice(
    opening_line: int | None,
    parts: tuple[ShapePart, ...],
    missing: tuple[str, ...],
    out_of_order: tuple[str, ...],
    words: int,
    rule_sets: tuple[RuleSet, ...],
) -> tuple[str, ...]:
    said: list[str] = []
    if opening_line is None:
        said.append("Start with an opening line that says what the agent is for.")
    if missing:
        said.append(f"Add {_and(missing)}: the shape has Inputs, Work, Outputs and Files.")
    kept = [p.name for p in sorted(parts, key=lambda p: p.line or 0) if p.line is not None]
    kept = [n for n in kept if n not in out_of_order]
    for name in out_of_order:
        later = [n for n in kept if PARTS.index(n) > PARTS.index(name)]
        where = f"before {later[0]}" if later else f"after {kept[-1]}"
        said.append(f"Move {name} {where}: the parts read Inputs, Work, Outputs, then Files.")
    for part in parts:
        if part.prose_only:
            said.append(f"Write {part.name} (line {part.line}) as bullets.")
    low, high = WORDS_ABOUT
    if words > high:
        said.append(f"{words} words, where the shape is about {WORD_TARGET}: move rules to notes.")
    elif words < low:
        said.append(f"{words} words, where the shape is about {WORD_TARGET}.")
    for rules in rule_sets:
        said.append(
            f"Lines {rules.line}–{rules.end_line} hold a long rule set ({rules.items} items, "
            f"{rules.words} words). {RULE_SET_SENTENCE}"
        )
    return tuple(said)


def _and(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
