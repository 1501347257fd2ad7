"""Fetches and caches the notes a preview expansion needs, so the preview is what a run gets.

The preview runs the same ``expand_embeds`` as the server. Its lookup answers from what is
known (in memory, then the store's offline cache); every display path it could not answer,
or whose answer is older than ``revalidate_after``, is fetched from the server (a few at
once) and the expansion is run again, until a round asks for nothing new. Depth 2 means at
most three rounds in practice.

Blocking (network and disk): call ``expand_for_preview`` from a worker, never the GUI thread.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal, Protocol

from app.client.errors import InvalidRequest, NotFound, TaskdeskError
from app.core.expander import Expansion, expand_embeds
from app.core.models import EmbeddableNote, OrgFile, Reader
from app.render.note_progress import LookupCounter, Progress
from app.store import LocalStore, StoreError

log = logging.getLogger(__name__)

REVALIDATE_AFTER_S = 30.0
"""A note fetched this recently is trusted as is, so typing doesn't refetch it."""

RETRY_UNREACHABLE_AFTER_S = 5.0
"""After the server could not be reached, wait this long before asking again: each try can
take the client's whole connect timeout, and the preview re-expands on every pause in typing."""

MAX_PARALLEL_FETCHES = 4
MAX_ROUNDS = 6  # depth 2 needs 3; the rest is a guard against a server that keeps changing

UNSUPPORTED_MESSAGE = "This server doesn't share note text; the preview can't inline notes."


class NoteSource(Protocol):
    """What the preview needs of ``TaskdeskClient``."""

    def note(self, display_path: str) -> OrgFile: ...

    def embeddable_notes(self) -> list[EmbeddableNote]: ...


@dataclass(frozen=True, slots=True)
class PreviewExpansion:
    """The expansion to show, and what the preview must say about how sure it is."""

    expansion: Expansion
    from_cache: bool  # some notes are the offline copy: the server couldn't be reached
    cached_at: datetime | None  # the oldest fetch time among those notes (UTC)
    unknown: tuple[str, ...]  # could not be checked at all: say so, don't call them unreachable
    unsupported: bool  # the server has no note endpoint: nothing can be inlined
    problem: str | None = None  # the client's message from the last failed attempt

    @property
    def text(self) -> str:
        return self.expansion.text

    def notice(self) -> str | None:
        """One paragraph for the preview's banner, or None when the preview is exact."""
        if self.unsupported:
            return UNSUPPORTED_MESSAGE
        parts: list[str] = []
        if self.problem and (self.unknown or self.from_cache):
            parts.append(self.problem)
        if self.unknown:
            listed = ", ".join(self.unknown)
            parts.append(f"These embeds could not be checked and show as markers: {listed}.")
        if self.from_cache and self.cached_at is not None:
            when = self.cached_at.strftime("%Y-%m-%d %H:%M UTC")
            parts.append(f"Embedded notes are shown as they were at {when}.")
        return " ".join(parts) or None


Outcome = Literal["found", "absent", "unreachable", "unsupported"]
FetchResult = tuple[Outcome, OrgFile | str | None]  # the note, or the client's message


@dataclass(slots=True)
class _Known:
    """What is known about one display path."""

    file: OrgFile | None  # None with fetched_at set: the server said there is no such note
    fetched_at: datetime | None  # when the server last answered about it; None: never
    checked_at: float  # clock time of the last attempt, answered or not
    stale: bool = False  # the last attempt failed: this answer is an older one

    @property
    def unknown(self) -> bool:
        return self.fetched_at is None


class PreviewNotes:
    """The notes of one server for the preview, in memory and in the store's offline cache.

    ``store`` may be None (nothing survives a restart). ``server_key`` files the notes in the
    store. Calls are serialised; one instance per open server.
    """

    def __init__(
        self,
        client: NoteSource,
        store: LocalStore | None,
        server_key: str,
        *,
        revalidate_after: float = REVALIDATE_AFTER_S,
        retry_unreachable_after: float = RETRY_UNREACHABLE_AFTER_S,
        clock: Callable[[], float] = time.monotonic,
        lacks_note_text: bool = False,
    ) -> None:
        """``lacks_note_text``: sign-in already found the server has no note endpoint, so it
        is never asked on this connection (a reconnect finds out again)."""
        self._client = client
        self._store = store
        self._server = server_key
        self._revalidate_after = revalidate_after
        self._retry_after = retry_unreachable_after
        self._clock = clock
        self._known: dict[str, _Known] = {}
        self._lock = threading.Lock()
        self._supported: bool | None = False if lacks_note_text else None  # None: not known yet
        self._known_lacking = lacks_note_text
        self._unsupported_checked_at = 0.0
        self._problem: str | None = None
        self._retry_now = False  # set from any thread; read under the lock
        self._revalidate_now = False  # likewise

    def retry_unreachable(self) -> None:
        """The server is back: the next preview asks again about every note it could not
        reach, without waiting out the retry delay. Never blocks (no lock taken)."""
        self._retry_now = True

    def revalidate(self) -> None:
        """The server's notes may have changed (its embed status did, or a live event said
        so): the next preview, References or budget asks again about every note it uses.
        Never blocks (no lock taken)."""
        self._revalidate_now = True

    def _take_flags(self) -> None:
        """Apply ``retry_unreachable`` and ``revalidate`` (under the lock)."""
        if self._revalidate_now:
            self._revalidate_now = self._retry_now = False
            for known in self._known.values():
                known.checked_at = float("-inf")
        if self._retry_now:
            self._retry_now = False
            for known in self._known.values():
                if known.unknown or known.stale:
                    known.checked_at = float("-inf")

    def forget(self) -> None:
        """Drop what is in memory (e.g. after reconnecting): the next preview asks again."""
        with self._lock:
            self._known.clear()
            self._supported = False if self._known_lacking else None

    def file(self, path: str) -> OrgFile | None:
        """What is known of one display path, asked of the server when nothing is or the
        answer is due again (as the preview would): the lookup of References and the
        budget breakdown, so they explain what a preview now shows."""
        with self._lock:
            self._take_flags()
            if self._unsupported_now():
                return None
            known = self._known.get(path) or self._from_store(path)
            if known is None or self._is_due(known):
                self._fetch([path])
                known = self._known.get(path)
            return known.file if known is not None else None

    # ------------------------------------------------------------------ expansion

    def expand_for_preview(
        self,
        task_text: str,
        *,
        org_id: str,
        reader: Reader,
        task_path: str = "",
        progress: Progress | None = None,
    ) -> PreviewExpansion:
        """``progress(done, asked)``: called from the fetching threads as each note lookup
        ends (``asked`` grows when a later round finds more embeds to look up)."""
        with self._lock:
            self._take_flags()
            counter = LookupCounter(progress)
            attempted: set[str] = set()
            for _ in range(MAX_ROUNDS):
                used: dict[str, None] = {}
                due: dict[str, None] = {}
                expansion = self._expand(task_text, org_id, reader, task_path, used, due)
                due_now = [p for p in due if p not in attempted]
                if not due_now:
                    break
                attempted.update(due_now)
                counter.add(len(due_now))
                if not self._fetch(due_now, counter):
                    break  # nothing learnt changes the answer: this expansion stands
            else:  # out of rounds: show what is known now, without asking again
                used, due = {}, {}
                expansion = self._expand(task_text, org_id, reader, task_path, used, due)
            return self._result(expansion, used)

    def _expand(
        self,
        task_text: str,
        org_id: str,
        reader: Reader,
        task_path: str,
        used: dict[str, None],
        due: dict[str, None],
    ) -> Expansion:
        unsupported = self._unsupported_now()

        def lookup(path: str) -> OrgFile | None:
            used[path] = None
            if unsupported:
                return None
            known = self._known.get(path) or self._from_store(path)
            if known is None or self._is_due(known):
                due[path] = None
            return known.file if known is not None else None

        return expand_embeds(
            task_text, org_id=org_id, reader=reader, lookup=lookup, task_path=task_path
        )

    def _unsupported_now(self) -> bool:
        if self._supported is not False:
            return False
        if self._known_lacking:
            return True
        if self._clock() - self._unsupported_checked_at >= self._revalidate_after:
            self._supported = None  # ask again: the server may have been upgraded
            return False
        return True

    def _is_due(self, known: _Known) -> bool:
        age = self._clock() - known.checked_at
        if known.unknown or known.stale:
            return age >= self._retry_after
        return age >= self._revalidate_after

    def _from_store(self, path: str) -> _Known | None:
        if self._store is None:
            return None
        try:
            cached = self._store.get_note(self._server, path)
            absent_since = None if cached else self._store.note_absent_since(self._server, path)
        except StoreError as exc:
            log.warning("preview: offline copy unavailable: %s", exc.message)
            return None
        never = float("-inf")  # loaded from disk: check with the server before trusting it
        if cached is not None:
            known = _Known(cached.value, cached.fetched_at, never)
        elif absent_since is not None:
            known = _Known(None, absent_since, never)
        else:
            return None
        self._known[path] = known
        return known

    # ------------------------------------------------------------------ fetching

    def _fetch(self, paths: list[str], counter: LookupCounter | None = None) -> bool:
        """Ask the server about ``paths``; True when anything learnt changes an answer."""
        workers = min(MAX_PARALLEL_FETCHES, len(paths))

        def fetch(path: str) -> FetchResult:
            try:
                return self._fetch_one(path)
            finally:
                if counter is not None:
                    counter.one_done()

        with ThreadPoolExecutor(workers, thread_name_prefix="preview-note") as pool:
            outcomes = list(pool.map(fetch, paths))
        now, wall = self._clock(), datetime.now(UTC)
        results = dict(zip(paths, outcomes, strict=True))

        if any(kind == "unsupported" for kind, _ in outcomes) or self._looks_unsupported(results):
            self._supported = False
            self._unsupported_checked_at = now
            return True
        if any(kind == "found" for kind, _ in outcomes):
            self._supported = True
        if all(kind != "unreachable" for kind, _ in outcomes):
            self._problem = None  # the server answered every question this round

        changed = False
        found: list[OrgFile] = []
        absent: list[str] = []
        for path, (kind, value) in results.items():
            before = self._known.get(path)
            if kind == "found" and isinstance(value, OrgFile):
                found.append(value)
                self._known[path] = _Known(value, wall, now)
                changed |= before is None or before.file != value
            elif kind == "absent":
                self._known[path] = _Known(None, wall, now)
                changed |= before is None or before.file is not None
                absent.append(path)
            else:  # unreachable: keep the older answer, if any, and say it is older
                self._problem = value if isinstance(value, str) else self._problem
                if before is None:
                    self._known[path] = _Known(None, None, now)
                else:
                    before.stale, before.checked_at = True, now
        if found or absent:
            self._cache(lambda: self._store_answers(found, absent))
        return changed

    def _fetch_one(self, path: str) -> FetchResult:
        try:
            return "found", self._client.note(path)
        except NotFound:
            return "absent", None
        except InvalidRequest:
            # 405 and other refusals of a well-formed note path: no note endpoint here.
            return "unsupported", None
        except TaskdeskError as exc:  # offline, 5xx, rate limits, a refused token, bad answer
            return "unreachable", exc.message

    def _looks_unsupported(self, results: dict[str, FetchResult]) -> bool:
        """A server without the note endpoint answers 404 for every note. When this round
        found nothing and the server never served a note, ask whether it serves one the
        Insert picker lists (which the spec guarantees exists)."""
        if self._supported is not None:
            return False
        if not any(kind == "absent" for kind, _ in results.values()):
            return False
        if any(kind == "found" for kind, _ in results.values()):
            return False
        try:
            listed = [n.display_path for n in self._client.embeddable_notes() if n.kind == "note"]
        except TaskdeskError:
            return False  # can't tell now; the next round asks again
        if not listed:
            return False  # nothing to check against: trust the 404s
        if any(results.get(p, ("", None))[0] == "absent" for p in listed):
            return True
        kind, value = self._fetch_one(listed[0])
        if kind == "found" and isinstance(value, OrgFile):
            self._supported = True
            return False
        return kind in ("absent", "unsupported")

    # ------------------------------------------------------------------ the offline copy

    def _cache(self, write: Callable[[], None]) -> None:
        if self._store is None:
            return
        try:
            write()
        except StoreError as exc:  # the preview works without its offline copy
            log.warning("preview: could not keep an offline copy: %s", exc.message)

    def _store_answers(self, notes: Iterable[OrgFile], absent: Iterable[str]) -> None:
        assert self._store is not None
        self._store.put_notes(self._server, notes)
        for path in absent:
            self._store.put_note_absent(self._server, path)

    # ------------------------------------------------------------------ the result

    def _result(self, expansion: Expansion, used: dict[str, None]) -> PreviewExpansion:
        if self._supported is False:
            return PreviewExpansion(expansion, False, None, tuple(used), True, self._problem)
        unknown: list[str] = []
        stale_times: list[datetime] = []
        for path in used:
            known = self._known.get(path)
            if known is None or known.unknown:
                unknown.append(path)
            elif known.stale and known.fetched_at is not None:
                stale_times.append(known.fetched_at)
        return PreviewExpansion(
            expansion,
            from_cache=bool(stale_times),
            cached_at=min(stale_times) if stale_times else None,
            unknown=tuple(unknown),
            unsupported=False,
            problem=self._problem,
        )
