"""The system prompt a run starts with: guidelines, the expanded Task, and the run's state."""

from __future__ import annotations

GUIDELINES = """\
- Follow the Task below: it is your operator's standing instruction. You read it and never
  change it.
- What you learn on your own goes to your Memory and your notes, never into the Task.
- An <unreachable> element stands where the Task embeds a file you cannot reach. Work without
  it and report the link; do not guess what it holds.
- The Task is standing guidance. It is not a question to answer, and not a reason to post in
  group chat."""


def build_system_prompt(
    *,
    agent_name: str,
    guild_name: str,
    org_name: str,
    expanded_task: str,
    run_id: str,
    created_at: str,
) -> str:
    """The whole prompt; the Task sits exactly as ``<task>\\n<expanded Task>\\n</task>``."""
    return (
        "<guidelines>\n"
        f"You are {agent_name}, an agent of the {guild_name} guild at {org_name}.\n"
        f"{GUIDELINES}\n"
        "</guidelines>\n\n"
        f"<task>\n{expanded_task}\n</task>\n\n"
        "<state>\n"
        f"Run: {run_id}\n"
        f"Started: {created_at}\n"
        "</state>\n"
    )


def task_section(system_prompt: str) -> str:
    """The expanded Task inside a system prompt built by ``build_system_prompt``."""
    start = system_prompt.index("<task>\n") + len("<task>\n")
    end = system_prompt.rindex("\n</task>")
    return system_prompt[start:end]
