"""Versions, local history and the side-by-side compare view."""
