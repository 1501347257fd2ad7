"""Moving a note: every embed of its old path rewritten to the new one, as a change set's edit.

Only real embeds are rewritten (``![[old]]``, with any spaces inside its brackets kept):
a plain ``[[name]]``, a bare path and an embed inside a code fence or an indented code block
are left as written, since there the path is an example, not a reference. (A run still
expands an embed inside a fence, EXPANSION.md 1: ``fenced_embeds`` names the Tasks where
one stays, so the preview can say that it will get the marker after the move.)
"""

from __future__ import annotations

from functools import lru_cache

from markdown_it import MarkdownIt

from app.core.change_plan import BadEditError, Edit
from app.core.expander import EMBED_RE, element_name, embed_path, level_of
from app.core.task_outline import line_starts


@lru_cache(maxsize=1)
def _blocks() -> MarkdownIt:
    return MarkdownIt("commonmark").disable(["inline", "text_join"])


def code_spans(text: str) -> list[tuple[int, int]]:
    """The character ranges of the text's fenced and indented code blocks, at any depth."""
    starts = line_starts(text)
    spans = []
    for token in _blocks().parse(text):
        if token.type in ("fence", "code_block") and token.map is not None:
            first, last = token.map
            begin = starts[first] if first < len(starts) else len(text)
            end = starts[last] if last < len(starts) else len(text)
            spans.append((begin, end))
    return spans


def _inside(at: int, spans: list[tuple[int, int]]) -> bool:
    return any(begin <= at < end for begin, end in spans)


def move_embeds_edit(old_path: str, new_path: str) -> Edit:
    """The edit that points every embed of ``old_path`` (outside code) at ``new_path``."""
    old_path, new_path = old_path.strip(), new_path.strip()
    if not old_path or not new_path or "[" in new_path or "]" in new_path:
        raise BadEditError("Give the note's path and the path to move it to.")
    if old_path == new_path:
        raise BadEditError("The new path is the note's path: nothing would move.")

    def edit(text: str) -> str:
        if old_path not in text:
            return text
        spans = code_spans(text)
        parts, at = [], 0
        for match in EMBED_RE.finditer(text):
            if embed_path(match.group(1)) != old_path or _inside(match.start(), spans):
                continue
            inner = match.group(1)
            lead = inner[: len(inner) - len(inner.lstrip(" \t"))]
            trail = inner[len(inner.rstrip(" \t")) :]
            parts += [text[at : match.start()], f"![[{lead}{new_path}{trail}]]"]
            at = match.end()
        return "".join(parts) + text[at:] if parts else text

    return edit


def fenced_embeds(text: str, path: str) -> int:
    """How many embeds of ``path`` stand inside code, where a move leaves them as written."""
    spans = code_spans(text)
    return sum(
        1
        for m in EMBED_RE.finditer(text)
        if embed_path(m.group(1)) == path and _inside(m.start(), spans)
    )


def new_path_problem(old_path: str, new_path: str, org_id: str) -> str:
    """The one sentence that keeps a move from starting, or "" (the server checks again)."""
    new_path = new_path.strip()
    if not new_path:
        return "Give the path to move the note to."
    if new_path == old_path.strip():
        return "The new path is the note's path: nothing would move."
    if not new_path.startswith(f"org/{org_id}/"):
        return f"The new path must be inside the org: it starts with org/{org_id}/."
    segments = new_path.split("/")
    if any(s in ("", ".", "..") for s in segments) or "\\" in new_path:
        return "The new path has an empty, “.” or “..” part: give a plain path inside the org."
    if "[" in new_path or "]" in new_path:
        return "A note's path cannot hold “[” or “]”: an embed could not name it."
    if not new_path.lower().endswith(".md"):
        return "A note's path ends in “.md”."
    if len(segments) == 5 and segments[2] == "agents" and segments[4] == "task.md":
        return "That path is an agent's Task, not a note."
    return ""


def wrapper_change(old_path: str, new_path: str) -> str:
    """What besides the path attribute a run's prompt shows differently after the move."""
    said = []
    before, after = element_name(old_path), element_name(new_path)
    if before != after:
        said.append(f"the element that wraps it is named <{after}> instead of <{before}>")
    if level_of(old_path) != level_of(new_path):
        said.append(f"its level is {level_of(new_path)} instead of {level_of(old_path)}")
    if not said:
        return "Each prompt stays the same but for the path attribute."
    return "Each prompt stays the same but for the path attribute, and " + " and ".join(said) + "."
