"""A note's own screens: who uses it, the impact of an edit, its editor."""
