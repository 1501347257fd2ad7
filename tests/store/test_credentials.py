"""Tokens: the keyring when there is one, else session only or an explicit 0600 file."""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import chainer, fail, null
from keyring.errors import PasswordDeleteError, PasswordSetError

from app.connect.credentials import KEYRING_SERVICE, CredentialsError, TokenStore, keyring_available

URL = "https://tasks.example.com/"
TOKEN = "tok-7f3a9c-very-secret"


class MemoryKeyring(KeyringBackend):
    """A real keyring backend that keeps passwords in a dict (no desktop keyring in CI)."""

    priority = 1
    viable = False  # kept out of keyring's own auto-detection

    def __init__(self) -> None:
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.passwords.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.passwords[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.passwords.pop((service, username), None) is None:
            raise PasswordDeleteError("not stored")


class LockedKeyring(MemoryKeyring):
    def set_password(self, service: str, username: str, password: str) -> None:
        raise PasswordSetError("the collection is locked")


@pytest.fixture
def token_file(tmp_path: Path) -> Path:
    return tmp_path / "home" / "config" / "tokens.json"


@pytest.fixture
def system_keyring() -> Iterator[None]:
    """Restores whatever keyring was active, since keyring.set_keyring is process-wide."""
    before = keyring.get_keyring()
    yield
    keyring.set_keyring(before)


def test_keyring_detection() -> None:
    assert keyring_available(MemoryKeyring()) is True
    assert keyring_available(fail.Keyring()) is False
    assert keyring_available(null.Keyring()) is False


def test_chainer_with_nothing_to_chain_is_no_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    empty = chainer.ChainerBackend()
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [])
    assert keyring_available(empty) is False
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [MemoryKeyring()])
    assert keyring_available(empty) is True


def test_process_keyring_is_used_when_none_is_given(system_keyring: None, token_file: Path) -> None:
    ring = MemoryKeyring()
    keyring.set_keyring(ring)
    store = TokenStore(token_file, env={})
    assert store.keyring_available()
    place = store.remember(URL, TOKEN)
    assert place.source == "keyring"
    assert ring.passwords == {(KEYRING_SERVICE, "https://tasks.example.com"): TOKEN}
    keyring.set_keyring(fail.Keyring())
    assert not TokenStore(token_file, env={}).keyring_available()


def test_keyring_keeps_the_token_across_sessions(token_file: Path) -> None:
    ring = MemoryKeyring()
    TokenStore(token_file, backend=ring, env={}).remember(URL, TOKEN)
    found = TokenStore(token_file, backend=ring, env={}).token_for("https://TASKS.example.com")
    assert found is not None and (found.token, found.source) == (TOKEN, "keyring")
    assert TOKEN not in repr(found)
    assert not token_file.exists()


def test_without_keyring_the_token_lives_for_the_session_only(token_file: Path) -> None:
    store = TokenStore(token_file, backend=fail.Keyring(), env={})
    place = store.remember(URL, TOKEN)
    assert place.source == "session"
    assert "no system keyring" in place.note and str(token_file) in place.note
    assert store.token_for(URL).token == TOKEN  # type: ignore[union-attr]
    assert not token_file.exists()
    assert TokenStore(token_file, backend=fail.Keyring(), env={}).token_for(URL) is None


def test_token_file_only_when_asked_and_only_for_its_owner(token_file: Path) -> None:
    store = TokenStore(token_file, backend=fail.Keyring(), env={})
    place = store.remember(URL, TOKEN, in_file=True)
    assert (place.source, place.path) == ("file", token_file)
    assert str(token_file) in place.note
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    later = TokenStore(token_file, backend=fail.Keyring(), env={})
    assert later.token_for(URL).source == "file"  # type: ignore[union-attr]
    later.remember("http://other:9000", "second", in_file=True)
    tokens = json.loads(token_file.read_text())["tokens"]
    assert tokens == {"https://tasks.example.com": TOKEN, "http://other:9000": "second"}
    later.forget(URL)
    assert TokenStore(token_file, backend=fail.Keyring(), env={}).token_for(URL) is None


def test_a_widened_token_file_is_narrowed_again(token_file: Path) -> None:
    store = TokenStore(token_file, backend=fail.Keyring(), env={})
    store.remember(URL, TOKEN, in_file=True)
    token_file.chmod(0o644)
    assert TokenStore(token_file, backend=fail.Keyring(), env={}).token_for(URL) is not None
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600


def test_environment_token_is_used_and_never_stored(token_file: Path) -> None:
    ring = MemoryKeyring()
    store = TokenStore(token_file, backend=ring, env={"TASKDESK_TOKEN": TOKEN}, env_server=URL)
    found = store.token_for(URL)
    assert found is not None and (found.token, found.source) == (TOKEN, "environment")
    assert store.token_for("http://another-server") is None  # not sent anywhere else
    place = store.remember(URL, TOKEN)
    assert place.source == "session"
    assert ring.passwords == {} and not token_file.exists()


def test_a_locked_keyring_falls_back_to_the_session(token_file: Path) -> None:
    store = TokenStore(token_file, backend=LockedKeyring(), env={})
    place = store.remember(URL, TOKEN)
    assert place.source == "session" and "locked" in place.note
    assert store.token_for(URL).token == TOKEN  # type: ignore[union-attr]


def test_forget_clears_session_and_keyring(token_file: Path) -> None:
    ring = MemoryKeyring()
    store = TokenStore(token_file, backend=ring, env={})
    store.remember(URL, TOKEN)
    store.forget(URL)
    assert store.token_for(URL) is None and ring.passwords == {}
    store.forget(URL)  # forgetting twice is fine


def test_unwritable_token_file_is_explained_without_the_token(tmp_path: Path) -> None:
    blocker = tmp_path / "config"
    blocker.write_text("a file where the folder should be")
    store = TokenStore(blocker / "tokens.json", backend=fail.Keyring(), env={})
    with pytest.raises(CredentialsError) as caught:
        store.remember(URL, TOKEN, in_file=True)
    assert str(blocker / "tokens.json") in caught.value.message
    assert "session only" in caught.value.message
    assert TOKEN not in str(caught.value) and TOKEN not in repr(caught.value)
    assert store.token_for(URL).token == TOKEN  # type: ignore[union-attr]


def test_a_damaged_token_file_reads_as_empty(token_file: Path) -> None:
    token_file.parent.mkdir(parents=True)
    token_file.write_bytes(b"\xff{not json")
    assert TokenStore(token_file, backend=fail.Keyring(), env={}).token_for(URL) is None
