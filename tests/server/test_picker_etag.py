"""The picker's ETag says only what the caller receives: nothing of notes they can't read."""

from __future__ import annotations

from tests.live_server import LiveServer
from tests.server.http_calls import ORG, call, put_task

PICKER = "/api/org/embeddable-notes"
UNREADABLE_TO_MIA = f"{ORG}/agents/a_scout/checklist.md"


def test_the_etag_holds_no_count_of_the_org_s_notes(live_server: LiveServer) -> None:
    mia = call(live_server, "GET", PICKER, "mia")
    ann = call(live_server, "GET", PICKER, "ann")
    # Today's tag was "notes-<generation>-…": a counter of every file of the org.
    generation_like = [part for part in mia.headers["ETag"].strip('"').split("-") if part.isdigit()]
    assert generation_like == []
    assert mia.headers["ETag"] != ann.headers["ETag"]  # different lists, different tags


def test_deleting_a_note_the_caller_cannot_read_leaves_their_etag_alone(
    live_server: LiveServer,
) -> None:
    assert put_task(live_server, "a_scout", {"content": "no embeds"}).ok  # so it can go
    for path in (PICKER, PICKER + "?form=compact"):
        before = call(live_server, "GET", path, "mia")
        assert UNREADABLE_TO_MIA not in before.text
        etag = before.headers["ETag"]
        if path == PICKER:
            assert call(live_server, "DELETE", f"/api/notes/{UNREADABLE_TO_MIA}").status_code == 204
        again = call(live_server, "GET", path, "mia", headers={"If-None-Match": etag})
        assert again.status_code == 304, "the tag moved for a change the caller cannot see"
        assert again.headers["ETag"] == etag
        # The operator, who could read it, sees the change.
    ann = call(live_server, "GET", PICKER, "ann")
    assert UNREADABLE_TO_MIA not in ann.text


def test_a_change_the_caller_can_see_moves_their_etag(live_server: LiveServer) -> None:
    before = call(live_server, "GET", PICKER, "mia")
    assert call(live_server, "DELETE", f"/api/notes/{ORG}/escalation.md").status_code == 204
    again = call(
        live_server, "GET", PICKER, "mia", headers={"If-None-Match": before.headers["ETag"]}
    )
    assert again.status_code == 200
    assert f"{ORG}/escalation.md" not in again.text
