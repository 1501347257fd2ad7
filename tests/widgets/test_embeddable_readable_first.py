"""The picker's readable-first order holds through a search and follows a new list."""

from __future__ import annotations

from app.core.models import AccessEntry, EmbeddableNote, Reader
from widgets.editor.embeddable_model import (
    PATH_ROLE,
    READABLE_ROLE,
    EmbeddableModel,
    EmbeddableSearch,
)

OPS = (AccessEntry("guild:guild_ops", "read"),)
RESEARCH = (AccessEntry("guild:guild_research", "read"),)


def _note(name: str, access: tuple[AccessEntry, ...] | None) -> EmbeddableNote:
    return EmbeddableNote(f"org/o/{name}.md", name.title(), "note", "org", access)


def _rows(proxy: EmbeddableSearch) -> list[tuple[str, bool | None]]:
    return [
        (proxy.index(r, 0).data(PATH_ROLE), proxy.index(r, 0).data(READABLE_ROLE))
        for r in range(proxy.rowCount())
    ]


def test_readable_first_then_the_servers_order_through_search_and_a_new_list(qtbot) -> None:
    model = EmbeddableModel([_note("alpha", RESEARCH), _note("beta", OPS), _note("gamma", OPS)])
    proxy = EmbeddableSearch(model)
    assert [r for _, r in _rows(proxy)] == [None, None, None]  # no reader: server's order
    proxy.set_reader(Reader("a_scout", "guild_ops"))
    assert _rows(proxy) == [
        ("org/o/beta.md", True),
        ("org/o/gamma.md", True),
        ("org/o/alpha.md", False),
    ]
    proxy.set_search("a")  # every row has an "a"; the order holds under the filter
    assert [p for p, _ in _rows(proxy)] == ["org/o/beta.md", "org/o/gamma.md", "org/o/alpha.md"]
    proxy.set_search("alp")
    assert _rows(proxy) == [("org/o/alpha.md", False)]
    proxy.set_search("")
    model.set_notes([_note("delta", RESEARCH), _note("epsilon", OPS), _note("zeta", None)])
    assert _rows(proxy) == [
        ("org/o/epsilon.md", True),
        ("org/o/zeta.md", None),  # no access list: not marked, so not sorted down
        ("org/o/delta.md", False),
    ]
    proxy.set_reader(None)
    assert [p for p, _ in _rows(proxy)] == ["org/o/delta.md", "org/o/epsilon.md", "org/o/zeta.md"]
