"""The profiles feature."""
