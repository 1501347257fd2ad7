"""What a run does with each reference, in one wording for the CLI and the References panel."""

from __future__ import annotations

from app.core.references import Reference, References
from app.core.viewer_reach import AGENT_READS_IT, is_hidden
from app.core.wording import counted, format_kb


def summary_of(references: References) -> str:
    """The one line above every reference (``taskdesk references``, the References panel):
    what the run meets, what it inlines against the budget, what it can't reach. A note the
    agent reads but the viewer can't see is counted apart, never as unreachable."""
    every = list(references.walk())
    as_text = sum(1 for r in every if r.outcome == "text")
    named = sum(1 for r in every if r.outcome == "named")
    embeds = len(every) - named - as_text
    expansion = references.expansion
    hidden = sum(1 for r in references.markers if is_hidden(r.reason))
    markers = len(references.markers) - hidden
    left_as_text = f" (+{as_text} left as text)" if as_text else ""
    parts = [
        f"{counted(embeds, 'embed')}{left_as_text}, {counted(named, 'named file')}",
        f"{counted(len(expansion.notes), 'note')} inlined "
        f"({format_kb(expansion.embedded_bytes)} of {format_kb(expansion.budget)})",
        f"{markers} unreachable" if markers else "every embed reaches its file",
    ]
    if hidden:
        parts.append(f"{hidden} the agent reads that you can't see")
    if expansion.over_budget:
        parts.append(f"{expansion.embedded_bytes - expansion.budget:,} bytes over the budget")
    return " · ".join(parts)


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
