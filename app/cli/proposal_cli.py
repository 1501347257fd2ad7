"""What ``taskdesk propose`` and ``taskdesk proposals`` share: the server, its token, its errors."""

from __future__ import annotations

import argparse
import os

from app.cli.common import TOKEN_VARIABLE, UsageError
from app.client.api import TaskdeskClient


def add_server_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--server", required=True, metavar="URL", help=f"the server (token from {TOKEN_VARIABLE})"
    )


def client_for(args: argparse.Namespace) -> TaskdeskClient:
    """A client of ``--server`` with the token from the environment; a usage error without."""
    token = os.environ.get(TOKEN_VARIABLE, "").strip()
    if not token:
        raise UsageError(f"set {TOKEN_VARIABLE} to your access token for {args.server}")
    url = str(args.server).rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise UsageError(f"--server must be an http:// or https:// address, not {args.server!r}")
    return TaskdeskClient(url, token)
