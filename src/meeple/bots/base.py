"""The bot interface shared by the terminal, the simulator, the server and the RL adapters."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from meeple.core.errors import MeepleError
from meeple.core.state import State


class Bot(ABC):
    """A player program. ``choose`` sees only the seat's view and the legal moves."""

    name: str = "bot"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        self.seed = seed
        self.options = options

    @abstractmethod
    def choose(self, view: State[Any], legal_moves: Sequence[Any]) -> Any:
        """Return one element of ``legal_moves``."""

    def check_game(self, game: str) -> None:
        """Raise :class:`MeepleError` if this bot cannot play ``game`` as its spec asks (a
        bot whose options name something of the game's: ``mcts``'s ``net``). Any bot can play
        any game otherwise."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed}>"


BOTS: dict[str, Callable[..., Bot]] = {}


def register_bot(name: str, factory: Callable[..., Bot]) -> None:
    BOTS[name] = factory


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from a name such as ``random`` (options after a colon: ``mcts:iterations=200``)."""
    name, _, rest = spec.partition(":")
    name = name.strip().lower()
    if name not in BOTS:
        raise MeepleError(f"unknown bot {name!r}; bots: {', '.join(sorted(BOTS))}")
    options = parse_options(rest)
    try:
        return BOTS[name](seed=seed, **options)
    except (TypeError, ValueError) as exc:
        raise MeepleError(f"bad options for bot {name!r}: {exc}") from None


def parse_options(rest: str) -> dict[str, Any]:
    """The options of a bot spec after its colon (``iterations=200;cpu=0.5``): numbers where
    they read as numbers, else text."""
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.replace(";", ",").split(","))):
        key, eq, value = part.partition("=")
        if not eq:
            raise MeepleError(f"bot option {part!r} must be written key=value, e.g. iterations=200")
        options[key.strip()] = _number(value.strip())
    return options


def _number(text: str) -> Any:
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text
