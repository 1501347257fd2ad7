"""The domain, pure Python: models, limits, the expander, the workspace file, the diff model."""
