"""What the operator asked the Connect dialog for: a module of its own, so start-up can name it
without loading the dialog before the first paint."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ConnectRequest:
    """What the operator asked for; ``remember`` keeps the token in the system keyring."""

    url: str
    token: str
    remember: bool
    in_file: bool = False  # where there is no keyring: a file only the operator can read
