"""The ``{display_path:note}`` path parameter: a note's path, never one of its sub-routes'."""

from __future__ import annotations

from starlette.convertors import Convertor, register_url_convertor


class NotePathConvertor(Convertor[str]):
    """A display path with its slashes (as ``:path``), but not one ending in ``/used-by`` or
    ``/impact``: those are the note's own routes, so another method on them is a 405 with
    their ``Allow``, not a note of that name (a note's path ends in ``.md`` anyway)."""

    regex = r"(?:(?!/used-by$|/impact$).)+"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("note", NotePathConvertor())

NOTE_PATH = "/api/notes/{display_path:note}"
"""A note's own route: GET, PUT and DELETE."""
