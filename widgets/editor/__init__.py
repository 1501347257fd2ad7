"""The Task editor: text, highlighting, completion, find and replace, the Insert picker."""
