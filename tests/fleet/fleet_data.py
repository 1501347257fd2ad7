"""The fleet the fleet's tests use: agents that all say CSV and embed one rules note."""

from __future__ import annotations

from typing import Any

ORG = "org/o_acme"
RULES = f"{ORG}/rules.md"
FLEET_SIZE = 12


def fleet_workspace(size: int = FLEET_SIZE) -> dict[str, Any]:
    agents = [
        {
            "id": f"a_{n:03d}",
            "name": f"Agent {n}",
            "guild": "guild_ops" if n % 2 else "guild_research",
            "task": f"# Agent {n}\n\nExport each report as CSV.\n\n## Work\n![[{RULES}]]\n",
        }
        for n in range(size)
    ]
    return {
        "org": {"id": "o_acme", "name": "Acme"},
        "guilds": [
            {"id": "guild_ops", "name": "Operations"},
            {"id": "guild_research", "name": "Research"},
        ],
        "people": [
            {"id": "u_ann", "name": "Ann", "type": "operator", "token": "ann-secret"},
            {"id": "u_bob", "name": "Bob", "type": "operator", "token": "bob-secret"},
            {"id": "u_mia", "name": "Mia", "type": "member", "token": "mia-secret"},
        ],
        "agents": agents,
        "notes": [
            {
                "path": RULES,
                "title": "Rules",
                "text": "Never page the night shift.\n",
                "access": [{"principal": "org", "role": "read"}],
            },
            {
                "path": f"{ORG}/big.md",
                "title": "Big",
                "text": "x" * 70_000,
                "access": [{"principal": "org", "role": "read"}],
            },
        ],
    }
