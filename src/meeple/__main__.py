"""``python -m meeple``: the meeple command."""

from meeple.cli import main

main()
