"""A widget made a part at a time, so the window can paint and take input between the parts."""

from __future__ import annotations

from collections.abc import Iterator

Parts = Iterator[tuple[str, ...]]
"""A widget's ``_build``: each ``yield`` ends a part and names the modules the next part
imports (a builder may load them off the GUI thread first)."""


def parts_of(parts: Parts, *, staged: bool) -> Parts:
    """A part of a bigger widget: ``parts`` for its host to build (``yield from``) when
    ``staged``, else built now (nothing is left to yield)."""
    if not staged:
        for _ in parts:
            pass
    return parts


class BuiltInParts:
    """Mixed into a widget whose ``__init__`` ends with ``self._build_in_parts(parts, staged)``:
    staged, the parts are built by ``build_more`` (one each) or ``finish_building`` (the rest);
    not staged, at once. ``showable`` is for the widget to set once it can be shown."""

    _parts: Parts | None = None
    modules_next: tuple[str, ...] = ()  # what the next part imports
    showable = False

    def _build_in_parts(self, parts: Parts, *, staged: bool) -> None:
        self._parts = parts
        if not staged:
            self.finish_building()

    @property
    def building(self) -> bool:
        """Parts are still to be built."""
        return self._parts is not None

    def build_more(self) -> bool:
        """Builds the next part; False once the widget is whole."""
        if self._parts is None:
            return False
        modules = next(self._parts, None)
        if modules is None:
            self._parts = None
            self.modules_next = ()
            return False
        self.modules_next = modules
        return True

    def finish_building(self) -> None:
        """Builds whatever is left, now."""
        while self.build_more():
            pass
