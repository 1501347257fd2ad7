"""The fleet: every agent at a glance, search across every Task, change sets, the audit."""
