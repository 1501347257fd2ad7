"""kill -9 the real app mid-typing: the next start offers back a text the editor held.

How old that text is (the promise is at most 1 s) is printed here and judged by
bench/bench_crash.py, where a loaded machine can't turn a late timer into a failed test.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from app.client import TaskdeskClient
from tests.crash.crash_rounds import AppFailedError, AppProcess, CrashRun, Expected
from tests.figures import Figure
from tests.live_server import LiveServer

AGENT_ID, AGENT_NAME = "a_scout", "Scout"


@pytest.fixture
def ann(live_server: LiveServer):
    client = TaskdeskClient(live_server.url, live_server.token("ann"))
    yield client
    client.close()


@pytest.mark.slow
def test_three_kills_mid_typing_each_restart_offers_the_typed_text_back(
    live_server: LiveServer, ann: TaskdeskClient, tmp_path: Path, figure: Figure
) -> None:
    start = ann.get_task(AGENT_ID)

    def server_unchanged() -> str | None:
        now = ann.get_task(AGENT_ID)
        if (now.version, now.content) != (start.version, start.content):
            return f"the server's Task became v{now.version}: nothing was meant to be saved"
        return None

    run = CrashRun(
        server_url=live_server.url,
        token=live_server.token("ann"),
        home=tmp_path / "home",
        work_dir=tmp_path / "rounds",
        expected=Expected(AGENT_ID, AGENT_NAME, start.version),
        server_check=server_unchanged,
        rng=random.Random(20261129),
        # Past the first draft write each time, so every restart has a draft to offer.
        typing_s=(1.0, 4.0),
        max_text_age_s=None,
    )
    verdicts = run.run(3)

    problems = [f"kill {v.round}: {p}" for v in verdicts for p in v.problems]
    assert not problems, "\n".join(problems)
    assert [v.offered for v in verdicts] == [True, True, True]
    assert all(v.keystrokes > 10 for v in verdicts)
    for verdict in verdicts:
        assert verdict.text_age_s is not None  # the offered text is one the editor held
        figure("age of the text a restart offers after kill -9", verdict.text_age_s, "s")
    # Each restart recovered the draft and typed on: the texts only grow.
    sizes = [v.recovered_chars for v in verdicts]
    assert sizes == sorted(sizes) and sizes[0] > len(start.content)


def test_an_app_that_cannot_start_fails_the_run_with_its_stderr(
    live_server: LiveServer, tmp_path: Path
) -> None:
    child = AppProcess(
        server_url=live_server.url,
        token="not-a-token",  # the server refuses it: the window never opens a Task
        home=tmp_path / "home",
        agent_id=AGENT_ID,
        keylog=tmp_path / "keylog.txt",
        stderr_path=tmp_path / "stderr.txt",
        seed=1,
        extra_args=("--ready-timeout-ms", "2000"),
    )
    with pytest.raises(AppFailedError) as failed:
        child.expect("offer", "no_offer", timeout=60)
    assert "exit code 3" in str(failed.value)
    assert "not ready after 2000 ms" in str(failed.value)
    assert child.proc.poll() is not None
