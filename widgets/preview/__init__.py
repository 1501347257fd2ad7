"""The preview: the rendered Task, an embedded note's preview, the size meters."""
