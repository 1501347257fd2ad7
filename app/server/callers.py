"""Who is calling the reference server, and what their access lists let them read."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.models import AccessEntry, PersonType, Reader


@dataclass(frozen=True, slots=True)
class Caller:
    """The person or agent a bearer token belongs to."""

    id: str
    name: str
    type: PersonType
    guild_id: str | None = None  # agents only

    @property
    def is_operator(self) -> bool:
        return self.type == "operator"

    def principals(self) -> frozenset[str]:
        """The access-list principals that name this caller."""
        if self.type == "agent" and self.guild_id is not None:
            return Reader(self.id, self.guild_id).principals()
        return frozenset({f"user:{self.id}", "org"})

    def can_read(self, access: tuple[AccessEntry, ...]) -> bool:
        """Operators read every file of the org; others only what an access entry gives."""
        if self.is_operator:
            return True
        principals = self.principals()
        return any(e.role in ("read", "write") and e.principal in principals for e in access)


SEED_AUTHOR = Caller(id="taskdesk", name="Taskdesk", type="operator")
"""Who a seeded starting Task is recorded as when the workspace names no operator."""
