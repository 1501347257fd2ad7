"""A server's first request: what it would load on the way is loaded as the server starts."""

from __future__ import annotations

from pathlib import Path

from tests.app_process import ROOT, app_env, run_python

STARTED_AND_WAITED = """
import sys, time
from pathlib import Path
from app.server.running import ASYNC_BACKEND, start_server

handle = start_server(Path({workspace!r}), {db!r})
deadline = time.monotonic() + 10
while ASYNC_BACKEND not in sys.modules and time.monotonic() < deadline:
    time.sleep(0.01)  # no request is made: only the start can load it
print(ASYNC_BACKEND in sys.modules)
handle.stop()
"""


def test_the_thread_pools_backend_loads_as_the_server_starts_not_with_its_first_request(
    tmp_path: Path,
) -> None:
    code = STARTED_AND_WAITED.format(
        workspace=str(ROOT / "tests" / "data" / "workspace_basic.json"),
        db=str(tmp_path / "server.sqlite3"),
    )
    result = run_python(code, app_env(tmp_path / "home"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"  # without a request: uvicorn alone never loads it
