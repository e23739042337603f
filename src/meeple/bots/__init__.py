"""Game-agnostic bots. Every bot answers ``choose(view, legal_moves)`` with one move.

``make_bot("random", seed=3)`` builds a bot by name; ``BOTS`` lists the names, the named
difficulties ``easy``, ``medium`` and ``hard`` among them.
"""

from meeple.bots.base import BOTS, Bot, make_bot, register_bot
from meeple.bots.difficulty import DIFFICULTIES, DifficultyBot, difficulty_spec
from meeple.bots.greedy import GreedyBot
from meeple.bots.mcts import MctsBot
from meeple.bots.random_bot import RandomBot

__all__ = ["BOTS", "DIFFICULTIES", "Bot", "DifficultyBot", "GreedyBot", "MctsBot", "RandomBot",
           "difficulty_spec", "make_bot", "register_bot"]
