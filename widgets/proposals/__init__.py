"""Proposals: drafting one, the org's queue, and an operator's review hunk by hunk."""
