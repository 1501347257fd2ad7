"""The org search's answer written as bytes is exactly what encoding its dicts would make."""

from __future__ import annotations

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.fleet_rows import LineSearch, line_matches
from app.server.fleet_search import SearchableText, agent_entry, search_body


def _expected(agents: list[tuple[str, str, str]], search: LineSearch) -> bytes:
    rows = []
    for agent_id, name, text in agents:
        matches = line_matches(search.pattern, text)
        if matches:
            rows.append({"id": agent_id, "name": name, "matches": matches})
    return orjson.dumps({"agents": rows})


def _written(agents: list[tuple[str, str, str]], search: LineSearch) -> bytes:
    entries = []
    for agent_id, name, text in agents:
        kept = SearchableText(text)
        # The first search counts its lines; the second looks them up and reads the text
        # the first encoded: both must be the same bytes.
        matches = kept.encoded_matches(search)
        assert kept.encoded_matches(search) == matches
        if matches:
            entries.append(agent_entry(agent_id, name, matches))
    return search_body(entries)


def test_quotes_controls_returns_and_wide_letters_are_encoded_as_orjson_does() -> None:
    texts = [
        'say "csv"\\ here\t\x01\r\nno\nCSV ✓ 🚀 "x"\r',
        "İİ csv: lower-casing changes the length here",
        "",
        "csv",
        "x" * 5000 + " csv",  # a column past the kept numbers
    ]
    agents = [(f"a{n}", f'Agent "{n}" ✓', text) for n, text in enumerate(texts)]
    for query, regex in (("csv", False), ("CSV ✓", False), (r"c.v$", True), (r"^$", True)):
        search = LineSearch(query, regex=regex)
        assert _written(agents, search) == _expected(agents, search), query
    assert _written(agents, LineSearch("zebra", regex=False)) == b'{"agents":[]}'


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet='ab\n\r C"\\é\x00İ', max_size=60), min_size=1, max_size=4),
    st.text(alphabet="ab C", min_size=1, max_size=3),
    st.booleans(),
)
def test_any_texts_give_the_encoded_dicts_bytes(texts: list[str], query: str, regex: bool) -> None:
    agents = [(f"a{n}", f"n{n}", text) for n, text in enumerate(texts)]
    search = LineSearch(query, regex=regex)
    assert _written(agents, search) == _expected(agents, search)
