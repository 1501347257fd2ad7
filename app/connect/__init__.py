"""Start-up and platform: which server, signing in, tokens, settings, the embedded default."""
