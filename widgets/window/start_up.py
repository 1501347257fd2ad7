"""Start-up and signing in: which server and token, the embedded default, the Connect dialog."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QMainWindow

from app.core.user_message import MessageKey
from app.desk.failures import connect_fault, failure_text
from app.desk.runner import Runner
from widgets.window.messages import Messages
from widgets.window.sidebar import Sidebar

if TYPE_CHECKING:  # the modules themselves load on first use, after the first paint
    from app.connect.connection import Connection, StartOutcome
    from app.connect.credentials import TokenStore
    from app.connect.embedded import EmbeddedLaunch, EmbeddedServer
    from app.core.models import AgentRow
    from app.store import LocalStore
    from widgets.dialogs.connect import ConnectDialog
    from widgets.dialogs.connect_request import ConnectRequest
    from widgets.dialogs.damaged_workspace import DamagedWorkspaceDialog

log = logging.getLogger(__name__)

FIRST_PAINT_FALLBACK_MS = 250


class StartUp(QObject):
    """Finds the server to open and signs in to it, every blocking step on the runner (only
    the local server's process is started on the GUI thread, see ``_launch_local``).

    ``starting`` fires as signing in goes to the runner, ``token_needed(url)``
    when the server to open has no token yet (the window asks for one), ``connected``
    once a server has taken the token. It keeps the session's token store (``tokens``),
    the embedded local server while it serves (``embedded``) and the Connect dialog while
    it is open (``connect_dialog``, so tests can fill it in). ``current_store`` is the open
    server's store, which the next server keeps using.
    """

    starting = Signal()
    token_needed = Signal(str)  # the server's URL ("" when none is known)
    connected = Signal(object)  # app.connect.connection.Connection

    def __init__(
        self,
        runner: Runner,
        window: QMainWindow,
        messages: Messages,
        sidebar: Sidebar,
        current_store: Callable[[], LocalStore | None],
        data_dir: Path | None = None,
    ) -> None:
        super().__init__(window)
        self._runner = runner
        self._window = window
        self._messages = messages
        self._sidebar = sidebar
        self._current_store = current_store
        self._data_dir = data_dir
        self.tokens: TokenStore | None = None
        self.embedded: EmbeddedServer | None = None
        self.connect_dialog: ConnectDialog | None = None
        self.damaged_dialog: DamagedWorkspaceDialog | None = None
        self._pending = False
        self._closing = False
        self._url: str | None = None

    # ------------------------------------------------------------------ starting

    def start_after_first_paint(self, server_url: str | None) -> None:
        """``start`` once the window is on screen, so nothing delays the first paint.

        A zero timer would run before the paint event; the window's first paint
        (``on_painted``, or where the platform sends none, a short fallback timer) triggers
        the start instead.
        """
        self._url, self._pending = server_url, True
        QTimer.singleShot(FIRST_PAINT_FALLBACK_MS, self.on_painted)

    def on_painted(self) -> None:
        if self._pending:
            self._pending = False
            self.start(self._url)

    def start(self, server_url: str | None = None, *, local: bool = False) -> None:
        """Connect to ``server_url``, else the remembered server, else the embedded default
        (``local``: the embedded default whatever was remembered)."""
        from app.connect.paths import data_dir

        folder = self._data_dir or data_dir()
        self._sidebar.set_empty_text("Starting…")
        if server_url is None:
            # The local workspace is checked (and seeded) on the runner; its server is then
            # started here, on the GUI thread (_launch_local).
            self._runner.submit(
                lambda: _workspace_to_serve(folder, local=local),
                on_done=lambda workspace: self._launch_local(folder, workspace, local=local),
                on_error=self._on_start_failed,
                lane="disk",
            )
        else:
            self._begin(server_url, folder, None, local=local)
            self.starting.emit()

    def _launch_local(self, folder: Path, workspace: Path | None, *, local: bool) -> None:
        """Start the local server (``workspace``: None when it is not the one to open), then
        sign in. Started here because the GUI thread is the one thread that lasts as long as
        the app: the server is then told to end with the app (app.connect.exit_with_parent),
        even when the app is killed. At start-up this comes after the first paint, and the
        server is ready ~0.3 s later, while the app loads its own modules."""
        if self._closing:
            return  # the window closed meanwhile: no server to leave behind
        launch = None
        if workspace is not None:
            from app.connect.embedded import EmbeddedError, EmbeddedLaunch

            # If it can't start, begin() meets the problem again on the runner and says it.
            with contextlib.suppress(EmbeddedError):
                launch = EmbeddedLaunch(folder, workspace)
        self._begin(None, folder, launch, local=local)
        # Only now: the Task tab's building would otherwise hold this turn back, and the
        # server's own start is what the first Task waits for.
        self.starting.emit()

    def _begin(
        self, server_url: str | None, folder: Path, launch: EmbeddedLaunch | None, *, local: bool
    ) -> None:
        tokens = self.tokens  # this session's: a token kept for the session is found again
        self._runner.submit(
            lambda: _begin(server_url, folder, launch, local=local, tokens=tokens),
            on_done=self._on_begun,
            on_error=self._on_start_failed,
        )

    def open_local(self) -> None:
        """File › Open local workspace, and where a cancelled start lands."""
        if self.embedded is not None:
            from app.connect.remembered import forget_last_server
            from widgets.dialogs.connect_request import ConnectRequest

            request = ConnectRequest(self.embedded.url, self.embedded.token, remember=False)
            self._runner.submit(forget_last_server, on_done=lambda _: None, lane="disk")
            self.connect_to(request, local=True)
        else:
            self.start(local=True)

    def _on_dialog_cancelled(self) -> None:
        self.connect_dialog = None
        if self._current_store() is None:  # nothing open yet: never leave the window empty
            self.open_local()

    def cancel(self) -> None:
        """The window is closing: nothing more starts, so no local server is left behind."""
        self._pending = False
        self._closing = True

    def stop_embedded(self) -> None:
        if self.embedded is not None:
            self.embedded.stop()
            self.embedded = None

    def _on_begun(self, outcome: StartOutcome) -> None:
        self.tokens = outcome.tokens or self.tokens  # the local workspace keeps the session's
        if outcome.connection is not None:
            self.embedded = outcome.embedded
            self._on_connected(outcome.connection)
        elif outcome.plan.token is None or outcome.plan.url is None:
            self.token_needed.emit(outcome.plan.url or "")
        else:
            from widgets.dialogs.connect_request import ConnectRequest

            self.connect_to(ConnectRequest(outcome.plan.url, outcome.plan.token, remember=False))

    # ------------------------------------------------------------------ signing in

    def connect_to(self, request: ConnectRequest, *, local: bool = False) -> None:
        """Sign in to a server; on success ``connected`` fires."""
        from app.connect.connection import open_connection

        self._messages.show_status(f"Connecting to {request.url}…", MessageKey.CONNECT)
        tokens, store = self.tokens, self._current_store()
        self._runner.submit(
            lambda: open_connection(
                request.url,
                request.token,
                tokens=tokens,
                store=store,
                remember=request.remember,
                in_file=request.in_file,
                local=local,
            ),
            on_done=self._on_connected,
            on_error=self._on_connect_failed,
        )

    def ask(self, url: str) -> None:
        """The Connect dialog, filled with ``url``; the keyring is probed off the GUI thread."""
        from app.connect.connection import keyring_available, token_store

        tokens = self.tokens

        def probe() -> tuple[TokenStore, bool]:
            return (tokens if tokens is not None else token_store(None)), keyring_available()

        def show_dialog(found: tuple[TokenStore, bool]) -> None:
            from widgets.dialogs.connect import ConnectDialog  # not before the first paint

            self.tokens, has_keyring = found
            dialog = ConnectDialog(url, keyring_available=has_keyring, parent=self._window)
            self.connect_dialog = dialog
            dialog.submitted.connect(self.connect_to)
            dialog.rejected.connect(self._on_dialog_cancelled)
            dialog.open()

        self._runner.submit(probe, on_done=show_dialog, on_error=self._on_start_failed)

    def remember_agent(self, connection: Connection, agent_id: str, agent: AgentRow | None) -> None:
        """The agent to reopen on the next start: a settings write, off the GUI thread. On a
        server that doesn't list agents its guild is kept too (it was typed by hand)."""
        from app.connect.remembered import remember_last_agent

        key = connection.server_key
        by_id = not connection.features.agent_list
        guild = agent.guild_id if agent is not None and by_id else ""
        self._runner.submit(
            lambda: remember_last_agent(key, agent_id, opened_by_id=by_id, guild_id=guild),
            on_done=lambda _: None,
            on_error=lambda exc: log.warning("could not remember the agent: %s", exc),
            lane="disk",
        )

    def _on_connected(self, connection: Connection) -> None:
        self._messages.retract(MessageKey.CONNECT)  # "Connecting to …" is over
        if self.connect_dialog is not None:
            self.connect_dialog.accept()  # the server took the token: the dialog is done
            self.connect_dialog = None
        self.connected.emit(connection)

    def _on_start_failed(self, exc: BaseException) -> None:
        from app.connect.embedded import EmbeddedError

        self._messages.retract(MessageKey.CONNECT)
        self._sidebar.set_empty_text("No workspace is open.")
        if isinstance(exc, EmbeddedError) and exc.damaged:
            self._offer_fresh_workspace(str(exc))
        else:
            self._messages.error(failure_text(exc))

    def _offer_fresh_workspace(self, text: str) -> None:
        """A damaged local workspace: a fresh one (the old files kept aside), or a server."""
        from widgets.dialogs.damaged_workspace import DamagedWorkspaceDialog

        dialog = DamagedWorkspaceDialog(text, self._window)
        self.damaged_dialog = dialog
        dialog.fresh_requested.connect(self._start_fresh)
        dialog.connect_requested.connect(lambda: self.ask(""))
        dialog.finished.connect(lambda _: setattr(self, "damaged_dialog", None))
        dialog.open()

    def _start_fresh(self) -> None:
        from app.connect.embedded import set_aside_local_workspace
        from app.connect.paths import data_dir

        folder = self._data_dir or data_dir()

        def started_over(aside: Path) -> None:
            self._messages.info(f"The damaged local workspace is kept in {aside}.")
            self.start()

        self._sidebar.set_empty_text("Starting…")
        self._runner.submit(
            lambda: set_aside_local_workspace(folder),
            on_done=started_over,
            on_error=self._on_start_failed,
        )

    def _on_connect_failed(self, exc: BaseException) -> None:
        self._messages.retract(MessageKey.CONNECT)  # failed: "Connecting to …" is untrue now
        self._sidebar.set_empty_text("Not connected. Use File › Connect to server….")
        text = failure_text(exc)
        if self.connect_dialog is not None and self.connect_dialog.isVisible():
            # The dialog stays, focus on the field to fix (a refused token: the token).
            self.connect_dialog.show_failure(text, connect_fault(exc))
        else:
            self._messages.error(text)


def _workspace_to_serve(folder: Path, *, local: bool) -> Path | None:
    """On the runner: the workspace's files (its module loads there too)."""
    from app.connect.local_workspace import workspace_to_serve

    return workspace_to_serve(folder, local=local)


def _begin(
    server_url: str | None,
    folder: Path,
    launch: EmbeddedLaunch | None,
    *,
    local: bool,
    tokens: TokenStore | None,
) -> StartOutcome:
    """On the runner: the connection's modules (requests among them) load here, not on the
    GUI thread."""
    from app.connect.connection import begin

    return begin(server_url, folder, launch, local=local, tokens=tokens)
