"""The preview document's structural stylesheet: a module of its own, so the window can
style its preview pane without loading the Markdown renderer."""

PREVIEW_STYLESHEET = """
pre { background-color: #f6f8fa; }
code { background-color: #f6f8fa; }
th { background-color: #f0f0f0; }
th, td { padding: 3px 8px; }
a.embed-collection, a.embed-repeat, a.embed-marker, a.embed-unchecked, a.embed-withheld,
a.embed-note-chip {
  text-decoration: none;
}
"""
"""For the preview document's default stylesheet: Qt applies it to the tags and the embed
classes the preview builds, and nothing in note text can add to it."""
