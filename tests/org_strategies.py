"""Random orgs for property tests: display paths holding notes, collections or other files,
with random titles, versions and access lists."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from app.core.models import AccessEntry, Kind, OrgFile

KINDS: list[Kind] = ["note", "note", "note", "collection", "file"]  # notes most often
access_entry = st.builds(
    AccessEntry,
    st.sampled_from(
        [
            "org",
            "agent:a_scout",
            "agent:a_other",
            "guild:guild_ops",
            "guild:guild_research",
            "user:a_scout",
        ]
    ),
    st.sampled_from(["read", "write", "comment"]),
)


def org_files_at(
    paths: Sequence[str], text: st.SearchStrategy[str]
) -> st.SearchStrategy[dict[str, OrgFile]]:
    """Some of ``paths`` hold files (a note's text drawn from ``text``); the rest nothing."""

    @st.composite
    def files(draw: st.DrawFn) -> dict[str, OrgFile]:
        found: dict[str, OrgFile] = {}
        for path in draw(st.lists(st.sampled_from(list(paths)), unique=True)):
            kind = draw(st.sampled_from(KINDS))
            found[path] = OrgFile(
                path,
                kind,
                title=draw(st.sampled_from(["", "Title", "R&D <t>"])),
                text=draw(text) if kind == "note" else None,
                version=draw(st.integers(1, 9)),
                access=tuple(draw(st.lists(access_entry, max_size=3))),
            )
        return found

    return files()
