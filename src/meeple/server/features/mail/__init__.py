"""The mail feature."""
