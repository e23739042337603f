"""The sheets feature."""
