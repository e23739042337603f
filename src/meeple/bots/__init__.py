"""Game-agnostic bots. Every bot answers ``choose(view, legal_moves)`` with one move.

``make_bot("random", seed=3)`` builds a bot by name; ``BOTS`` lists the names.
"""

from meeple.bots.base import BOTS, Bot, make_bot, register_bot
from meeple.bots.greedy import GreedyBot
from meeple.bots.mcts import MctsBot
from meeple.bots.random_bot import RandomBot

__all__ = ["BOTS", "Bot", "GreedyBot", "MctsBot", "RandomBot", "make_bot", "register_bot"]
