"""The reference server of the Taskdesk API (Starlette + uvicorn over SQLite)."""

from app.server.app_factory import create_app
from app.server.running import ServerHandle, ServerStartError, start_server

__all__ = ["ServerHandle", "ServerStartError", "create_app", "start_server"]
