"""Named difficulties: ``easy``, ``medium``, ``hard`` and ``expert``, usable wherever a bot
spec is.

Each is a documented preset per game and number of seats, kept as data in the game package
(``BotKnowledge.presets["difficulties"]``, see docs/bots.md): a bot spec such as ``greedy`` or
``mcts:iterations=1000;cpu=0.6;seconds=3``. A game without presets plays :data:`GENERAL`.
Budgets are in iterations or CPU seconds, never wall time (a wall-clock cap is only a safety
stop, and a search it stops says so in :attr:`DifficultyBot.last_info`).

The bot does not know its game until its first decision: it then builds the preset's bot for
the game, sheet and seat count of the view it is asked about (and keeps it for later ones).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meeple.bots.base import Bot, make_bot, register_bot
from meeple.bots.knowledge import bot_knowledge
from meeple.bots.mcts import sheet_name
from meeple.core.errors import MeepleError, UnknownGame
from meeple.core.state import State

DIFFICULTIES = ("easy", "medium", "hard", "expert")

#: What a difficulty plays in a game that presets none: ``easy`` looks at the score only and
#: plays a random whole turn one time in five; ``medium`` is ``greedy``; ``hard`` searches
#: for at most 1000 iterations or 0.6 CPU seconds a decision; ``expert`` searches with hard's
#: budget (equal think time), its leaves judged by the game's shipped nets ``expert``
#: (``nets/expert.npz``, made by ``meeple train``; without them, hard's search).
GENERAL: dict[str, Any] = {
    "easy": "greedy:eval=score;epsilon=0.2",
    "medium": "greedy",
    "hard": "mcts:iterations=1000;cpu=0.6;seconds=3",
    "expert": "mcts:iterations=1000;cpu=0.6;seconds=3;net=expert",
}


def _pick(value: Any, players: int, sheet: str | None) -> Any:
    """A preset entry: a spec, or a dict by seat count (int keys) and/or by sheet name (str
    keys, whose values may again be by seat count); ``"*"`` for any other."""
    while isinstance(value, Mapping):
        if sheet is not None and sheet in value:
            value = value[sheet]
        elif players in value:
            value = value[players]
        elif "*" in value:
            value = value["*"]
        else:
            return None
    return value


def difficulty_spec(name: str, game: str, players: int, sheet: str | None = None) -> str:
    """The bot spec difficulty ``name`` plays in ``game`` at ``players`` seats on ``sheet``."""
    if name not in DIFFICULTIES:
        raise MeepleError(f"unknown difficulty {name!r}; difficulties: {', '.join(DIFFICULTIES)}")
    try:
        presets = bot_knowledge(game).presets.get("difficulties", {})
    except UnknownGame:
        presets = {}
    spec = _pick(presets.get(name), players, sheet)
    return str(spec) if spec is not None else GENERAL[name]


class DifficultyBot(Bot):
    """``easy``, ``medium``, ``hard`` or ``expert``: the game's preset bot for that
    difficulty."""

    def __init__(self, difficulty: str, seed: int = 0, **options: Any) -> None:
        super().__init__(seed)
        if options:
            raise MeepleError(f"bot {difficulty!r} takes no options (got {', '.join(sorted(options))}); "
                              "write the bot's own spec instead, e.g. mcts:cpu=0.5")
        self.name = difficulty
        self._bots: dict[tuple[str, int, str | None], Bot] = {}
        self.last: Bot | None = None

    def bot_for(self, view: State[Any]) -> Bot:
        """The preset bot for ``view``'s game, sheet and seat count."""
        sheet = sheet_name(view)
        key = (view.game_name, view.players, sheet)
        bot = self._bots.get(key)
        if bot is None:
            spec = difficulty_spec(self.name, view.game_name, view.players, sheet)
            bot = self._bots[key] = make_bot(spec, seed=self.seed)
            if hasattr(bot, "play_without_missing_nets"):
                # a preset's nets not shipped (yet) in this game: its search without them
                bot.play_without_missing_nets = True
        return bot

    def check_game(self, game: str) -> None:
        """Every preset of the difficulty in ``game`` can play there (a difficulty's nets
        that a game does not ship are no error: it plays without them, see ``expert``)."""
        return None

    def choose(self, view: State[Any], legal_moves: Sequence[Any]) -> Any:
        bot = self.last = self.bot_for(view)
        return bot.choose(view, legal_moves)

    @property
    def last_info(self) -> dict[str, Any]:
        """The decision info of the bot played last (``mcts``: iterations, CPU seconds, what
        stopped the search)."""
        info = dict(getattr(self.last, "last_info", {}) or {})
        info["difficulty"] = self.name
        return info


for _name in DIFFICULTIES:
    register_bot(_name, lambda seed=0, _d=_name, **options: DifficultyBot(_d, seed, **options))
