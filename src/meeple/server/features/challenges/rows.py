"""Challenges' row on the store's base (:class:`meeple.store.models.Base`): one account asks
another to a game. Migration 0016 builds it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from meeple.store.models import Base, now


class ChallengeRow(Base):
    """A challenge from ``challenger_id`` to ``challenged_id``: the game, the variant, how many
    seats the table has and who fills the others, the pace, rated or casual. ``state`` is
    ``open`` until the challenged account answers (``accepted``, with the table it made, or
    ``declined`` with a reason), the challenger takes it back (``canceled``) or it lapses
    (``expired`` at ``expires``)."""

    __tablename__ = "challenges"
    #: an account's open challenges, both ways (the pages, the event stream)
    __table_args__ = (Index("ix_challenges_challenged_state", "challenged_id", "state"),
                      Index("ix_challenges_challenger_state", "challenger_id", "state"))

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    challenger_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    challenged_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(40))
    variant: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: the table's seats (the variant's count: 2, 3 or 4)
    seats: Mapped[int] = mapped_column(Integer)
    #: the seat the challenger takes (0-based), or None: drawn when the table is made
    challenger_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: who fills the seats beyond the two accounts: a bot spec for each (e.g. ``"mcts"``), or
    #: None for a seat left open to anyone
    others: Mapped[list[Any]] = mapped_column(JSON, default=list)
    #: ``live`` or ``turn-based``, as a table's
    pace: Mapped[str] = mapped_column(String(12))
    #: a live table's seconds per decision; None: no clock
    clock: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    #: ``open``, ``accepted``, ``declined``, ``canceled`` or ``expired``
    state: Mapped[str] = mapped_column(String(12), default="open")
    #: why it was declined (one of a fixed list), None otherwise
    reason: Mapped[str | None] = mapped_column(String(40), nullable=True)
    #: the table an accepted challenge made
    table_id: Mapped[str | None] = mapped_column(
        ForeignKey("game_tables.id", ondelete="SET NULL"), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    answered: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
