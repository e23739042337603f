"""The ratings feature."""
