"""Taskdesk's data files: the Task template, the demo workspace, stylesheets and icons."""
