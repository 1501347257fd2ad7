"""The Task preview: rendered HTML that loads nothing, kept in place as the text changes."""

from __future__ import annotations

import html as html_text
import logging
from dataclasses import dataclass

import shiboken6
from PySide6.QtCore import QEvent, Qt, QThread, QUrl, Signal
from PySide6.QtGui import QFont, QKeyEvent, QMouseEvent, QPalette, QShowEvent, QTextDocument
from PySide6.QtWidgets import QTextBrowser, QWidget

from app.desk.runner import Runner
from app.render import classify_link
from app.render.html_blocks import Patch, plan_patch, split_top_level_html
from widgets.common.theme import current_theme
from widgets.preview.layout_pacer import LayoutPacer
from widgets.preview.preview_document import (
    InertDocument,
    apply_patch,
    fill_pieces,
    inert_resource,
    new_document,
)
from widgets.preview.preview_style import preview_stylesheet

log = logging.getLogger(__name__)

THREADED_FROM_CHARS = 64_000
"""HTML at least this long is laid into a document off the GUI thread, so typing never stalls."""

PATCH_MAX_CHARS = 64_000
"""A change touching more HTML than this is rebuilt in a worker instead of patched."""

WAIT_FOR_BUILDS_MS = 60_000


@dataclass(frozen=True, slots=True)
class _Prepared:
    """A worker's answer: the new blocks, and either a patch of the shown document (``base``
    the blocks it was planned against) or a new document with each block's end."""

    pieces: list[str]
    base: list[str] | None = None
    patch: Patch | None = None
    document: InertDocument | None = None
    ends: list[int] | None = None


def _prepare(
    html: str, base: list[str] | None, font: QFont, style_sheet: str, gui_thread: QThread
) -> _Prepared:
    """Off the GUI thread: split the HTML and plan a patch, or build a whole new document."""
    pieces = split_top_level_html(html)
    patch = plan_patch(base, pieces, max_changed_chars=PATCH_MAX_CHARS)
    if patch is not None:
        return _Prepared(pieces, base=base, patch=patch)
    document = new_document(font, style_sheet)
    ends = fill_pieces(document, pieces, yield_gil=True)
    document.moveToThread(gui_thread)  # handed over before the GUI thread uses it
    return _Prepared(pieces, document=document, ends=ends)


class PreviewPane(QTextBrowser):
    """Shows sanitised preview HTML and routes link clicks; never follows a link itself.

    ``show_html`` keeps the reading position: blocks that changed are replaced in place.
    With a ``runner``, large HTML that can't be patched is parsed off the GUI thread (one
    build at a time; the newest HTML waits for it), swapped in and laid out in slices;
    without one (a note's small preview) everything is laid out at once. ``html_shown``
    fires once the newest HTML is on screen and laid out.
    """

    embed_clicked = Signal(str)
    external_link_requested = Signal(str)
    link_blocked = Signal(str)  # a message for the status bar
    edit_requested = Signal()
    edit_requested_at = Signal(str, int)  # the clicked block's text and the offset in it
    html_shown = Signal()

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        runner: Runner | None = None,
        threaded_from_chars: int = THREADED_FROM_CHARS,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("PreviewPane")
        self.setAccessibleName("Preview")
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setSearchPaths([])
        self.setReadOnly(True)
        self.threaded_from_chars = threaded_from_chars
        self._runner = runner
        self._style_sheet = preview_stylesheet(current_theme())
        self._generation = 0
        self._pending_html: str | None = None
        self._restore_fraction: float | None = None
        self._pieces: list[str] = []  # the shown document's top-level blocks
        self._ends: list[int] = []  # where each of them ends in the document
        self._waiting_html: str | None = None  # for the layout or build in progress
        self._building = False
        self._placeholder = False  # a line saying why there is no preview, not a preview
        self._pacer = LayoutPacer(self)
        self._pacer.finished.connect(self._on_laid_out)
        self._shown: InertDocument = new_document(self.font(), self._style_sheet)
        self._install(self._shown, [], [], None)
        self.anchorClicked.connect(self.on_anchor_clicked)
        self.verticalScrollBar().rangeChanged.connect(self._on_range_changed)
        self.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        self._restoring = False

    # ------------------------------------------------------------------ content

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.StyleChange):
            self.on_theme_changed()

    def on_theme_changed(self) -> None:
        """Redraw the shown preview in the current look (light or dark)."""
        css = preview_stylesheet(current_theme())
        if css == self._style_sheet:
            return
        html = "".join(self._pieces)
        self.set_style_sheet(css)
        if html:
            self.show_html(html)

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
        if self._pacer.is_running() or self._building:
            self._waiting_html = html  # shown once the layout or build in progress is done
            return
        shown_preview = self.document() is self._shown and not self._placeholder
        base = self._pieces if shown_preview else None
        runner = self._runner
        if runner is None or len(html) < self.threaded_from_chars:
            self._show_now(html, base)
            return
        generation, font, style_sheet, gui_thread = (
            self._generation,
            QFont(self.font()),
            self._style_sheet,
            self.thread(),
        )
        self._building = True
        runner.submit(
            lambda: _prepare(html, base, font, style_sheet, gui_thread),
            on_done=lambda prepared: self._on_prepared(generation, prepared),
            on_error=lambda exc: self._on_prepare_failed(generation, html, exc),
        )

    def show_placeholder(self, text: str) -> None:
        """Show ``text`` in place of any preview (say, while another agent's is prepared):
        what is being built or waits to be shown is dropped, the next ``show_html`` builds
        afresh, and the reading position it should open at is kept."""
        self._generation += 1  # a build in progress lands in nothing
        self._pending_html = None
        self._waiting_html = None
        fraction = self._restore_fraction
        colour = self.palette().color(QPalette.ColorRole.PlaceholderText).name()
        document = new_document(self.font(), self._style_sheet)
        fill_pieces(document, [f'<p style="color:{colour}">{html_text.escape(text)}</p>'])
        self._install(document, [], [], None)
        self._placeholder = True
        self._restore_fraction = fraction

    def is_placeholder(self) -> bool:
        return self._placeholder

    def wait_for_builds(self, timeout_ms: int = WAIT_FOR_BUILDS_MS) -> bool:
        """Wait for background work to finish and land (for shutdown and scripted runs)."""
        return self._runner is None or self._runner.wait_idle(timeout_ms)

    def scroll_fraction(self) -> float:
        bar = self.verticalScrollBar()
        if self._restore_fraction is not None:
            return self._restore_fraction
        return bar.value() / bar.maximum() if bar.maximum() > 0 else 0.0

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # A read-only browser has no caret to move, so Ctrl+Home/End (and Home/End) did
        # nothing: they go to the top and the bottom, as in any reader.
        ends = {Qt.Key.Key_Home: 0.0, Qt.Key.Key_End: 1.0}
        plain = event.modifiers() in (
            Qt.KeyboardModifier.NoModifier,
            Qt.KeyboardModifier.ControlModifier,
        )
        if event.key() in ends and plain and not self.textCursor().hasSelection():
            self.scroll_to_fraction(ends[Qt.Key(event.key())])
            event.accept()
            return
        super().keyPressEvent(event)

    def scroll_to_fraction(self, fraction: float) -> None:
        """Show the document from ``fraction`` (0 top, 1 bottom) of its height; kept while
        the preview is laid out or replaced, until the reader scrolls."""
        self._restore_fraction = min(max(fraction, 0.0), 1.0)
        self._apply_restore()

    def is_laying_out(self) -> bool:
        return self._pacer.is_running()

    def _show_now(self, html: str, base: list[str] | None) -> None:
        pieces = split_top_level_html(html)
        patch = plan_patch(base, pieces)
        if patch is not None:
            self._patch(pieces, patch)
            self._finish_layout_now()
        else:
            document = new_document(self.font(), self._style_sheet)
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

    def _on_prepared(self, generation: int, prepared: _Prepared) -> None:
        if not shiboken6.isValid(self):
            return  # the pane closed while the worker ran
        self._building = False
        document = prepared.document
        if generation != self._generation:  # a newer show_html superseded this one
            if document is not None:
                document.deleteLater()
            self._show_waiting()
            return
        if document is not None:
            assert prepared.ends is not None
            self._install(document, prepared.pieces, prepared.ends, self.scroll_fraction())
            self._pacer.start(document)
            return
        if prepared.base is not self._pieces:
            self._show_waiting()
            return  # the shown document changed meanwhile (a new style sheet)
        assert prepared.patch is not None
        self._patch(prepared.pieces, prepared.patch)
        if prepared.patch.span is not None:
            # Qt re-lays out everything after the change in ever larger steps; slice it.
            self._pacer.start(self._shown)
        else:
            self.html_shown.emit()
            self._show_waiting()

    def _on_prepare_failed(self, generation: int, html: str, exc: BaseException) -> None:
        if not shiboken6.isValid(self):
            return
        self._building = False
        log.error("the preview could not be laid out off the GUI thread", exc_info=exc)
        if generation == self._generation:
            self._show_now(html, None)  # the reader still gets the newest preview
        self._show_waiting()

    def _patch(self, pieces: list[str], patch: Patch) -> None:
        if patch.span is not None:
            self._ends = apply_patch(self._shown, self._ends, pieces, patch.span)
        self._pieces = pieces

    def _install(
        self,
        document: InertDocument,
        pieces: list[str],
        ends: list[int],
        fraction: float | None,
    ) -> None:
        """Swap ``document`` in; a ``fraction`` to come back to means it is laid out in
        slices (by the caller), so the view starts from the top meanwhile."""
        self._pacer.stop()
        old = self.document()
        # Ours to delete; the browser's first document is deleted by setDocument itself.
        ours = old is not document and isinstance(old, InertDocument) and old.parent() is self
        document.setParent(self)
        self._placeholder = False
        paced = fraction is not None
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
        if not paced:
            self._apply_restore()

    def _on_laid_out(self) -> None:
        self._apply_restore()
        self.html_shown.emit()
        self._show_waiting()

    def _show_waiting(self) -> None:
        if self._waiting_html is not None:
            html, self._waiting_html = self._waiting_html, None
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
        cursor = self.cursorForPosition(event.position().toPoint())
        self.edit_requested_at.emit(cursor.block().text(), cursor.positionInBlock())
        event.accept()
