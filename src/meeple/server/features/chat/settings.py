"""The chat's settings section (``chat`` in :mod:`meeple.settings`): its rates, read by
:class:`.service.ChatHub`."""

from __future__ import annotations

from meeple.sections import A_RATE, Rate, Section, setting


class ChatSettings(Section):
    """The chat's rates: messages an author may post, an address (every author there, a
    household or many fresh accounts alike) and a table (all its authors together); reports a
    client may make."""

    title = "the tables' chat"

    chat: Rate = setting("MEEPLE_RATE_CHAT", "5/10 seconds;60/hour", "messages one author may "
                         "post", A_RATE)
    chat_client: Rate = setting("MEEPLE_RATE_CHAT_CLIENT", "10/10 seconds;120/hour", "messages "
                                "from one address (all its authors)", A_RATE)
    chat_table: Rate = setting("MEEPLE_RATE_CHAT_TABLE", "20/10 seconds;60/minute", "messages "
                               "at one table (all its authors)", A_RATE)
    report: Rate = setting("MEEPLE_RATE_REPORT", "10/minute;30/hour", "reports a client may "
                           "make", A_RATE)


__all__ = ["ChatSettings"]
