"""Random workspaces for the References property tests: Tasks and notes made of embeds,
named files, and the characters that trip parsers, over an org of notes, collections and
other files with random access lists."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from app.core.marker_reasons import EarlierFile
from app.core.models import OrgFile, Reader
from tests.org_strategies import org_files_at

# No deadline or too-slow check: a busy machine would turn them into failures that say
# nothing about the code.
PROPERTIES = settings(deadline=None, max_examples=120, suppress_health_check=[HealthCheck.too_slow])

ORG_ID = "o_acme"
READER = Reader("a_scout", "guild_ops")
TASK_PATH = "org/o_acme/agents/a_scout/task.md"

DISPLAY_PATHS = [
    "org/o_acme/a.md",
    "org/o_acme/guilds/guild_ops/b.md",
    "org/o_acme/agents/a_scout/c.md",
    "org/o_acme/guilds/guild_research/d.md",
    "org/o_acme/Memory.md",
    "org/o_acme/2024 plan (v2).MD",
    "org/o_acme/R&D <x>.md",
    "org/o_acme/customers",
    "org/o_acme/agents/a_scout/memory.md",
    "org/o_acme/gone.md",
]
NOT_DISPLAY_PATHS = [
    "org/o_other/e.md",
    "guild/f.md",
    "agent/scout/g.md",
    "recipe:h",
    "org/o_acme//i.md",
    "org/style.md",
    "org/o_acme/./j.md",
    "org\\o_acme\\k.md",
    "org/o_acme",
]
TOKENS = [
    "![[",
    "]]",
    "[[",
    "[",
    "]",
    "!",
    "`",
    "(",
    ")",
    ".",
    "\n",
    "\r\n",
    "\r",
    " ",
    "\t",
    "é€",
    '&<>"',
    "text",
    "![[]]",
    "![[ ]]",
    "x/",
    *(f"![[{p}]]" for p in DISPLAY_PATHS + NOT_DISPLAY_PATHS),
    *(f"![[ \t{p} ]]" for p in DISPLAY_PATHS[:3]),
    # Named files: bare, in backticks, in brackets, after punctuation.
    *DISPLAY_PATHS[:4],
    *(f"`{p}`" for p in DISPLAY_PATHS[4:7]),
    "(org/o_acme/a.md)",
    "org/o_acme/a.md.",
    "https://example.com/org/o_acme/a.md",
]
soup = st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=4)), max_size=25).map("".join)


def org_files() -> st.SearchStrategy[dict[str, OrgFile]]:
    """Some display paths hold notes, collections or other files; some hold nothing."""
    return org_files_at(DISPLAY_PATHS, soup)


histories = st.lists(
    st.builds(
        EarlierFile,
        st.sampled_from(DISPLAY_PATHS),
        st.one_of(st.none(), st.integers(1, 9)),
        st.sampled_from(["", "run_1", "run_2"]),
    ),
    max_size=4,
)
