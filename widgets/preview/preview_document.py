"""The preview's QTextDocument: loads no resource, and is filled and patched block by block.

PySide holds the GIL for the whole of a Qt call, so one setHtml of a 256 KB preview, even
in a worker, would block the GUI thread's Python (keys, highlighting) for as long. So the
HTML is cut between its top-level blocks (``app.render.html_blocks``) and fed in one block at
a time, and each block's end position is kept: the next preview then replaces only the
blocks that changed, in place, and the document (its layout and the reader's scroll
position) stays.
"""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QFont, QImage, QTextCursor, QTextDocument

from app.render.html_blocks import PatchRange, split_top_level_html

_JOINER = "<p>&#8203;</p>"
"""Put before each later block: inserted HTML merges its first paragraph into the block at
the cursor, so a throwaway zero-width paragraph takes that merge and is removed after."""
_ZERO_WIDTH_SPACE = "\u200b"


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


def new_document(font: QFont, style_sheet: str) -> InertDocument:
    document = InertDocument()
    document.setUndoRedoEnabled(False)  # the preview is replaced, never undone
    document.setDefaultFont(font)
    document.setDefaultStyleSheet(style_sheet)
    return document


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


def apply_patch(
    document: QTextDocument, ends: list[int], new: list[str], span: PatchRange
) -> list[int]:
    """Replace the changed pieces in place (one edit per piece); returns the new ends."""
    first, old_stop, new_stop = span
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
