"""A whole-text replacement in the Task editor, highlighted where it shows first, the rest after.

A merge of two fully different versions puts both sides of every conflict in the editor:
twice either text. Qt calls the highlighter once per changed block, in Python, about 3 µs a
block before any work, so highlighting the whole replacement doubled what the merge view
took on the GUI thread. So for this one case the highlighter is kept off the document's
``contentsChange`` while the text is replaced. The blocks on screen are then highlighted at
once, and the rest from the top down, a few milliseconds at a time, between events.

``QSyntaxHighlighter`` has no public way to do this: attaching it to a text always
highlights all of it in one go, and ``rehighlightBlock`` keeps that pending. So the editor
takes its highlighter's own ``contentsChange`` connection off and on again. It also calls
the slot behind it with a range, which highlights those blocks and goes on past them while
a block's state changes (a code fence opens or closes). Where the running Qt has no such
slot, the replacement is highlighted whole, as before (``available``).
"""

from __future__ import annotations

from time import perf_counter

from PySide6.QtCore import Q_ARG, SIGNAL, SLOT, QMetaObject, QObject, Qt, QTimer
from PySide6.QtGui import QSyntaxHighlighter, QTextBlock, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

_CHANGED = SIGNAL("contentsChange(int,int,int)")
_REFORMAT = SLOT("_q_reformatBlocks(int,int,int)")
_REFORMAT_NAME = "_q_reformatBlocks"

SLICE_SECONDS = 0.006
"""The GUI thread's time per slice of the highlighting left: well inside a 16 ms frame."""

BLOCKS_PER_STEP = 64
"""Blocks highlighted per call inside a slice, between looks at the clock."""


def available(highlighter: QSyntaxHighlighter) -> bool:
    """Whether the running Qt's highlighter has the slot this module drives."""
    meta = highlighter.metaObject()
    return meta.indexOfMethod(f"{_REFORMAT_NAME}(int,int,int)") >= 0


class HighlightLater(QObject):
    """Replaces an editor's whole text as one undoable edit, and highlights it in slices."""

    def __init__(self, editor: QPlainTextEdit, highlighter: QSyntaxHighlighter) -> None:
        super().__init__(editor)
        self._editor = editor
        self._highlighter = highlighter
        self._can = available(highlighter)
        self._next: QTextCursor | None = None  # where the highlighting left goes on
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._slice)
        self.slices = 0  # how many slices the last replacement took (the bench reads it)

    @property
    def pending(self) -> bool:
        """Whether some of the last replacement is not highlighted yet."""
        return self._next is not None

    def stop(self) -> None:
        """Leave the rest (the text was replaced or highlighted whole meanwhile)."""
        self._next = None
        self._timer.stop()

    def replace(self, text: str) -> None:
        """The whole text becomes ``text`` as one edit (Undo takes back exactly this one)."""
        self.stop()
        document = self._editor.document()
        highlighter = self._highlighter
        attached = highlighter.document() is document
        # Off the document's changes while the text goes in (a hidden editor's highlighter
        # is detached already: it highlights the whole text when shown).
        later = attached and self._can
        later = later and QObject.disconnect(document, _CHANGED, highlighter, _REFORMAT)
        cursor = QTextCursor(document)
        cursor.beginEditBlock()
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(text)
        cursor.endEditBlock()
        if not later:
            return  # highlighted as it went in, or once shown
        QObject.connect(document, _CHANGED, highlighter, _REFORMAT)
        self.slices = 0
        self._next = QTextCursor(document)
        self.highlight_shown()
        self._timer.start()

    def highlight_shown(self) -> None:
        """Highlight the blocks on screen now, if the highlighting left has not reached them
        (the editor calls it as it scrolls, before it paints). Inside a code fence that opens
        above them and below where the rest has got to, they are drawn as plain text until
        the rest gets there, a few slices later."""
        if self._next is None:
            return
        first = self._editor.firstVisibleBlock()
        if not first.isValid() or first.position() < self._next.position():
            first = self._next.block()
        height = self._editor.viewport().height()
        last = first
        offset = self._editor.contentOffset()
        while last.next().isValid():
            top = self._editor.blockBoundingGeometry(last).translated(offset).top()
            if top > height:
                break
            last = last.next()
        self._reformat(first, last)

    def _slice(self) -> None:
        cursor = self._next
        highlighter = self._highlighter
        if cursor is None or highlighter.document() is not self._editor.document():
            self._next = None
            return
        self.slices += 1
        ends = perf_counter() + SLICE_SECONDS
        block = cursor.block()
        while block.isValid() and perf_counter() < ends:
            last = block
            for _ in range(BLOCKS_PER_STEP - 1):
                if not last.next().isValid():
                    break
                last = last.next()
            self._reformat(block, last)
            block = last.next()
        if not block.isValid():
            self._next = None
            return
        cursor.setPosition(block.position())
        self._timer.start()

    def _reformat(self, first: QTextBlock, last: QTextBlock) -> None:
        start = first.position()
        end = last.position() + last.length() - 1
        QMetaObject.invokeMethod(
            self._highlighter,
            _REFORMAT_NAME,
            Qt.ConnectionType.DirectConnection,
            Q_ARG(int, start),
            Q_ARG(int, 0),
            Q_ARG(int, max(end - start, 0)),
        )
