"""View › Look: System, Light or Dark, chosen in the app and kept in the settings."""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QApplication, QMenu

from app.desk.runner import Runner
from widgets.common.theme import LOOK_CHOICES, SchemeFollower, scheme_follower

log = logging.getLogger(__name__)

LABELS = {"system": "As the &system", "light": "&Light", "dark": "&Dark"}


def save_look(choice: str) -> None:
    """On the disk lane: the choice kept for the next start."""
    from app.connect.paths import settings_path
    from app.connect.settings import load_settings, save_settings

    settings = load_settings(settings_path()).settings
    settings.look = choice
    save_settings(settings, settings_path())


def saved_look() -> str:
    from app.connect.paths import settings_path
    from app.connect.settings import load_settings

    return load_settings(settings_path()).settings.look


class LookMenu(QObject):
    """Fills ``menu`` with the three looks (one checked); choosing one shows it at once."""

    def __init__(self, menu: QMenu, runner: Runner) -> None:
        super().__init__(menu)
        self._runner = runner
        self.group = QActionGroup(self)
        self.group.setExclusive(True)
        self.actions: dict[str, QAction] = {}
        for choice in LOOK_CHOICES:
            action = menu.addAction(LABELS[choice])
            action.setCheckable(True)
            action.setData(choice)
            action.setObjectName(f"Look {choice}")
            self.group.addAction(action)
            self.actions[choice] = action
        self.group.triggered.connect(self._on_chosen)
        app = QApplication.instance()
        # Only looked for here: making one (a host or test without start-up's) restyles
        # every widget, which waits for the operator's first choice.
        found = app.findChild(SchemeFollower) if app is not None else None
        self.actions[found.choice if isinstance(found, SchemeFollower) else "system"].setChecked(
            True
        )

    @staticmethod
    def _follower() -> SchemeFollower:
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        return scheme_follower(app)

    def choose(self, choice: str) -> None:
        self.actions[choice].trigger()

    def _on_chosen(self, action: QAction) -> None:
        choice = str(action.data())
        self._follower().set_choice(choice)
        self._runner.submit(
            lambda: save_look(choice),
            on_done=lambda _: None,
            on_error=lambda exc: log.warning("could not keep the look: %s", exc),
            lane="disk",
        )
