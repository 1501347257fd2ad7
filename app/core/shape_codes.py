"""The shape check's findings as short, stable codes (the fleet's column and CI's JSON)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the check loads markdown-it: only when a Task is checked (not at start)
    from app.core.task_shape import ShapeCheck


def shape_codes(check: ShapeCheck) -> tuple[str, ...]:
    """One code per finding, in the order the check gives its advice: ``no_opening``,
    ``missing_<part>``, ``order_<part>``, ``prose_<part>``, ``words_over`` / ``words_under``,
    ``rule_set``."""
    codes: list[str] = []
    if check.opening_line is None:
        codes.append("no_opening")
    codes += [f"missing_{name.lower()}" for name in check.missing]
    codes += [f"order_{name.lower()}" for name in check.out_of_order]
    codes += [f"prose_{p.name.lower()}" for p in check.parts if p.prose_only]
    if check.word_verdict != "about":
        codes.append(f"words_{check.word_verdict}")
    codes += ["rule_set" for _ in check.rule_sets]
    return tuple(codes)


def task_shape_codes(text: str) -> tuple[str, ...]:
    from app.core.task_shape import check_task_shape

    return shape_codes(check_task_shape(text))


def shape_words(code: str) -> str:
    """A finding's code as an operator reads it in the fleet: ``missing_inputs`` → "no
    Inputs"; an unknown code (a newer server's) as it came."""
    kind, _, part = code.partition("_")
    name = part.capitalize()
    words = {
        "missing": f"no {name}",
        "order": f"{name} out of order",
        "prose": f"{name} is prose only",
    }
    if code == "no_opening":
        return "no opening line"
    if code == "words_over":
        return "too long"
    if code == "words_under":
        return "too short"
    if code == "rule_set":
        return "a rule set"
    return words.get(kind, code) if part else code
