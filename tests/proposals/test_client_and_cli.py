"""The client's proposal calls and the ``propose`` / ``proposals`` commands, on the real server."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.cli import main
from app.client import TaskdeskClient
from app.client.errors import (
    NotFound,
    NotWritable,
    ProposalNotOpen,
    ProposalRefusal,
    ProposalRefused,
    VersionConflict,
)
from tests.live_server import LiveServer


def _client(server: LiveServer, who: str) -> TaskdeskClient:
    return TaskdeskClient(server.url, server.token(who))


def test_every_refusal_is_a_typed_error_with_one_sentence(live_server: LiveServer) -> None:
    with _client(live_server, "mia") as mia, _client(live_server, "ann") as ann:
        live = mia.get_task("a_scout")
        cases = [
            (dict(base_version=999), ProposalRefusal.NO_SUCH_BASE),
            (dict(title=" "), ProposalRefusal.TITLE),
            (dict(note="n" * 2001), ProposalRefusal.NOTE),
            (dict(content=live.content), ProposalRefusal.CHANGES_NOTHING),
        ]
        for change, why in cases:
            args = {"content": "New.\n", "base_version": live.version, "title": "T", "note": ""}
            args.update(change)  # type: ignore[arg-type]
            with pytest.raises(ProposalRefused) as refused:
                mia.propose("a_scout", **args)  # type: ignore[arg-type]
            assert refused.value.why is why
            assert refused.value.message.count(". ") <= 1
        proposal = mia.propose("a_scout", "New.\n", live.version, "Shorter", "why")
        assert proposal.status == "open" and proposal.author_name == "Mia"
        with pytest.raises(ProposalRefused) as refused:
            ann.revise_proposal(proposal.id, "x", live.version)
        assert refused.value.why is ProposalRefusal.NOT_YOURS
        with pytest.raises(ProposalRefused) as refused:
            mia.org_proposals()
        assert refused.value.why is ProposalRefusal.OPERATORS_ONLY
        with pytest.raises(NotWritable):
            mia.publish_proposal(proposal.id, "x", live.version)
        with pytest.raises(ProposalRefused) as refused:
            ann.decline_proposal(proposal.id, "")
        assert refused.value.why is ProposalRefusal.REASON
        ann.put_task("a_scout", "Moved.\n", live.version)
        with pytest.raises(VersionConflict) as conflict:
            ann.publish_proposal(proposal.id, "New.\n", live.version)
        assert conflict.value.live_version == live.version + 1
        declined = ann.decline_proposal(proposal.id, "Not now.")
        assert declined.outcome == "declined by Ann: Not now."
        with pytest.raises(ProposalNotOpen):
            ann.publish_proposal(proposal.id, "New.\n", live.version + 1)
        with pytest.raises(NotFound):
            ann.proposal("prop_missing")
        for n in range(20):
            mia.propose("a_writer", f"Text {n}\n", 1, f"Try {n}")
        with pytest.raises(ProposalRefused) as refused:
            mia.propose("a_writer", "One more\n", 1, "One more")
        assert refused.value.why is ProposalRefusal.TOO_MANY
    with _client(live_server, "scout") as scout:
        with pytest.raises(NotWritable):
            scout.propose("a_scout", "x", 1, "t")
        assert scout.agent_proposals("a_scout") == []


def test_publish_answers_the_task_with_its_origin(live_server: LiveServer) -> None:
    with _client(live_server, "mia") as mia, _client(live_server, "ann") as ann:
        live = ann.get_task("a_writer")
        proposal = mia.propose("a_writer", live.content + "More.\n", live.version, "More")
        published = ann.publish_proposal(proposal.id, live.content + "Edited.\n", live.version)
        assert published.proposal.published_version == live.version + 1
        assert published.task.content == live.content + "Edited.\n"
        assert mia.proposal(proposal.id).outcome == f"published as v{live.version + 1}"
        assert published.task.proposal_author == "Mia"
        assert ann.get_task("a_writer").proposal_author == "Mia"
        ann.put_task("a_writer", "Later.\n", live.version + 1)
        later = ann.get_task("a_writer")
        assert later.proposal_author is None
        assert later.revisions[0].proposal_author == "Mia"


def test_the_provenance_and_versions_say_a_proposal_made_the_version(
    qtbot: object, live_server: LiveServer
) -> None:
    from widgets.common.provenance import ProvenanceStrip
    from widgets.versions.revision_model import rows_of

    with _client(live_server, "mia") as mia, _client(live_server, "ann") as ann:
        live = ann.get_task("a_writer")
        proposal = mia.propose("a_writer", live.content + "More.\n", live.version, "More")
        ann.publish_proposal(proposal.id, live.content + "More.\n", live.version)
        doc = ann.get_task("a_writer")
    strip = ProvenanceStrip()
    strip.show_task(doc)
    assert "published from a proposal by Mia" in strip.text()
    assert "published from a proposal by Mia" in rows_of(doc)[0].detail(datetime.now(UTC))
    assert "proposal" not in rows_of(doc)[1].detail(datetime.now(UTC))


def test_propose_and_list_from_the_command_line(
    live_server: LiveServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    draft = tmp_path / "task.md"
    draft.write_text("# Scout\n\nA proposed Task.\n", encoding="utf-8")
    command = ["propose", "--server", live_server.url, "--agent", "a_scout", "--title", "Shorter"]
    assert main([*command, str(draft)]) == 2
    assert "TASKDESK_TOKEN" in capsys.readouterr().err
    monkeypatch.setenv("TASKDESK_TOKEN", live_server.token("mia"))
    assert main([*command, str(draft)]) == 0
    proposal_id = capsys.readouterr().out.strip()
    assert proposal_id.startswith("prop_")
    assert main([*command, str(draft)]) == 0  # a second proposal of the same text is fine
    capsys.readouterr()
    assert main(["proposals", "--server", live_server.url, "--agent", "a_scout", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["proposals"]
    assert proposal_id in [p["id"] for p in listed]
    assert all(p["status"] == "open" and "content" not in p for p in listed)
    # The org's queue is for operators: a member gets one sentence, exit 2.
    assert main(["proposals", "--server", live_server.url]) == 2
    assert "Only an operator" in capsys.readouterr().err
    monkeypatch.setenv("TASKDESK_TOKEN", live_server.token("ann"))
    assert main(["proposals", "--server", live_server.url]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split("\t")[:3] == [proposal_id, "open", "a_scout"]
    # A refusal: the same text as the live Task.
    live = tmp_path / "live.md"
    with TaskdeskClient(live_server.url, live_server.token("ann")) as ann:
        live.write_text(ann.get_task("a_scout").content, encoding="utf-8", newline="")
    assert main([*command, str(live)]) == 2
    assert "changes nothing" in capsys.readouterr().err
