"""The Prompt tab: one agent's Task, wiring the editor, preview and versions."""
