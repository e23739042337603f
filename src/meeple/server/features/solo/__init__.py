"""The solo feature."""
