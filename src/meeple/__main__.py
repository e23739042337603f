"""``python -m meeple``: the meeple command."""

if __name__ == "__main__":
    # imported here, not above: a bot worker process (spawned) imports this module as its main
    # module, and needs none of the command line (Typer, Rich, every sub-command)
    from meeple.cli import main

    main()
