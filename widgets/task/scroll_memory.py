"""Each agent's preview opens where the operator last read it, or at the top."""

from __future__ import annotations

from widgets.preview.preview_pane import PreviewPane


class PreviewScrollMemory:
    """The preview's reading position per agent, for this session: a newly opened agent
    never inherits the previous agent's position."""

    def __init__(self, pane: PreviewPane) -> None:
        self._pane = pane
        self._fractions: dict[str, float] = {}

    def switch(self, leaving: str | None, opening: str) -> None:
        """Keep ``leaving``'s position; show ``opening`` from its own (the top at first)."""
        if leaving is not None and leaving != opening:
            self._fractions[leaving] = self._pane.scroll_fraction()
        self._pane.scroll_to_fraction(self._fractions.get(opening, 0.0))
