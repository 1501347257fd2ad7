"""What a Task session shows the window: a read-only view of the session's model per change.

The view lives beside the model (``app.desk.session_model``); this module is where the window
and its parts import it from.
"""

from __future__ import annotations

from app.desk.draft_offer import DraftOffer
from app.desk.session_model import SessionState

__all__ = ["DraftOffer", "SessionState"]
