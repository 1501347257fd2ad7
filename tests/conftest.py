"""Shared test set-up: offscreen Qt, fresh folders; fixtures live in tests/fixtures_*.py."""

from __future__ import annotations

import os

# Before any Qt import: tests never need a display.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")

pytest_plugins = ["tests.live_server"]
