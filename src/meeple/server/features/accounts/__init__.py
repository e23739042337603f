"""The accounts feature."""
