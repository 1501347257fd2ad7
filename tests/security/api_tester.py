"""Runs the property-based API tester (schemathesis) against a reference server it starts itself.

    .venv/bin/python tests/security/api_tester.py [--max-examples N] [--seed S]

The server is the demo workspace on a fresh database on a free loopback port; the tester
reads its ``/openapi.json``, sends bounded examples with a fixed seed as the operator Ann,
and applies every check it has (``--checks all``): statuses, content types, headers and
bodies as documented, 405s with a correct ``Allow``, no 5xx, invalid data refused. The exit
status is the tester's: 0 when it found nothing. ``tests/security/schemathesis.toml`` holds
the few expectations the spec itself sets (a DELETE of task.md is always a 422).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))

from app.core.resource_files import resource  # noqa: E402  (needs the checkout on the path)
from app.server import start_server  # noqa: E402
from app.server.rate_limit import RunRate  # noqa: E402

OPERATOR_TOKEN = "ann-secret"  # the demo workspace's first operator
DEFAULT_SEED = 20260101
DEFAULT_EXAMPLES = 30
MAX_TIME_S = 40


def tester_command(url: str, max_examples: int, seed: int) -> list[str]:
    executable = Path(sys.executable).parent / "schemathesis"
    return [
        str(executable),
        "--config-file",
        str(HERE / "schemathesis.toml"),
        "run",
        f"{url}/openapi.json",
        "--checks",
        "all",
        "--header",
        f"Authorization: Bearer {OPERATOR_TOKEN}",
        "--max-examples",
        str(max_examples),
        "--seed",
        str(seed),
        "--max-time",
        str(MAX_TIME_S),
        "--workers",
        "1",
        "--generation-database",
        "none",
        "--no-color",
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-examples", type=int, default=DEFAULT_EXAMPLES)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="taskdesk-api-tester-") as folder:
        workspace = Path(folder) / "workspace.json"
        workspace.write_text(resource("demo_workspace.json").read_text(encoding="utf-8"))
        # Runs are rate-limited per caller; the tester is one caller sending many on purpose.
        rate = RunRate(burst=100_000, per_second=1000.0)
        with start_server(workspace, Path(folder) / "db.sqlite3", run_rate=rate) as server:
            print(f"api tester: {server.url}/openapi.json", flush=True)
            # Run in the scratch folder: the tester leaves its own files where it runs.
            command = tester_command(server.url, args.max_examples, args.seed)
            done = subprocess.run(command, cwd=folder)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
