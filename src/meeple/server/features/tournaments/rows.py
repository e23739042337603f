"""Tournaments' rows on the store's base (:class:`meeple.store.models.Base`): a tournament, its
entries, its paired rounds and each pairing (a table of the round, or a bye). Migration 0015
builds them.

:func:`meeple.server.features.load_stores` loads them. The pure core
(:mod:`.pairing`) reads what these rows keep: an entry's account id and rating
(:class:`.pairing.Entry`), a finished table's seats and places (:class:`.pairing.Result`, read
from ``game_tables`` and ``seats`` through ``table_id``), the byes (pairings without a table)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from meeple.store.models import Base, now


class TournamentRow(Base):
    """A tournament: its format and game, its pace, when it starts and how long it runs."""

    __tablename__ = "tournaments"
    #: the lobby's lists (upcoming, running, finished by start)
    __table_args__ = (Index("ix_tournaments_state_starts", "state", "starts"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    #: ``swiss``, ``arena`` or ``round-robin``
    kind: Mapped[str] = mapped_column(String(12))
    #: who made it (None once that account is deleted: the tournament stays)
    creator_id: Mapped[str | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True)
    game: Mapped[str] = mapped_column(String(40))
    variant: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: the seats of every table (the variant's: 2, 3 or 4)
    seats: Mapped[int] = mapped_column(Integer)
    #: ``live`` or ``turn-based``, as a table's
    pace: Mapped[str] = mapped_column(String(12))
    #: a live table's seconds per decision; None: no clock
    clock: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=True)
    #: whether bot accounts may enter
    bots: Mapped[bool] = mapped_column(Boolean, default=False)
    starts: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: a Swiss's rounds (a round robin's come from its schedule; None for an Arena)
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: an Arena's length in seconds from ``starts`` (None for the others)
    duration: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: ``open`` (taking entries), ``running`` or ``finished``
    state: Mapped[str] = mapped_column(String(12), default="open")
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    #: when the scheduler started it (None before)
    started: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: why a finished tournament was never played (cancelled by its creator, too few
    #: entrants); None for one that was
    cancelled: Mapped[str | None] = mapped_column(String(200), nullable=True)


class TournamentEntryRow(Base):
    """An account in a tournament: one row per account, its rating when it entered (the
    pairing's rating until the server reads a fresher one), and when it withdrew (its games
    stay in the standings; it is paired no more)."""

    __tablename__ = "tournament_entries"
    __table_args__ = (UniqueConstraint("tournament_id", "account_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    rating: Mapped[float] = mapped_column(Float)
    joined: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    withdrawn: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TournamentRoundRow(Base):
    """A round that has been paired: one row per (tournament, number), so a second server
    process that tries to pair the same round fails on the unique constraint and pairs
    nothing (one pairing per round)."""

    __tablename__ = "tournament_rounds"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    #: 1, 2, ... (an Arena numbers each batch of tables it starts)
    number: Mapped[int] = mapped_column(Integer)
    paired: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class TournamentPairingRow(Base):
    """One pairing of a round: a table it made (``table_id``; the players are its seats) or a
    bye (``bye_account_id``, no table)."""

    __tablename__ = "tournament_pairings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    round_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_rounds.id", ondelete="CASCADE"), index=True)
    table_id: Mapped[str | None] = mapped_column(
        ForeignKey("game_tables.id", ondelete="SET NULL"), nullable=True, unique=True)
    bye_account_id: Mapped[str | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True, index=True)
