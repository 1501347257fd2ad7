"""The Task preview: rendered HTML that loads nothing, or the text exactly as the agent gets it."""

from __future__ import annotations

import re
import time

import shiboken6
from PySide6.QtCore import (
    QEvent,
    QObject,
    QRunnable,
    Qt,
    QThread,
    QThreadPool,
    QTimer,
    QUrl,
    Signal,
)
from PySide6.QtGui import (
    QFont,
    QFontDatabase,
    QImage,
    QMouseEvent,
    QShowEvent,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QPlainTextEdit,
    QStackedWidget,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.render import PREVIEW_STYLESHEET, classify_link

THREADED_FROM_CHARS = 64_000
"""HTML at least this long is laid into a document off the GUI thread, so typing never stalls."""


def _placeholder_image() -> QImage:
    image = QImage(1, 1, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    return image


def inert_resource(type: int) -> object:
    """What stands in for any resource. An image must be a real (blank) image: given nothing,
    Qt's image handler would read the file itself, bypassing loadResource."""
    if type == QTextDocument.ResourceType.ImageResource:
        return _placeholder_image()
    if type == QTextDocument.ResourceType.StyleSheetResource:
        return ""
    return None


class InertDocument(QTextDocument):
    """A document that loads no resource at all: no file, no network, no data: URL."""

    def loadResource(self, type: int, name: QUrl | str) -> object:
        return inert_resource(type)


# ---------------------------------------------------------------- building documents
#
# PySide holds the GIL for the whole of a Qt call, so one setHtml of a 256 KB preview, even
# in a worker, would block the GUI thread's Python (keys, highlighting) for as long. So the
# HTML is cut between its top-level blocks and fed in one block at a time, and each block's
# end position is kept: the next preview then replaces only the blocks that changed, in
# place, and the document (its layout and the reader's scroll position) stays.

PATCH_MAX_CHARS = 64_000
"""A change touching more HTML than this is rebuilt in a worker instead of patched."""

_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)\b[^>]*?(/?)>")
_VOID_TAGS = frozenset({"br", "hr", "img", "input", "meta", "link", "col", "area", "wbr"})
_BLOCK_TAGS = frozenset(
    {"p", "div", "table", "ul", "ol", "dl", "pre", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6"}
)
_JOINER = "<p>&#8203;</p>"
"""Put before each later block: inserted HTML merges its first paragraph into the block at
the cursor, so a throwaway zero-width paragraph takes that merge and is removed after."""
_ZERO_WIDTH_SPACE = "\u200b"


def split_top_level_html(html: str, chunk_chars: int = 0) -> list[str]:
    """``html`` cut only after a top-level block closes, into pieces of at least
    ``chunk_chars`` (0: every top-level block is a piece). Joined, they give ``html``."""
    pieces: list[str] = []
    depth = 0
    last = 0
    for tag in _TAG.finditer(html):
        closing, name, self_closing = tag.group(1), tag.group(2).lower(), tag.group(3)
        if name in _VOID_TAGS or self_closing:
            continue
        if not closing:
            depth += 1
            continue
        depth = max(depth - 1, 0)
        if depth == 0 and name in _BLOCK_TAGS and tag.end() - last >= chunk_chars:
            pieces.append(html[last : tag.end()])
            last = tag.end()
    if last < len(html):
        pieces.append(html[last:])
    return pieces


def _insert_after(cursor: QTextCursor, piece: str) -> None:
    """Insert ``piece`` as new blocks after the block the cursor ends."""
    document = cursor.document()
    join_at = cursor.position()
    cursor.insertHtml(_JOINER + piece)
    if document.characterAt(join_at) == _ZERO_WIDTH_SPACE:
        joiner = QTextCursor(document)
        joiner.setPosition(join_at)
        joiner.setPosition(join_at + 1, QTextCursor.MoveMode.KeepAnchor)
        joiner.removeSelectedText()


def fill_pieces(
    document: QTextDocument, pieces: list[str], *, yield_gil: bool = False
) -> list[int]:
    """Give an empty ``document`` what setHtml("".join(pieces)) would; returns where each
    piece ends. ``yield_gil`` lets a waiting GUI thread run between pieces."""
    cursor = QTextCursor(document)
    ends: list[int] = []
    for i, piece in enumerate(pieces):
        if i == 0:
            cursor.insertHtml(piece)
        else:
            _insert_after(cursor, piece)
        ends.append(cursor.position())
        if yield_gil and i % 16 == 15:
            time.sleep(0)
    return ends


def fill_in_chunks(document: QTextDocument, html: str, chunk_chars: int = 8_000) -> list[int]:
    """Fill ``document`` from ``html`` in pieces of about ``chunk_chars``."""
    return fill_pieces(document, split_top_level_html(html, chunk_chars))


def patch_range(old: list[str], new: list[str]) -> tuple[int, int, int] | None:
    """``(first, old_stop, new_stop)``: pieces ``old[first:old_stop]`` become
    ``new[first:new_stop]``. None when the first piece changes (nothing to anchor on) or
    nothing changes at all."""
    first = 0
    limit = min(len(old), len(new))
    while first < limit and old[first] == new[first]:
        first += 1
    if first == len(old) == len(new):
        return None
    same_tail = 0
    while (
        same_tail < len(old) - first
        and same_tail < len(new) - first
        and old[-1 - same_tail] == new[-1 - same_tail]
    ):
        same_tail += 1
    if first == 0:
        return None
    return first, len(old) - same_tail, len(new) - same_tail


def apply_patch(
    document: QTextDocument, ends: list[int], new: list[str], plan: tuple[int, int, int]
) -> list[int]:
    """Replace the changed pieces in place (one edit per piece); returns the new ends."""
    first, old_stop, new_stop = plan
    anchor = ends[first - 1]
    cursor = QTextCursor(document)
    cursor.beginEditBlock()
    cursor.setPosition(anchor)
    cursor.setPosition(
        ends[old_stop - 1] if old_stop > first else anchor, QTextCursor.MoveMode.KeepAnchor
    )
    cursor.removeSelectedText()
    new_ends: list[int] = []
    for piece in new[first:new_stop]:
        _insert_after(cursor, piece)
        new_ends.append(cursor.position())
    cursor.endEditBlock()
    old_end = ends[old_stop - 1] if old_stop > first else anchor
    shift = (new_ends[-1] if new_ends else anchor) - old_end
    return ends[:first] + new_ends + [end + shift for end in ends[old_stop:]]


def _changed_chars(old: list[str], new: list[str], plan: tuple[int, int, int]) -> int:
    first, old_stop, new_stop = plan
    return sum(map(len, old[first:old_stop])) + sum(map(len, new[first:new_stop]))


def _new_document(font: QFont, style_sheet: str) -> InertDocument:
    document = InertDocument()
    document.setUndoRedoEnabled(False)  # the preview is replaced, never undone
    document.setDefaultFont(font)
    document.setDefaultStyleSheet(style_sheet)
    return document


class _JobSignals(QObject):
    patch = Signal(int, object, object, object)  # generation, base pieces, new pieces, plan
    built = Signal(int, object, object, object)  # generation, InertDocument, pieces, ends


class _PrepareJob(QRunnable):
    """Splits the HTML and either plans a patch of the shown document or builds a new one."""

    def __init__(
        self,
        generation: int,
        html: str,
        base: list[str] | None,
        font: QFont,
        style_sheet: str,
        signals: _JobSignals,
        gui_thread: QThread,
    ) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self._args = (generation, html, base, font, style_sheet)
        self._signals = signals
        self._gui_thread = gui_thread

    def run(self) -> None:
        generation, html, base, font, style_sheet = self._args
        pieces = split_top_level_html(html)
        if base is not None:
            plan = patch_range(base, pieces)
            if base == pieces or (plan and _changed_chars(base, pieces, plan) <= PATCH_MAX_CHARS):
                self._signals.patch.emit(generation, base, pieces, plan)
                return
        document = _new_document(font, style_sheet)
        ends = fill_pieces(document, pieces, yield_gil=True)
        document.moveToThread(self._gui_thread)  # handed over before the GUI thread uses it
        self._signals.built.emit(generation, document, pieces, ends)


class LayoutPacer(QObject):
    """Lays a large preview document out in slices of a few milliseconds between events.

    Qt's own lazy layout runs on a 10 ms timer in steps that double up to 200,000
    characters, so its later steps on a 256 KB preview stall the GUI thread for tens of
    milliseconds. While pacing, the layout's own timer events are held back; ``finished``
    fires once the whole document is laid out.
    """

    finished = Signal()
    SLICE_SECONDS = 0.004
    FIRST_STEP = 2_000

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._slice)
        self._document: QTextDocument | None = None
        self._layout: QObject | None = None
        self._position = 0
        self._step = self.FIRST_STEP

    def start(self, document: QTextDocument) -> None:
        self.stop()
        self._document = document
        self._layout = document.documentLayout()
        self._layout.installEventFilter(self)
        self._position = 0
        self._step = self.FIRST_STEP
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        if self._layout is not None and shiboken6.isValid(self._layout):
            self._layout.removeEventFilter(self)
        self._layout = None
        self._document = None

    def is_running(self) -> bool:
        return self._timer.isActive()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Timer and watched is self._layout:
            return True
        return super().eventFilter(watched, event)

    def _slice(self) -> None:
        document = self._document
        if document is None or not shiboken6.isValid(document):
            self.stop()
            return
        layout = document.documentLayout()
        count = document.characterCount()
        started = time.perf_counter()
        block = document.findBlock(min(self._position + self._step, count - 1))
        layout.blockBoundingRect(block)  # lays the document out up to the end of ``block``
        self._position = block.position() + block.length()
        elapsed = time.perf_counter() - started
        if elapsed < self.SLICE_SECONDS / 2:
            self._step *= 2
        elif elapsed > self.SLICE_SECONDS:
            self._step = max(self._step // 2, 200)
        if self._position >= count:
            self.stop()
            # Qt sends the final size on the timer held back above; send it now instead.
            layout.documentSizeChanged.emit(layout.documentSize())
            self.finished.emit()


class PreviewPane(QTextBrowser):
    """Shows sanitised preview HTML and routes link clicks; never follows a link itself.

    ``show_html`` keeps the reading position: blocks that changed are replaced in place.
    Large HTML that can't be patched is parsed off the GUI thread, swapped in and laid out
    in slices. ``html_shown`` fires once the newest HTML is on screen and laid out.
    """

    embed_clicked = Signal(str)
    external_link_requested = Signal(str)
    link_blocked = Signal(str)  # a message for the status bar
    edit_requested = Signal()
    html_shown = Signal()

    def __init__(
        self, parent: QWidget | None = None, *, threaded_from_chars: int = THREADED_FROM_CHARS
    ) -> None:
        super().__init__(parent)
        self.setObjectName("PreviewPane")
        self.setAccessibleName("Preview")
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setSearchPaths([])
        self.setReadOnly(True)
        self.threaded_from_chars = threaded_from_chars
        self._style_sheet = PREVIEW_STYLESHEET
        self._generation = 0
        self._pending_html: str | None = None
        self._restore_fraction: float | None = None
        self._pieces: list[str] = []  # the shown document's top-level blocks
        self._ends: list[int] = []  # where each of them ends in the document
        self._deferred_html: str | None = None
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._signals = _JobSignals(self)
        self._signals.patch.connect(self._on_patch_planned)
        self._signals.built.connect(self._on_built)
        self._pacer = LayoutPacer(self)
        self._pacer.finished.connect(self._on_laid_out)
        self._shown: InertDocument = _new_document(self.font(), self._style_sheet)
        self._install(self._shown, [], [], None)
        self.anchorClicked.connect(self.on_anchor_clicked)
        self.verticalScrollBar().rangeChanged.connect(self._on_range_changed)
        self.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        self._restoring = False

    # ------------------------------------------------------------------ content

    def set_style_sheet(self, css: str) -> None:
        """CSS for every later preview document (embed chips, markers, code)."""
        self._style_sheet = css
        self._pieces = []  # the next preview is built afresh with it

    def show_html(self, html: str) -> None:
        """Show ``html`` in place of the current preview, keeping the reading position."""
        self._generation += 1
        if not self.isVisible():
            self._pending_html = html  # laid out when shown: hidden previews cost nothing
            return
        self._pending_html = None
        if self._pacer.is_running():
            self._deferred_html = html  # applied once the layout in progress is done
            return
        base = self._pieces if self.document() is self._shown else None
        if len(html) < self.threaded_from_chars:
            self._show_now(html, base)
            return
        job = _PrepareJob(
            self._generation,
            html,
            base,
            QFont(self.font()),
            self._style_sheet,
            self._signals,
            self.thread(),
        )
        self._pool.start(job)

    def wait_for_builds(self, msecs: int = -1) -> bool:
        """Wait for background work to finish (for shutdown and scripted runs)."""
        return self._pool.waitForDone(msecs)

    def scroll_fraction(self) -> float:
        bar = self.verticalScrollBar()
        if self._restore_fraction is not None:
            return self._restore_fraction
        return bar.value() / bar.maximum() if bar.maximum() > 0 else 0.0

    def is_laying_out(self) -> bool:
        return self._pacer.is_running()

    def _show_now(self, html: str, base: list[str] | None) -> None:
        pieces = split_top_level_html(html)
        plan = patch_range(base, pieces) if base is not None else None
        if base is not None and (base == pieces or plan is not None):
            self._patch(pieces, plan)
            self._finish_layout_now()
        else:
            document = _new_document(self.font(), self._style_sheet)
            ends = fill_pieces(document, pieces)
            fraction = self.scroll_fraction()
            self._install(document, pieces, ends, None)
            self._finish_layout_now()
            self._restore_fraction = fraction
            self._apply_restore()
        self.html_shown.emit()

    def _finish_layout_now(self) -> None:
        """Lay a small document out at once, so its height (and scroll range) is final."""
        layout = self._shown.documentLayout()
        layout.documentSizeChanged.emit(layout.documentSize())

    def _on_patch_planned(
        self, generation: int, base: object, pieces: object, plan: object
    ) -> None:
        if generation != self._generation or base is not self._pieces:
            return  # a newer preview is on its way
        assert isinstance(pieces, list)
        self._patch(pieces, plan if isinstance(plan, tuple) else None)
        if isinstance(plan, tuple):
            # Qt re-lays out everything after the change in ever larger steps; slice it.
            self._pacer.start(self._shown)
        else:
            self.html_shown.emit()

    def _patch(self, pieces: list[str], plan: tuple[int, int, int] | None) -> None:
        if plan is not None:
            self._ends = apply_patch(self._shown, self._ends, pieces, plan)
        self._pieces = pieces

    def _on_built(self, generation: int, document: object, pieces: object, ends: object) -> None:
        assert isinstance(document, InertDocument)
        if generation != self._generation:  # a newer show_html superseded this one
            document.deleteLater()
            return
        assert isinstance(pieces, list) and isinstance(ends, list)
        self._install(document, pieces, ends, self.scroll_fraction(), paced=True)

    def _install(
        self,
        document: InertDocument,
        pieces: list[str],
        ends: list[int],
        fraction: float | None,
        *,
        paced: bool = False,
    ) -> None:
        self._pacer.stop()
        old = self.document()
        # Ours to delete; the browser's first document is deleted by setDocument itself.
        ours = old is not document and isinstance(old, InertDocument) and old.parent() is self
        document.setParent(self)
        if paced:
            # setDocument lays out everything above the bottom of the view at once: start
            # from the top, and come back to the reader's place when the layout is done.
            self._restoring = True
            self.verticalScrollBar().setValue(0)
            self._restoring = False
        self.setDocument(document)
        if ours:
            old.deleteLater()
        self._shown = document
        self._pieces = pieces
        self._ends = ends
        self._restore_fraction = fraction
        if paced:
            self._pacer.start(document)
        else:
            self._apply_restore()

    def _on_laid_out(self) -> None:
        self._apply_restore()
        self.html_shown.emit()
        if self._deferred_html is not None:
            html, self._deferred_html = self._deferred_html, None
            self.show_html(html)

    def _apply_restore(self) -> None:
        if self._restore_fraction is None:
            return
        bar = self.verticalScrollBar()
        self._restoring = True
        try:
            bar.setValue(round(self._restore_fraction * bar.maximum()))
        finally:
            self._restoring = False

    def _on_range_changed(self, _minimum: int, _maximum: int) -> None:
        # The height settles after a swap; keep the reader where they were meanwhile (not
        # while pacing: scrolling down would force the layout down to there at once).
        if not self._pacer.is_running():
            self._apply_restore()

    def _on_scrolled(self, _value: int) -> None:
        if not self._restoring:  # the reader scrolled: from now on their position counts
            self._restore_fraction = None

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._pending_html is not None:
            self.show_html(self._pending_html)

    # ------------------------------------------------------------------ loading nothing

    def loadResource(self, type: int, name: QUrl | str) -> object:
        # Whatever a note says, the preview never reads a file or the network.
        return inert_resource(type)

    def doSetSource(
        self,
        name: QUrl | str,
        type: QTextDocument.ResourceType = QTextDocument.ResourceType.UnknownResource,
    ) -> None:
        # Navigation would replace the preview with whatever the link names: never.
        return

    # ------------------------------------------------------------------ links and input

    def on_anchor_clicked(self, url: QUrl) -> None:
        action = classify_link(url.toString())
        kind = action.kind
        if kind == "embed":
            self.embed_clicked.emit(action.target)
        elif kind in ("external", "disguised"):  # the confirmation tells the two apart
            self.external_link_requested.emit(action.target)
        else:
            self.link_blocked.emit(action.reason)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        self.edit_requested.emit()
        event.accept()


class PreviewPanel(QWidget):
    """The Preview mode: Rendered (a ``PreviewPane``) or As the agent gets it (exact text)."""

    def __init__(self, parent: QWidget | None = None, *, pane: PreviewPane | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("PreviewPanel")
        self.pane = pane if pane is not None else PreviewPane()
        self.agent_text_view = QPlainTextEdit()
        self.agent_text_view.setReadOnly(True)
        self.agent_text_view.setAccessibleName("As the agent gets it")
        self.agent_text_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.agent_text_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self._agent_text: str | None = None

        self.rendered_button = QToolButton()
        self.rendered_button.setText("Rendered")
        self.rendered_button.setAccessibleName("Rendered")
        self.agent_view_button = QToolButton()
        self.agent_view_button.setText("As the agent gets it")
        self.agent_view_button.setAccessibleName("As the agent gets it")
        self.mode_group = QButtonGroup(self)
        self.mode_group.setExclusive(True)
        for button in (self.rendered_button, self.agent_view_button):
            button.setCheckable(True)
            button.setObjectName("segment")
            self.mode_group.addButton(button)
        self.rendered_button.setChecked(True)

        self.stack = QStackedWidget()
        self.stack.addWidget(self.pane)
        self.stack.addWidget(self.agent_text_view)
        toggle = QHBoxLayout()
        toggle.setSpacing(0)
        toggle.addWidget(self.rendered_button)
        toggle.addWidget(self.agent_view_button)
        toggle.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(toggle)
        layout.addWidget(self.stack, 1)

        # The pane's signals, re-offered here so the window can wire either.
        self.embed_clicked = self.pane.embed_clicked
        self.external_link_requested = self.pane.external_link_requested
        self.link_blocked = self.pane.link_blocked
        self.edit_requested = self.pane.edit_requested
        self.rendered_button.toggled.connect(self._on_mode_toggled)

    def show_preview(self, html: str, agent_text: str) -> None:
        """Show a fresh expansion: rendered HTML and ``expansion.text`` exactly."""
        self.pane.show_html(html)
        self.set_agent_text(agent_text)

    def set_agent_text(self, text: str) -> None:
        if self.stack.currentWidget() is self.agent_text_view:
            self._set_agent_text_now(text)
        else:
            self._agent_text = text  # applied when that view is chosen

    def show_agent_text(self, on: bool = True) -> None:
        (self.agent_view_button if on else self.rendered_button).setChecked(True)

    def _on_mode_toggled(self, rendered: bool) -> None:
        self.stack.setCurrentWidget(self.pane if rendered else self.agent_text_view)
        if not rendered and self._agent_text is not None:
            self._set_agent_text_now(self._agent_text)

    def _set_agent_text_now(self, text: str) -> None:
        self._agent_text = None
        if self.agent_text_view.toPlainText() != text:
            bar = self.agent_text_view.verticalScrollBar()
            value = bar.value()
            self.agent_text_view.setPlainText(text)
            bar.setValue(value)
