"""The table core's settings sections (``bots``, ``bot_shares`` and ``testing`` in
:mod:`meeple.settings`): the bots' workers and deadline (:mod:`.botpool`, :mod:`.service`),
how the workers are shared between clients (:mod:`.botfair`, :mod:`.scheduler`), and the tests'
own knobs (:mod:`.authority`'s fault, :mod:`.pace`'s time scale).

A bot worker process imports this module (through :mod:`.botpool`) and nothing of the web
stack."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator

from meeple.sections import (
    A_COUNT,
    A_POSITIVE,
    SOME_POSITIVE,
    SOME_SECONDS,
    Count,
    Positive,
    PositiveSeconds,
    Seconds,
    Section,
    setting,
)

#: Seconds a bot may think a decision unless ``MEEPLE_BOT_DEADLINE`` says otherwise.
BOT_DEADLINE = 10.0


def _fault(value: str) -> str:
    if value and not re.fullmatch(r"crash-after-commit:(create|join|finish)", value):
        raise ValueError(value)
    return value


class BotSettings(Section):
    title = "the bots' workers"

    workers: Count = setting("MEEPLE_BOT_WORKERS", 0, "processes for bot decisions (0: the "
                             "core count); --bot-workers replaces it", A_COUNT,
                             empty_unset=True)
    deadline: PositiveSeconds = setting(
        "MEEPLE_BOT_DEADLINE", BOT_DEADLINE, "seconds a bot may think a decision", SOME_POSITIVE,
        empty_unset=True)


class ShareSettings(Section):
    """How the bot workers are shared."""

    title = "the bots' fairness between clients"

    background: Positive = setting(
        "MEEPLE_BOT_BACKGROUND", 1, "worker processes of the bot-only tables (at a lower "
        "priority), all clients together", A_POSITIVE)
    per_client: Count = setting(
        "MEEPLE_BOT_PER_CLIENT", 0, "decisions of one client's tables running at once (0: "
        "every worker but one, at least one)", A_COUNT)
    bot_only_seconds: Seconds = setting(
        "MEEPLE_BOT_ONLY_SECONDS", 3.0, "the longest a bot of a bot-only table may think a "
        "decision (0: no cap)", SOME_SECONDS)


class TestingSettings(Section):
    """For tests only."""

    title = "for tests only"

    turn_based_scale: PositiveSeconds = setting(
        "MEEPLE_TURN_BASED_SCALE", 1.0, "turn-based time runs this many times faster (a 1-hour "
        "move lasts 1 s at 3600)", SOME_POSITIVE, empty_unset=True)
    fault: Annotated[str, AfterValidator(_fault)] = setting(
        "MEEPLE_FAULT", "", "the reliability tests' fault: the process dies right after the "
        "commit of a create, join or finish (docs/reliability.md)",
        "crash-after-commit:create, crash-after-commit:join or crash-after-commit:finish")


__all__ = ["BOT_DEADLINE", "BotSettings", "ShareSettings", "TestingSettings"]
