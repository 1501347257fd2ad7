"""Taskdesk: the desktop editor for an agent's Task (the engine lives in this package)."""

__version__ = "0.1.0"
