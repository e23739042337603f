"""The fixed action and observation spaces of one game variant (the RL envs' name for
:mod:`meeple.bots.encoding`, where they are built: a bot with a learned evaluation reads the same
flat observation)."""

from meeple.bots.encoding import (
    WALK_LIMIT,
    Encoding,
    IllegalAction,
    Part,
    encoding,
    learning,
    notation_actions,
)

__all__ = ["WALK_LIMIT", "Encoding", "IllegalAction", "Part", "encoding", "learning",
           "notation_actions"]
