"""The rules feature."""
