"""The main window and what frames it: actions, sidebar, header, banners, messages."""
