"""The engine's only Qt code: the session controller, the runner, the preview pipeline."""
