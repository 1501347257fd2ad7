"""A big org's workspace, generated: many agents in guilds, many notes and collections.

Deterministic for a seed, so two runs (and the benchmark and the tests) see the same org.
The sizes follow a real big org: 5,000 agents in 200 guilds, 50,000 notes and 2,000
collections, each Task about 2.2 KB with five embeds (an org note, two notes of its guild,
one of its own agent notes, a collection), and one agent in ten also embeds a note of
another guild that it can't read (so the sidebar has marks to show).

Run: `.venv/bin/python bench/scale_workspace.py OUT.json [--agents 5000]` writes one.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from task_words import WORDS

ORG = "o_big"
OPERATOR_TOKEN = "op-secret"  # the operator's token ("u_op")


@dataclass(frozen=True, slots=True)
class Scale:
    """How big the org is. ``demo``: a tenth of ``big``; ``ci``: what GUI tests can afford."""

    agents: int
    guilds: int
    notes: int
    collections: int
    task_bytes: int = 2_200
    embeds: int = 5

    @classmethod
    def of_agents(cls, agents: int) -> Scale:
        """The big org's proportions for ``agents`` agents (25 a guild, 10 notes each)."""
        return cls(agents, max(1, agents // 25), agents * 10, max(1, agents * 2 // 5))

    def label(self) -> str:
        return f"{self.agents:,} agents / {self.notes:,} notes"


BIG = Scale.of_agents(5_000)
DEMO = Scale.of_agents(500)
CI = Scale.of_agents(2_000)


def guild_id(g: int) -> str:
    return f"g{g:04d}"


def agent_id(a: int) -> str:
    return f"a{a:05d}"


def guild_of(a: int, scale: Scale) -> int:
    return a % scale.guilds


def _prose(rng: random.Random, size: int) -> str:
    words: list[str] = []
    length = 0
    while length < size:
        word = rng.choice(WORDS)
        words.append(word)
        length += len(word) + 1
    lines = [" ".join(words[i : i + 12]) for i in range(0, len(words), 12)]
    return "\n".join(lines)


def generate(scale: Scale = BIG, seed: int = 13) -> dict[str, Any]:
    """The workspace as the JSON object `taskdesk serve --workspace` reads."""
    rng = random.Random(seed)
    guilds = [
        {"id": guild_id(g), "name": f"Guild {g:03d} {rng.choice(WORDS)}"}
        for g in range(scale.guilds)
    ]
    # Notes: a tenth org-wide, seven in ten in a guild, the rest an agent's own.
    org_notes = max(1, scale.notes // 10)
    agent_notes = max(1, scale.notes // 5)
    guild_notes = max(1, scale.notes - org_notes - agent_notes)
    notes: list[dict[str, Any]] = []
    for n in range(org_notes):
        notes.append(
            {
                "path": f"org/{ORG}/handbook-{n:05d}.md",
                "title": f"Handbook {n} {rng.choice(WORDS)}",
                "text": _prose(rng, 200),
                "access": [{"principal": "org", "role": "read"}],
            }
        )
    for n in range(guild_notes):
        gid = guild_id(n % scale.guilds)
        notes.append(
            {
                "path": f"org/{ORG}/guilds/{gid}/{rng.choice(WORDS)}-{n:05d}.md",
                "title": f"{rng.choice(WORDS).title()} {rng.choice(WORDS)} {n}",
                "text": _prose(rng, 200),
                "access": [{"principal": f"guild:{gid}", "role": "read"}],
            }
        )
    for n in range(agent_notes):
        aid = agent_id(n % scale.agents)
        notes.append(
            {
                "path": f"org/{ORG}/agents/{aid}/notes-{n:05d}.md",
                "title": f"Notes {n} of {aid}",
                "text": _prose(rng, 120),
                "access": [{"principal": f"agent:{aid}", "role": "read"}],
            }
        )
    collections = [
        {
            "path": f"org/{ORG}/guilds/{guild_id(c % scale.guilds)}/table-{c:04d}",
            "name": f"Table {c} {rng.choice(WORDS)}",
            "access": [{"principal": "org", "role": "read"}],
        }
        for c in range(scale.collections)
    ]
    agents = []
    for a in range(scale.agents):
        g = guild_of(a, scale)
        # Guild notes of guild g are those with n % guilds == g.
        own = [org_notes + g + scale.guilds * k for k in range(2)]
        embeds = [
            notes[rng.randrange(org_notes)]["path"],
            *(notes[i]["path"] for i in own if i < org_notes + guild_notes),
            notes[org_notes + guild_notes + a % agent_notes]["path"],
            collections[rng.randrange(len(collections))]["path"],
        ][: scale.embeds]
        if a % 10 == 0 and scale.guilds > 1:  # a note of another guild: unreachable
            other = org_notes + (g + 1) % scale.guilds
            embeds[-1] = notes[other]["path"]
        body = _prose(rng, scale.task_bytes - 60 * len(embeds) - 40)
        lines = body.split("\n")
        step = max(1, len(lines) // (len(embeds) + 1))
        for i, path in enumerate(embeds):
            lines.insert((i + 1) * step + i, f"![[{path}]]")
        agents.append(
            {
                "id": agent_id(a),
                "name": f"Agent {a:05d} {rng.choice(WORDS)}",
                "guild": guild_id(g),
                "task": f"# Agent {a}\n\n" + "\n".join(lines) + "\n",
            }
        )
    return {
        "org": {"id": ORG, "name": "Big org"},
        "guilds": guilds,
        "people": [{"id": "u_op", "name": "Olga", "type": "operator", "token": OPERATOR_TOKEN}],
        "agents": agents,
        "notes": notes,
        "collections": collections,
        "files": [],
    }


def write(path: Path, scale: Scale = BIG, seed: int = 13) -> Path:
    """Write the workspace to ``path`` (compact JSON) and return it."""
    path.write_text(json.dumps(generate(scale, seed), separators=(",", ":")), encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--agents", type=int, default=BIG.agents)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    scale = Scale.of_agents(args.agents)
    write(args.out, scale, args.seed)
    print(f"{args.out}: {scale.label()}, {scale.guilds} guilds, {scale.collections} collections")


if __name__ == "__main__":
    main()
