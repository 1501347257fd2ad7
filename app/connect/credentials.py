"""Tokens: the system keyring where there is one, else this session only, or a 0600 file.

A token is never written to settings, the cache, logs or exception text. ``TASKDESK_TOKEN``
serves its session and is never stored. Keyring calls may block (D-Bus): use a worker.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from app.connect.private_files import (  # noqa: F401  (kept importable from here)
    PRIVATE_FILE_MODE,
    PRIVATE_FOLDER_MODE,
    make_private,
    private_folder,
    write_private_file,
)
from app.store.server_keys import server_key

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

# keyring is imported where a token is looked up or kept there, not with this module: its
# import (entry points, jaraco, ~100 ms) is not needed when TASKDESK_TOKEN or the session
# has the token, nor by the local workspace.

KEYRING_SERVICE = "taskdesk"
TOKEN_ENV = "TASKDESK_TOKEN"

TokenSource = Literal["environment", "session", "keyring", "file"]


def _system_keyring() -> KeyringBackend:
    import keyring

    return keyring.get_keyring()


class CredentialsError(Exception):
    """A token could not be kept where asked; ``message`` says so (it never holds the token)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class FoundToken:
    token: str = field(repr=False)
    source: TokenSource


@dataclass(frozen=True, slots=True)
class TokenPlace:
    """Where ``remember`` put a token, and a sentence the app can show the operator."""

    source: TokenSource
    note: str
    path: Path | None = None
    fell_back: bool = False  # asked to keep it longer, it is kept for this session only


def keyring_available(backend: KeyringBackend | None = None) -> bool:
    """True when tokens can go into a real system keyring.

    The fail and null backends (and a chainer with nothing to chain) accept calls but keep
    nothing, so they count as no keyring.
    """
    from keyring.backends import chainer, fail, null

    active = backend if backend is not None else _system_keyring()
    if isinstance(active, fail.Keyring | null.Keyring):
        return False
    if isinstance(active, chainer.ChainerBackend):
        return any(keyring_available(b) for b in active.backends)
    return True


class TokenStore:
    """Finds and keeps tokens per server (by server key, so credentials in a URL don't count).

    Lookup order: the environment token (its session only), this session's tokens, the
    keyring, the operator's token file.
    """

    def __init__(
        self,
        token_file: Path,
        *,
        backend: KeyringBackend | None = None,
        env: Mapping[str, str] | None = None,
        env_server: str | None = None,
    ) -> None:
        """``env_server``: the server the environment token is for (``--server``); None
        means it serves whichever server this session opens."""
        self.token_file = Path(token_file)
        self._backend = backend
        source = os.environ if env is None else env
        self._env_token = source.get(TOKEN_ENV) or None
        self._env_server = server_key(env_server) if env_server else None
        self._session: dict[str, str] = {}

    @property
    def backend(self) -> KeyringBackend:
        return self._backend if self._backend is not None else _system_keyring()

    def keyring_available(self) -> bool:
        return keyring_available(self.backend)

    # ------------------------------------------------------------------ finding

    def token_for(self, server_url: str) -> FoundToken | None:
        key = server_key(server_url)
        if self._env_token and self._env_server in (None, key):
            return FoundToken(self._env_token, "environment")
        if key in self._session:
            return FoundToken(self._session[key], "session")
        if self.keyring_available():
            from keyring.errors import KeyringError

            try:
                stored = self.backend.get_password(KEYRING_SERVICE, key)
            except KeyringError:
                stored = None  # a locked or broken keyring: fall through to the file/prompt
            if stored:
                return FoundToken(stored, "keyring")
        from_file = self._read_file().get(key)
        return FoundToken(from_file, "file") if from_file else None

    # ------------------------------------------------------------------ keeping

    def keep_for_session(self, server_url: str, token: str) -> None:
        """Keep ``token`` for this session only: found again until the app quits."""
        self._session[server_key(server_url)] = token

    def remember(self, server_url: str, token: str, *, in_file: bool = False) -> TokenPlace:
        """Keep ``token`` for the server: in the keyring when there is one; in the token file
        only when the operator asked (``in_file``); otherwise for this session only.

        Raises CredentialsError when the file can't be written (the token is still kept for
        the session).
        """
        key = server_key(server_url)
        self._session[key] = token
        if self._env_token and token == self._env_token:
            return TokenPlace(
                "session", f"The token from {TOKEN_ENV} is used for this session only."
            )
        if in_file:
            self._write_file_entry(key, token)
            return TokenPlace(
                "file",
                f"The token is kept in {self.token_file}, readable only by you.",
                self.token_file,
            )
        if self.keyring_available():
            from keyring.errors import KeyringError

            try:
                self.backend.set_password(KEYRING_SERVICE, key, token)
            except KeyringError:
                return TokenPlace(
                    "session",
                    "The system keyring refused the token (it may be locked); it is kept for "
                    "this session only.",
                    fell_back=True,
                )
            return TokenPlace("keyring", "The token is kept in the system keyring.")
        return TokenPlace(
            "session",
            "There is no system keyring, so the token is kept for this session only. You can "
            f"choose to keep it in a file readable only by you ({self.token_file}).",
            fell_back=True,
        )

    def forget(self, server_url: str) -> None:
        """Drop the server's token from the session, the keyring and the token file."""
        key = server_key(server_url)
        self._session.pop(key, None)
        if self._env_server in (None, key):
            self._env_token = None
        if self.keyring_available():
            from keyring.errors import KeyringError

            with contextlib.suppress(KeyringError):  # nothing stored there is fine
                self.backend.delete_password(KEYRING_SERVICE, key)
        tokens = self._read_file()
        if key in tokens:
            del tokens[key]
            self._write_file(tokens)

    # ------------------------------------------------------------------ the token file

    def _read_file(self) -> dict[str, str]:
        try:
            with open(self.token_file, "rb") as fh:
                mode = os.fstat(fh.fileno()).st_mode
                raw = fh.read()
        except OSError:
            return {}
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            # Someone widened it: narrow it back before trusting it for another run.
            with contextlib.suppress(OSError):
                os.chmod(self.token_file, 0o600)
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            return {}
        tokens = data.get("tokens") if isinstance(data, dict) else None
        if not isinstance(tokens, dict):
            return {}
        return {k: v for k, v in tokens.items() if isinstance(k, str) and isinstance(v, str)}

    def _write_file_entry(self, key: str, token: str) -> None:
        tokens = self._read_file()
        tokens[key] = token
        self._write_file(tokens)

    def _write_file(self, tokens: dict[str, str]) -> None:
        body = json.dumps({"version": 1, "tokens": tokens}, indent=2).encode("utf-8")
        try:
            write_private_file(self.token_file, body)
        except OSError as exc:
            raise CredentialsError(
                f"Can't keep the token in {self.token_file}: {exc.strerror or 'write failed'}. "
                "It is kept for this session only."
            ) from None
