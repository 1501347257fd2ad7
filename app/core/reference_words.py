"""What a run does with each reference, in one wording for the CLI and the References panel."""

from __future__ import annotations

from app.core.references import Reference
from app.core.viewer_reach import AGENT_READS_IT, is_hidden


def what_the_run_gets(item: Reference) -> str:
    """One sentence per outcome: ``taskdesk references`` prints it after each line, and the
    References panel shows it as the reference's detail line (after where it is)."""
    if item.outcome == "marker" and is_hidden(item.reason):
        return AGENT_READS_IT
    if item.outcome == "marker":
        message = item.reason.message if item.reason is not None else ""
        return f"The run gets <unreachable …/>. {message}".rstrip()
    if item.outcome == "inlined":
        version = f" (v{item.version})" if item.version is not None else ""
        title = f", “{item.title}”" if item.title else ""
        return f"Inlined: {item.bytes or 0:,} bytes of the 64 KB budget{title}{version}."
    if item.outcome == "repeat":
        return f"Inlined earlier in this run: the run gets its title “{item.title}”."
    if item.outcome == "collection":
        return f"A collection: the run gets its name “{item.title}”, never its records."
    if item.outcome == "text":
        return f"Past hop 2 embeds stay as written: the run gets ![[{item.path}]]."
    what = f"the {item.kind}" if item.kind else "nothing (no file is there)"
    return f"Written without ![[…]]: the run gets the path as text, not {what}."
