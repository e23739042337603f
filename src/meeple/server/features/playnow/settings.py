"""Play now's settings section (``play_now`` in :mod:`meeple.settings`): how its matcher
(:mod:`.service`) widens a wait and when it seats anyone, or bots."""

from __future__ import annotations

import math

from meeple.sections import SOME_POSITIVE, PositiveSeconds, Section, setting


class PlayNowSettings(Section):
    """How Play now seats people."""

    title = "Play now's matching"

    window: PositiveSeconds = setting("MEEPLE_PLAY_NOW_WINDOW", 100.0, "rating points either "
                                      "side a new wait accepts", SOME_POSITIVE)
    widen: PositiveSeconds = setting("MEEPLE_PLAY_NOW_WIDEN", 10.0, "rating points the window "
                                     "widens by each second of waiting", SOME_POSITIVE)
    anyone_after: PositiveSeconds = setting(
        "MEEPLE_PLAY_NOW_ANYONE_AFTER", 90.0, "seconds after which anyone of the same wish "
        "will do", SOME_POSITIVE)
    bots_after: PositiveSeconds = setting(
        "MEEPLE_PLAY_NOW_BOTS_AFTER", 20.0, "seconds after which bots fill the table of "
        "someone who said they may", SOME_POSITIVE)
    gone_after: PositiveSeconds = setting(
        "MEEPLE_PLAY_NOW_GONE_AFTER", 15.0, "seconds without their page asking after which a "
        "waiting person is taken as gone", SOME_POSITIVE)
    every: PositiveSeconds = setting("MEEPLE_PLAY_NOW_EVERY", 1.0, "seconds between two looks "
                                     "at the queue", SOME_POSITIVE)

    def window_after(self, waited: float) -> float:
        """Rating points either side someone who has waited ``waited`` seconds accepts."""
        if waited >= self.anyone_after:
            return math.inf
        return self.window + self.widen * max(0.0, waited)


__all__ = ["PlayNowSettings"]
