"""Embed verdicts for the editor's highlighting, read off real expansions (no Qt)."""

from __future__ import annotations

from app.core.embed_verdicts import embed_verdicts, server_verdicts
from app.core.expander import expand_embeds
from app.core.models import AccessEntry, BrokenEmbed, OrgFile, Reader

ORG = "o_acme"
READER = Reader("a_scout", "guild_ops")
STYLE = "org/o_acme/guilds/guild_ops/style-guide.md"
TONE = "org/o_acme/guilds/guild_ops/tone.md"
PRIVATE = "org/o_acme/guilds/guild_research/private.md"
CUSTOMERS = "org/o_acme/guilds/guild_ops/customers"
MISSING = "org/o_acme/missing.md"
OPEN = (AccessEntry("org", "read"),)

FILES = {
    STYLE: OrgFile(STYLE, "note", "Style guide", f"Be brief. ![[{TONE}]]\n", 1, OPEN),
    TONE: OrgFile(TONE, "note", "Tone", "Warm.\n", 1, OPEN),
    PRIVATE: OrgFile(PRIVATE, "note", "Private", "Secret.\n", 1, ()),
    CUSTOMERS: OrgFile(CUSTOMERS, "collection", "Customers", None, 1, OPEN),
}


def _verdicts(text: str) -> dict[str, str]:
    expansion = expand_embeds(text, org_id=ORG, reader=READER, lookup=FILES)
    return dict(embed_verdicts(expansion.pieces))


def test_each_kind_of_embed_gets_its_verdict() -> None:
    text = f"# Task\n![[{STYLE}]]\n![[{CUSTOMERS}]]\n![[{PRIVATE}]]\n![[{MISSING}]]\n"
    assert _verdicts(text) == {
        STYLE: "inlined",
        CUSTOMERS: "collection",
        PRIVATE: "unreachable",
        MISSING: "unreachable",
    }


def test_a_note_embedded_twice_keeps_its_first_verdict() -> None:
    text = f"![[{STYLE}]]\nagain: ![[{STYLE}]]\n"
    # The second embed really is a repeat in the expansion: the first verdict wins over it.
    expansion = expand_embeds(text, org_id=ORG, reader=READER, lookup=FILES)
    assert [type(p).__name__ for p in expansion.pieces].count("RepeatPiece") == 1
    assert _verdicts(text) == {STYLE: "inlined"}


def test_a_repeat_with_no_earlier_top_level_embed_is_marked_repeat() -> None:
    # Tone is inlined inside the style guide first; the Task's own embed of it repeats it.
    assert _verdicts(f"![[{STYLE}]]\n![[{TONE}]]\n") == {STYLE: "inlined", TONE: "repeat"}


def test_text_without_embeds_has_no_verdicts() -> None:
    assert _verdicts("Plain text, [a link](https://example.com) and [[not an embed]].\n") == {}


def test_server_verdicts_mark_only_the_tasks_own_broken_embeds() -> None:
    broken = [
        BrokenEmbed(MISSING, 1, "org/o_acme/agents/a_scout/task.md"),
        BrokenEmbed(PRIVATE, 2, STYLE),  # inside a note: not an embed the editor shows
    ]
    assert server_verdicts(broken) == {MISSING: "unreachable"}
    assert server_verdicts([]) == {}
