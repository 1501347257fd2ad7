"""The Prompt tab's banners, drawn from the session's state, the embed status and the preview."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from PySide6.QtWidgets import QVBoxLayout, QWidget

from app.core.expander import Expansion
from app.core.models import BrokenEmbed
from app.desk.session_state import SessionState
from widgets.task.merge_banner import MergeBanner
from widgets.window.banners import (
    BudgetBanner,
    ConflictBanner,
    DraftRecoveryBanner,
    MessageBar,
    OfflineBanner,
    UnreachableBanner,
)


class TaskBanners:
    """The banners above the Task, each shown only while it has something to say.

    Not a widget of its own: the banners go straight into the tab's layout (``add_to``), so
    hidden ones take no room at all.
    """

    def __init__(self) -> None:
        self.draft_banner = DraftRecoveryBanner()
        self.conflict_banner = ConflictBanner()
        self.merge_banner = MergeBanner()
        self.offline_banner = OfflineBanner()
        self.unreachable_banner = UnreachableBanner()
        self.budget_banner = BudgetBanner()
        self.message_bar = MessageBar()
        for banner in self._state_banners():
            banner.hide()

    def _state_banners(self) -> tuple[QWidget, ...]:
        return (
            self.draft_banner,
            self.conflict_banner,
            self.merge_banner,
            self.offline_banner,
            self.unreachable_banner,
            self.budget_banner,
        )

    def every_banner(self) -> tuple[QWidget, ...]:
        return (*self._state_banners(), self.message_bar)

    def add_to(self, layout: QVBoxLayout) -> None:
        for banner in self.every_banner():
            layout.addWidget(banner)

    def show_state(self, state: SessionState, agent_name: str) -> None:
        """A conflict, being offline, a draft from an earlier session."""
        self.conflict_banner.setVisible(state.conflict is not None)
        if state.conflict is not None:
            self.conflict_banner.set_conflict(
                state.conflict.updated_by_name or "", state.conflict.version, state.base_version
            )
        self.offline_banner.setVisible(state.offline)
        if state.offline:
            self.offline_banner.set_as_of(state.offline_as_of)
        self.draft_banner.setVisible(state.draft is not None)
        if state.draft is not None:
            self.draft_banner.set_draft(
                agent_name, state.draft.base_version or 0, state.draft.saved_at
            )

    def show_broken(
        self,
        broken: Sequence[BrokenEmbed],
        task_path: str | None,
        unsaved: Collection[str] = frozenset(),
    ) -> None:
        """The embeds this agent can't reach (``task_path`` None: unknown); ``unsaved``: the
        ones only the edited text has."""
        self.unreachable_banner.setVisible(bool(broken))
        if broken and task_path is not None:
            self.unreachable_banner.set_broken(broken, task_path, unsaved)

    def hide_budget(self) -> None:
        self.budget_banner.hide()

    def show_budget(self, expansion: Expansion) -> None:
        """Over the embed budget, a run can't start: say so while it is."""
        self.budget_banner.setVisible(expansion.over_budget)
        if expansion.over_budget:
            self.budget_banner.set_embedded_bytes(expansion.embedded_bytes)
