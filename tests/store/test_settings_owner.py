"""The settings' one owner: read once, changed in memory on any thread, written coalesced,
and in the app only on the runner's disk lane."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path

from app.connect.settings import Settings, save_settings
from app.connect.settings_owner import SettingsOwner


def on_disk(path: Path) -> dict[str, object]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_the_file_is_read_once_and_a_change_from_a_thread_is_seen_at_once(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    save_settings(Settings(last_server_url="https://one.example"), path)
    owner = SettingsOwner(path)
    assert owner.read().last_server_url == "https://one.example"
    save_settings(Settings(last_server_url="https://behind-its-back.example"), path)
    assert owner.read().last_server_url == "https://one.example"  # read once, kept

    def edit(s: Settings) -> bool:
        s.side_by_side = True
        return True

    worker = threading.Thread(target=owner.change, args=(edit,))
    worker.start()
    worker.join()
    assert owner.read().side_by_side
    assert on_disk(path)["side_by_side"] is True
    assert on_disk(path)["last_server_url"] == "https://one.example"


def test_changes_made_before_the_write_runs_go_in_that_one_write(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    queued: list[Callable[[], None]] = []
    owner = SettingsOwner(path, writer=queued.append)

    def agent(agent_id: str) -> Callable[[Settings], bool]:
        def edit(s: Settings) -> bool:
            s.last_agent["k"] = agent_id
            return True

        return edit

    owner.change(agent("a_one"))
    owner.change(agent("a_two"))
    owner.change(lambda s: False)  # no change: nothing asked
    assert len(queued) == 1 and not path.exists()
    queued.pop()()
    assert on_disk(path)["last_agent"] == {"k": "a_two"}
    owner.change(agent("a_three"))
    assert len(queued) == 1  # a later change asks for a write of its own


def test_a_read_of_a_copy_never_changes_the_settings(tmp_path: Path) -> None:
    owner = SettingsOwner(tmp_path / "settings.json")
    copy = owner.read()
    copy.last_agent["k"] = "a_gone"
    assert owner.read().last_agent == {}
