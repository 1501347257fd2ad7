"""The server tests use the shared live-server fixtures (until tests/conftest.py registers them)."""

from tests.live_server import live_server, server_factory, workspace_basic

__all__ = ["live_server", "server_factory", "workspace_basic"]
