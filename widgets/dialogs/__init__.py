"""Small dialogs that expose their buttons: confirmations and Connect."""
