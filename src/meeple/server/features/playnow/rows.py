"""Play now's row on the store's base (:class:`meeple.store.models.Base`): the queue, a row per
account waiting or matched. The migrations in ``meeple/store/migrations`` build the table with
the rest."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from meeple.store.models import Base, now


class QueueRow(Base):
    """An account waiting in Play now's queue: one row per account, its wish (the
    game, the variant, the seats), its rating when it asked, whether bots may fill the table,
    and once matched, the table and seat it was given."""

    __tablename__ = "play_queue"
    __table_args__ = (Index("ix_play_queue_bucket", "state", "game", "bucket"),)

    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    variant: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    #: the game, variant and seats as one key: who may be seated together
    bucket: Mapped[str] = mapped_column(String(400))
    rating: Mapped[float] = mapped_column(Float)
    bots: Mapped[bool] = mapped_column(Boolean, default=False)
    #: ``waiting``, ``matched`` (table and seat given) or ``gone`` (its page stopped asking)
    state: Mapped[str] = mapped_column(String(12))
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    #: the last time its page asked how it stands (an entry whose page went is not seated)
    seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
