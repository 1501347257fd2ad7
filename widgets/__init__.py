"""Taskdesk's Qt presentation layer: small widgets fed by signals, no business rules."""
