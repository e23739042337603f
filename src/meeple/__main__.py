"""``python -m meeple``: the meeple command."""

from meeple.cli import main

if __name__ == "__main__":  # not when a spawned worker process imports this module
    main()
