"""Parts every screen shares: icons, the two-line row, how times are worded."""
