"""Game-agnostic bots. Every bot answers ``choose(view, legal_moves)`` with one move.

``make_bot("random", seed=3)`` builds a bot by name; ``BOTS`` lists the names, the named
difficulties ``easy``, ``medium`` and ``hard`` among them. ``hint(view, seat, "medium")``
suggests a turn for the seat to move (:mod:`meeple.bots.hint`).
"""

from meeple.bots.base import BOTS, Bot, make_bot, register_bot
from meeple.bots.difficulty import DIFFICULTIES, DifficultyBot, difficulty_spec
from meeple.bots.greedy import GreedyBot
from meeple.bots.hint import Hint, hint
from meeple.bots.mcts import MctsBot
from meeple.bots.random_bot import RandomBot

__all__ = ["BOTS", "DIFFICULTIES", "Bot", "DifficultyBot", "GreedyBot", "Hint", "MctsBot",
           "RandomBot", "difficulty_spec", "hint", "make_bot", "register_bot"]
