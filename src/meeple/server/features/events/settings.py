"""The account event stream's settings section (``events`` in :mod:`meeple.settings`): how
often a stream looks at the store, how often it sends a keep-alive line, and how many streams
one account may hold open."""

from __future__ import annotations

from meeple.sections import A_POSITIVE, SOME_POSITIVE, Positive, PositiveSeconds, Section, setting


class EventSettings(Section):
    """How ``GET /api/stream/event`` polls and how many an account may hold."""

    title = "the account event stream"

    poll: PositiveSeconds = setting("MEEPLE_EVENTS_POLL", 1.0, "seconds between two looks of "
                                    "an open event stream at the store (its seats, its "
                                    "challenges, whether its token or session still lives)",
                                    SOME_POSITIVE)
    keepalive: PositiveSeconds = setting("MEEPLE_EVENTS_KEEPALIVE", 5.0, "seconds of quiet "
                                         "after which an event stream sends a blank line",
                                         SOME_POSITIVE)
    per_account: Positive = setting("MEEPLE_EVENTS_PER_ACCOUNT", 4, "event streams one "
                                    "account may hold open at once in one server process "
                                    "(one more is refused, 429)", A_POSITIVE)


__all__ = ["EventSettings"]
