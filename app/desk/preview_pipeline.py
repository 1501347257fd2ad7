"""The preview pipeline: debounced, expanded and rendered off the GUI thread, latest wins."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import QObject, QTimer, Signal

from app.client.errors import TaskdeskError
from app.core import user_message
from app.core.expander import Expansion, Piece, TextPiece
from app.core.models import Reader
from app.core.user_message import MessageKey
from app.core.viewer_reach import task_markers
from app.desk.runner import Runner
from app.render.preview_notes import PreviewExpansion
from app.store.errors import StoreError

log = logging.getLogger(__name__)

PREVIEW_DEBOUNCE_MS = 120
"""How long typing must pause before an expensive preview is made again."""

CHEAP_PREVIEW_MS = 100
"""A preview whose last making took at most this long is made again at once on the next
keystroke (the keys of one event-loop turn together), not after the debounce: editing a
block of a 256 KB Task re-renders that block alone, ~20 ms (more on a busy machine: the
margin keeps one slow spell from switching the debounce back on), so the preview follows
the typing. Slower ones (notes to fetch, a text that changed everywhere) wait for
a pause as before. While one is being made, keystrokes collapse into one follow-up."""

GLIMPSE_FROM_CHARS = 32_000
"""A Task at least this long shows its first screenful (``glimpse``) before its first whole
preview: rendering, building and laying out a 256 KB preview takes a second."""

GLIMPSE_CHARS = 6_000
"""About a screenful and a half of Markdown, cut at the paragraph break after it."""


class PreviewSource(Protocol):
    """What the pipeline needs of ``app.render.preview_notes.PreviewNotes``."""

    def expand_for_preview(
        self,
        task_text: str,
        *,
        org_id: str,
        reader: Reader,
        task_path: str = "",
        progress: Callable[[int, int], None] | None = None,
    ) -> PreviewExpansion: ...


class PreviewRender(Protocol):
    """An expanded Task as sanitised preview HTML (``app.render.preview_html.render_preview``).

    ``unchecked``: marker paths the app could not check, drawn as "not checked";
    ``withheld``: the Task's own markers that the agent reads and the viewer may not.
    """

    def __call__(
        self, expansion: Expansion, *, unchecked: frozenset[str], withheld: frozenset[str]
    ) -> str: ...


@dataclass(frozen=True, slots=True)
class PreviewContext:
    """Whose preview: the org, the agent it is expanded as, and the Task's display path."""

    org_id: str
    reader: Reader
    task_path: str = ""


@dataclass(frozen=True, slots=True)
class PreviewResult:
    """One drawn preview. ``text_version`` counts ``schedule()`` calls: a view can tell
    which keystroke it reflects (results only ever arrive in increasing order)."""

    expansion: Expansion
    html: str
    from_cache: bool
    unknown: tuple[str, ...]
    unsupported: bool
    text_version: int
    notice: str | None = None


class PreviewPipeline(QObject):
    """Turns the editor text into preview HTML without ever blocking the GUI thread.

    ``schedule()`` is called on every keystroke and only restarts a timer. When typing pauses
    for ``debounce_ms`` the text is pulled from ``text_source`` and expanded (notes fetched
    as needed) and rendered on the runner. Only one job runs at a time; requests made while it
    runs collapse into one follow-up with the newest text. A job started before the last
    ``set_context`` is dropped when it ends (it was another agent's). A failing expansion or
    renderer becomes a ``message`` and the last good preview stays.
    """

    ready = Signal(object)  # PreviewResult
    glimpse = Signal(str)  # the first screenful's HTML, before a long Task's first preview
    loading = Signal(int, int)  # note lookups done, asked: the preview waits on the server
    idle = Signal()  # the preview in progress ended (drawn, or failed)
    message = Signal(object)  # UserMessage
    _progress = Signal(int, int, int)  # from a worker: its job's context serial, done, asked
    _glimpsed = Signal(int, str)  # from a worker: its job's context serial, the HTML

    def __init__(
        self,
        *,
        runner: Runner,
        notes: PreviewSource,
        text_source: Callable[[], str],
        render: PreviewRender | None = None,
        debounce_ms: int = PREVIEW_DEBOUNCE_MS,
        cheap_ms: int = CHEAP_PREVIEW_MS,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._runner = runner
        self._notes = notes
        self._text_source = text_source
        self._render = render
        # The Task embeds the agent can't reach, per the server's embed status, when the viewer
        # may not read every note (None: an operator, or the status is not in): a Task marker
        # that is not among them is a note the agent reads, drawn so (app.core.viewer_reach).
        self.agent_cannot_reach: frozenset[str] | None = None
        self._context: PreviewContext | None = None
        self._contexts = 0  # bumped by every set_context(): a job's answer is for its own
        self._drawn_context = -1  # the context whose preview was last drawn
        self._requested = 0  # bumped by every schedule()
        self._busy = False
        self._queued = False
        self._failing = False  # said once per spell of failures, not per keystroke
        self._debounce_ms = debounce_ms
        self._cheap_s = cheap_ms / 1000
        self._started_at = 0.0
        self._last_cost: float | None = None  # seconds the last preview took to make
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(debounce_ms)
        self._timer.timeout.connect(self._start)
        self._progress.connect(self._on_progress)
        self._glimpsed.connect(self._on_glimpsed)

    @property
    def busy(self) -> bool:
        """A preview is being made, or one is waiting for typing to pause."""
        return self._busy or self._queued or self._timer.isActive()

    def set_context(self, context: PreviewContext | None) -> None:
        """Switches whose preview this is (None: nothing open); redraws at once."""
        self._context = context
        self._contexts += 1
        if context is not None:
            self.refresh_now()

    def schedule(self) -> None:
        """The text changed: redraw at once when the last preview was cheap to make, else once
        typing pauses. Cheap: no work on the text here."""
        self._requested += 1
        if self._last_cost is not None and self._last_cost <= self._cheap_s:
            if self._busy:
                self._queued = True  # the follow-up starts as the running one ends
            elif not self._timer.isActive() or self._timer.interval() != 0:
                self._timer.start(0)
            return
        self._timer.start(self._debounce_ms)

    def refresh_now(self) -> None:
        """Redraws without waiting for the debounce (a note changed, the tab was shown)."""
        self._requested += 1
        self._timer.stop()
        self._start()

    def _start(self) -> None:
        context = self._context
        if context is None:
            return
        if self._busy:
            self._queued = True  # one follow-up, with whatever the text is by then
            return
        self._busy = True
        self._started_at = time.monotonic()
        text = self._text_source()
        version, serial = self._requested, self._contexts
        notes, render = self._notes, self._render or _render_preview
        agent_cannot_reach = self.agent_cannot_reach
        reported = self._progress  # emitted from the worker: queued to the GUI thread
        glimpsed = self._glimpsed if serial != self._drawn_context else None

        def progress(done: int, asked: int) -> None:
            # The pipeline may have been replaced (another server) meanwhile.
            with contextlib.suppress(RuntimeError):
                reported.emit(serial, done, asked)

        def make() -> PreviewResult:
            found = notes.expand_for_preview(
                text,
                org_id=context.org_id,
                reader=context.reader,
                task_path=context.task_path,
                progress=progress,
            )
            unchecked = frozenset(
                [b.path for b in found.expansion.broken] if found.unsupported else found.unknown
            )
            withheld = (
                frozenset()
                if agent_cannot_reach is None
                else frozenset(task_markers(found.expansion.pieces))
                - agent_cannot_reach
                - unchecked
            )
            head = first_screenful(found.expansion) if glimpsed is not None else None
            if glimpsed is not None and head is not None:
                shown = render(head, unchecked=unchecked, withheld=withheld)
                with contextlib.suppress(RuntimeError):  # the pipeline may be gone
                    glimpsed.emit(serial, shown)
            return PreviewResult(
                expansion=found.expansion,
                html=render(found.expansion, unchecked=unchecked, withheld=withheld),
                from_cache=found.from_cache,
                unknown=tuple(found.unknown),
                unsupported=found.unsupported,
                text_version=version,
                notice=found.notice(),
            )

        self._runner.submit(
            make,
            on_done=lambda result: self._on_ready(result, serial),
            on_error=lambda exc: self._on_failed(exc, serial),
        )

    def _on_progress(self, serial: int, done: int, asked: int) -> None:
        if serial == self._contexts:  # another agent's lookups are not this one's to count
            self.loading.emit(done, asked)

    def _on_glimpsed(self, serial: int, html: str) -> None:
        if serial == self._contexts and serial != self._drawn_context:
            self.glimpse.emit(html)

    def _on_ready(self, result: PreviewResult, serial: int) -> None:
        self._busy = False
        self._last_cost = time.monotonic() - self._started_at
        if serial != self._contexts:  # made for the agent open before: never shown as this one
            self._next()
            return
        self._drawn_context = serial
        self._failing = False
        self.idle.emit()
        self.ready.emit(result)
        self._next()

    def _on_failed(self, exc: BaseException, serial: int) -> None:
        self._busy = False
        self._last_cost = None  # after a failure, wait for typing to pause again
        if serial != self._contexts:
            self._next()
            return
        self.idle.emit()
        if not self._failing:
            self._failing = True
            self.message.emit(user_message.warning(_preview_problem(exc), key=MessageKey.PREVIEW))
        self._next()

    def _next(self) -> None:
        if self._queued:
            self._queued = False
            self._start()


def _render_preview(
    expansion: Expansion, *, unchecked: frozenset[str], withheld: frozenset[str]
) -> str:
    """The Markdown renderer, loaded on the runner by the first preview: its modules (~80 ms)
    are not on the way to the first Task on screen."""
    from app.render.preview_html import render_preview

    return render_preview(expansion, unchecked=unchecked, withheld=withheld)


def first_screenful(expansion: Expansion) -> Expansion | None:
    """The expansion's first ``GLIMPSE_CHARS`` or so, cut at a paragraph break; None when
    the whole is short (its preview comes as soon) or has no break to cut at. Shown only
    until the whole preview replaces it."""
    if len(expansion.text) < GLIMPSE_FROM_CHARS:
        return None
    head: list[Piece] = []
    size = 0
    for piece in expansion.pieces:
        if not isinstance(piece, TextPiece):
            head.append(piece)
            continue
        cut = piece.text.find("\n\n", max(GLIMPSE_CHARS - size, 0))
        if cut >= 0:
            head.append(TextPiece(piece.text[:cut]))
            return dataclasses.replace(expansion, pieces=tuple(head))
        head.append(piece)
        size += len(piece.text)
    return None


def warm_up_renderer() -> None:
    """Loads the Markdown renderer and runs it once on a line (its parser's patterns are
    compiled on first use): on the runner while the server starts, so the first Task's
    preview does not wait for it (~0.1-0.2 s on a 256 KB Task's way to the screen)."""
    from app.render.preview_html import render_markdown

    render_markdown("# Ready\n\n- [x] a *list* with [a link](https://example.com) and `code`")


def _preview_problem(exc: BaseException) -> str:
    if isinstance(exc, TaskdeskError | StoreError):
        return f"The preview could not be updated: {exc.message} The editor text is untouched."
    log.error("the preview failed", exc_info=exc)
    return (
        "The preview could not be updated because of an unexpected error. The editor text "
        "is untouched; the last preview stays."
    )
