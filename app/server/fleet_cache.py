"""What the fleet works out per Task, kept between requests: the shape check and the run's
expansion, keyed so a stale entry can never be read.

The shape check parses the Task's Markdown (about a millisecond a Task) and depends on the
Task's text alone: its findings are keyed by the Task's hash (and kept in the database too,
``task_shapes``). An expansion depends on the Task and on
every note: it is keyed by the agent, the Task's hash and the notes' generation, which goes
up whenever any note or collection changes. At 5,000 agents a warm fleet answers from here
in a fraction of the cold time; the cache is bounded and simply starts again when full.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from app.core.expander import Expansion
from app.core.models import sha256_hex
from app.server.fleet_search import SearchableText

MAX_ENTRIES = 50_000
MAX_TEXT_CHARS = 64 * 1024 * 1024
"""The expanded texts kept for prompt searches, in characters, all agents together."""


@dataclass(frozen=True, slots=True)
class ExpandedFacts:
    """What the fleet needs of one expansion."""

    embedded_bytes: int
    over_budget: bool
    broken_embeds: int
    text_hash: str
    text: str | None  # kept while the texts fit MAX_TEXT_CHARS


class FleetCache:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._shapes: dict[str, tuple[str, ...]] = {}
        self._facts: dict[tuple[str, str, int], ExpandedFacts] = {}
        self._text_chars = 0
        self._tasks: dict[str, SearchableText] = {}  # by Task hash
        self._expanded: dict[str, SearchableText] = {}  # by expanded text's hash
        self._expanded_chars = 0

    def shapes(self, hashes: Iterable[str]) -> dict[str, tuple[str, ...]]:
        """The shape findings known here, of the Task hashes given."""
        with self._lock:
            return {h: self._shapes[h] for h in hashes if h in self._shapes}

    def remember_shapes(self, shapes: dict[str, tuple[str, ...]]) -> None:
        with self._lock:
            if len(self._shapes) + len(shapes) > MAX_ENTRIES:
                self._shapes.clear()
            self._shapes.update(shapes)

    def facts(
        self,
        agent_id: str,
        task_hash: str,
        generation: int,
        expand: Callable[[], Expansion],
        *,
        need_text: bool = False,
    ) -> ExpandedFacts:
        key = (agent_id, task_hash, generation)
        with self._lock:
            found = self._facts.get(key)
        if found is not None and (found.text is not None or not need_text):
            return found
        expansion = expand()
        with self._lock:
            if len(self._facts) >= MAX_ENTRIES:
                self._facts.clear()
                self._text_chars = 0
            keep = self._text_chars + len(expansion.text) <= MAX_TEXT_CHARS
            if keep:
                self._text_chars += len(expansion.text)
            found = ExpandedFacts(
                expansion.embedded_bytes,
                expansion.over_budget,
                len(expansion.broken),
                sha256_hex(expansion.text),
                expansion.text if keep else None,
            )
            self._facts[key] = found
        if found.text is None and need_text:
            return ExpandedFacts(
                found.embedded_bytes,
                found.over_budget,
                found.broken_embeds,
                found.text_hash,
                expansion.text,
            )
        return found

    def searchable_expansion(self, facts: ExpandedFacts, text: str) -> SearchableText:
        """The expanded ``text`` of ``facts`` as prompt searches need it, kept by its hash
        (agents that get the same text share it) while the texts fit MAX_TEXT_CHARS."""
        with self._lock:
            found = self._expanded.get(facts.text_hash)
        if found is not None:
            return found
        made = SearchableText(text)
        with self._lock:
            if len(self._expanded) >= MAX_ENTRIES or (
                self._expanded_chars + len(text) > MAX_TEXT_CHARS
            ):
                self._expanded.clear()
                self._expanded_chars = 0
            self._expanded[facts.text_hash] = made
            self._expanded_chars += len(text)
        return made

    def task_texts(
        self, hashes: dict[str, str], fetch: Callable[[list[str]], dict[str, str]]
    ) -> dict[str, SearchableText]:
        """Each agent's live Task text, by agent; ``hashes`` is agent → Task hash,
        ``fetch(agent_ids)`` reads the texts not kept yet."""
        with self._lock:
            kept = {a: self._tasks.get(h) for a, h in hashes.items()}
        missing = [a for a, found in kept.items() if found is None]
        if missing:
            fetched = fetch(missing)
            with self._lock:
                if len(self._tasks) + len(fetched) > MAX_ENTRIES:
                    self._tasks.clear()
                for agent_id, text in fetched.items():
                    made = SearchableText(text)
                    self._tasks[hashes[agent_id]] = made
                    kept[agent_id] = made
        return {a: found for a, found in kept.items() if found is not None}
