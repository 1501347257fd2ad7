"""See what the agent gets, and why: References, the budget, runs and the Task's shape."""
