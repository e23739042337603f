"""The playnow feature."""
