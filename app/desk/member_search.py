"""Search every Task for a member: the server's search is for operators, but every person
of the org may read every Task (``GET /api/org/tasks``), so the app searches them here with
the server's own line matcher (app.core.fleet_rows), a few hundred Tasks per request."""

from __future__ import annotations

from typing import Protocol

from app.core.fleet_models import AgentMatches, LineMatch, LiveTaskText
from app.core.fleet_rows import BadPatternError, LineSearch
from app.core.models import AgentRow, TaskDoc

IN_PROMPT_OPERATORS = (
    "Searching the prompt as each agent gets it is for operators (it reads every note): "
    "untick it to search the Tasks' own text."
)


class TaskReader(Protocol):
    """What a member's search needs of ``TaskdeskClient``."""

    def agents(self) -> list[AgentRow]: ...

    def live_tasks(self, agent_ids: list[str]) -> list[LiveTaskText]: ...

    def get_task(self, agent_id: str) -> TaskDoc: ...


class LiveTaskSearch:
    """``search`` as ``TaskdeskClient.search`` answers it, worked out from the live Tasks."""

    def __init__(self, client: TaskReader) -> None:
        self._client = client

    def search(
        self,
        query: str,
        *,
        in_prompt: bool = False,
        regex: bool = False,
        guild_id: str | None = None,
    ) -> list[AgentMatches]:
        from app.client.errors import BadPattern, OperatorsOnly
        from app.desk.change_set_flow import live_texts

        if in_prompt:
            raise OperatorsOnly(IN_PROMPT_OPERATORS)
        try:
            search = LineSearch(query, regex=regex)
        except BadPatternError:
            raise BadPattern() from None
        agents = [a for a in self._client.agents() if guild_id is None or a.guild_id == guild_id]
        names = {a.id: a.name for a in agents}
        found = []
        for task in live_texts(self._client, [a.id for a in agents]):
            lines = search.lines(task.content)
            if lines:
                matches = tuple(LineMatch(m["line"], m["column"], m["text"]) for m in lines)
                found.append(AgentMatches(task.agent_id, names[task.agent_id], matches))
        return sorted(found, key=lambda a: a.id)
