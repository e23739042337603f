"""The chat feature."""
