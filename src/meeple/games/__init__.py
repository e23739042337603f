"""The games. Each package exposes ``GAME`` (a :class:`meeple.core.registry.GameInfo`)."""

GAME_PACKAGES: tuple[str, ...] = ("gardens", "reefs", "takenokolor", "pergola")
