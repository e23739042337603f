"""Ratings per game: OpenSkill's Plackett-Luce, updated in the transaction that
stores a rated game's end.

A subject is an account (its id) or a bot's difficulty (``bot:medium``); each has one rating
per game (``ratings``) and a line per rated game (``rating_history``). The scale and the bots'
seeds are :mod:`meeple.bots.ratings`'s.

What a rated table is: every person's seat is taken by a signed-in account (one seat per
account), every bot is a named difficulty, and it has at least two seats with at least one
person (:func:`rated_problem`). How a game is rated: :func:`rate_table`, inside the
transaction that marks the table finished; a person who left or conceded the running game is
placed below those who played on, the first to forfeit last (:func:`forfeit`, called in the
transaction of the leave or the concede).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import Connection, and_, delete, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from meeple.bots.ratings import (
    MU,
    RATED_BOTS,
    SIGMA,
    Z,
    bot_difficulty,
    bot_subject,
    model,
    rated_bot,
    seed_for,
    seeded,
    shown,
)
from meeple.core.state import places_by_total, places_with_forfeits
from meeple.store.account_data import on_account_erased
from meeple.store.models import (
    BOT,
    BOT_ACCOUNT,
    HUMAN,
    MOVE,
    RUNNING,
    AccountRow,
    AccountSeatRow,
    LogRow,
    RatingHistoryRow,
    RatingRow,
    SeatRow,
    TableRow,
    aware,
    now,
)

if TYPE_CHECKING:
    from meeple.store.store import Store

#: A rated table's seats at most are what any table has; at least two (solo is never rated).
MIN_RATED_SEATS = 2


class SeatLike(Protocol):
    @property
    def kind(self) -> str: ...

    @property
    def bot(self) -> str | None: ...


def rated_problem(seats: Sequence[SeatLike]) -> str | None:
    """Why these seats cannot make a rated table (a sentence naming the rule), or None."""
    if len(seats) < MIN_RATED_SEATS:
        return (f"a rated table needs at least {MIN_RATED_SEATS} seats (a solo game is never "
                "rated)")
    if not any(s.kind == HUMAN for s in seats):
        return "a rated table needs at least one person's seat (bots alone are never rated)"
    for i, s in enumerate(seats):
        if s.kind == BOT and not rated_bot(s.bot):
            return (f"seat {i}: a rated table's bots are the named difficulties "
                    f"({', '.join(RATED_BOTS)}), not {s.bot!r}")
    return None


def ordinal(mu: float, sigma: float) -> float:
    """What the leaderboard sorts by: the conservative ``mu - 3 sigma``."""
    return mu - Z * sigma


def start_of(subject: str, game: str) -> tuple[float, float]:
    """A subject's rating before its first rated game: a bot's seed, else a new player's."""
    difficulty = bot_difficulty(subject)
    return seed_for(game, difficulty) if difficulty is not None else (MU, SIGMA)


@dataclass(frozen=True)
class Change:
    """One subject's rating change in a rated game."""

    subject: str
    seats: tuple[int, ...]
    place: int
    before: tuple[float, float]
    after: tuple[float, float]


def final_places(places: Sequence[int], forfeits: Sequence[int | None]) -> list[int]:
    """The places a rating counts, from the game's own places (``places``: 1 first, equal
    places tied) and each seat's forfeit order (None: played on):
    :func:`~meeple.core.state.places_with_forfeits` over them (a game's places serve as
    totals the other way round)."""
    return places_with_forfeits([-p for p in places], forfeits)


def rate_table(s: Session | Connection, table_id: str, places: Sequence[int] | None,
               result: Sequence[Any] | None = None, when: datetime | None = None
               ) -> list[Change]:
    """Within the transaction ``s`` that stores the end of ``table_id``'s game: if the table
    is rated, every rated seat's rating moves by OpenSkill's ``rate`` on the places the game
    gave (``places``: 1 first, equal places tied; None: by ``result``'s totals, ties sharing)
    with the seats that forfeited placed below the others, the first to forfeit last
    (:func:`final_places`). A seat held by no account (one deleted during the
    game) is left out. Returns the changes (none for a casual table)."""
    when = when or now()
    row = s.execute(select(TableRow.game, TableRow.rated)
                    .where(TableRow.id == table_id)).first()
    if row is None or not row.rated:
        return []
    game = str(row.game)
    seats = s.execute(select(SeatRow.index.label("seat"), SeatRow.kind, SeatRow.bot,
                             SeatRow.forfeit_order)
                      .where(SeatRow.table_id == table_id).order_by(SeatRow.index)).all()
    if places is None:
        places = places_by_total([int(r["total"]) for r in (result or [])])
    if len(places) != len(seats):
        return []
    entrants = _entrants(s, table_id, seats)
    if len({subject for _, subject, _ in entrants}) < 2:
        return []
    counted = final_places([places[i] for i, _, _ in entrants], [f for _, _, f in entrants])
    subjects = sorted({subject for _, subject, _ in entrants})
    _ensure(s, subjects, game, when)
    stored = {str(r.subject): (float(r.mu), float(r.sigma)) for r in s.execute(
        select(RatingRow.subject, RatingRow.mu, RatingRow.sigma)
        .where(RatingRow.game == game, RatingRow.subject.in_(subjects))
        .order_by(RatingRow.subject).with_for_update())}
    m = model()
    teams = [[m.rating(mu=stored[subject][0], sigma=stored[subject][1])]
             for _, subject, _ in entrants]
    rated = m.rate(teams, ranks=[float(p) for p in counted])
    return [_store_rating(s, table_id, game, when, subject, entrants, counted, rated,
                          stored[subject]) for subject in subjects]


def _entrants(s: Session | Connection, table_id: str,
              seats: Sequence[Any]) -> list[tuple[int, str, int | None]]:
    """The rated seats of ``table_id``: (seat, subject, forfeit order) for each seat held by
    an account or by a rated bot (a bot's subject is its difficulty)."""
    holders = {int(r.seat): str(r.account_id) for r in s.execute(
        select(AccountSeatRow.seat, AccountSeatRow.account_id)
        .where(AccountSeatRow.table_id == table_id))}
    entrants: list[tuple[int, str, int | None]] = []
    for seat in seats:
        if seat.kind == BOT:
            subject = bot_subject(seat.bot) if rated_bot(seat.bot) else None
        else:
            subject = holders.get(int(seat.seat))
        if subject is not None:
            order = seat.forfeit_order
            entrants.append((int(seat.seat), subject, None if order is None else int(order)))
    return entrants


def _store_rating(s: Session | Connection, table_id: str, game: str, when: datetime,
                  subject: str, entrants: list[tuple[int, str, int | None]],
                  counted: list[int], rated: Any, before: tuple[float, float]) -> Change:
    """``subject``'s new rating stored, with a history row; a bot of one difficulty at
    several seats gets the mean of its seats' new ratings and its best place."""
    mine = [k for k, (_, sub, _) in enumerate(entrants) if sub == subject]
    mu = sum(float(rated[k][0].mu) for k in mine) / len(mine)
    sigma = sum(float(rated[k][0].sigma) for k in mine) / len(mine)
    place = min(counted[k] for k in mine)
    s.execute(update(RatingRow).where(RatingRow.subject == subject, RatingRow.game == game)
              .values(mu=mu, sigma=sigma, ordinal=ordinal(mu, sigma),
                      games=RatingRow.games + 1, updated=when))
    s.execute(RatingHistoryRow.__table__.insert().values(  # type: ignore[attr-defined]
        subject=subject, game=game, table_id=table_id, mu_before=before[0],
        sigma_before=before[1], mu_after=mu, sigma_after=sigma, place=place,
        players=len(entrants), at=when))
    return Change(subject, tuple(entrants[k][0] for k in mine), place, before, (mu, sigma))


def _ensure(s: Session | Connection, subjects: Iterable[str], game: str, when: datetime
            ) -> None:
    """The subjects' rating rows in ``game``, made where missing (a bot's from its seed)."""
    dialect = s.get_bind().dialect.name if isinstance(s, Session) else s.dialect.name
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    rows = []
    for subject in subjects:
        mu, sigma = start_of(subject, game)
        rows.append({"subject": subject, "game": game, "mu": mu, "sigma": sigma,
                     "ordinal": ordinal(mu, sigma), "games": 0, "updated": when})
    s.execute(insert(RatingRow).values(rows)
              .on_conflict_do_nothing(index_elements=["subject", "game"]))


def forfeit(s: Session | Connection, table_id: str, seat: int, conceded: bool = False) -> bool:
    """Within transaction ``s``: the person at ``seat`` forfeits the running game: they
    conceded it (``conceded``, at any table), or left it at a rated table. The seat gets the
    next forfeit order of the table (1 for the first) and is placed below every seat that
    played on, the first to forfeit last (:func:`~meeple.core.state.places_with_forfeits`),
    however the game ends and even if they come back and play on; a seat keeps its first
    forfeit. At a rated table a forfeit before every person has made a move aborts the
    rating (:func:`abort_rating_early`). False (nothing changed) for a leave at a casual
    table, a table not running, a bot's seat or one that forfeited already."""
    table = s.execute(select(TableRow.rated, TableRow.status).where(TableRow.id == table_id)
                      .with_for_update()).first()  # (one forfeit of a table at a time)
    if table is None or table.status != RUNNING or not (conceded or table.rated):
        return False
    order = select(func.coalesce(func.max(SeatRow.forfeit_order), 0) + 1).where(
        SeatRow.table_id == table_id).scalar_subquery()
    done = s.execute(update(SeatRow).where(
        SeatRow.table_id == table_id, SeatRow.index == seat, SeatRow.kind == HUMAN,
        SeatRow.forfeit_order.is_(None)).values(forfeit=True, forfeit_order=order))
    if not done.rowcount:  # type: ignore[attr-defined]
        return False
    if table.rated:
        abort_rating_early(s, table_id)
    return True


def abort_rating_early(s: Session | Connection, table_id: str) -> bool:
    """Within the transaction of a forfeit at rated table ``table_id`` with two people or
    more: if one of their seats has not made a single move yet, the game is no longer rated
    (as Lichess aborts a game before each side's first move), so a result one person gives
    another at once moves no rating (rating farming between two accounts). The game goes on,
    casual. A person alone with bots who gives up at once is rated as usual: their own rating
    is the one that pays. Whether it was aborted."""
    people = [int(i) for i in s.scalars(select(SeatRow.index).where(
        SeatRow.table_id == table_id, SeatRow.kind == HUMAN))]
    moved = {int(i) for i in s.scalars(select(LogRow.seat).where(
        LogRow.table_id == table_id, LogRow.kind == MOVE).distinct())}
    if len(people) < 2 or all(i in moved for i in people):
        return False
    s.execute(update(TableRow).where(TableRow.id == table_id).values(rated=False))
    return True


# ---------------------------------------------------------------------------- reading them
@dataclass(frozen=True)
class Rating:
    subject: str
    game: str
    mu: float
    sigma: float
    games: int
    updated: datetime | None


@dataclass(frozen=True)
class Ranked:
    """A leaderboard row: an account and its rating in the game."""

    username: str
    display_name: str
    rating: Rating
    #: a bot account's (it plays through the API; shown BOT)
    bot_account: bool = False


@dataclass(frozen=True)
class Point:
    """One rated game in a subject's history."""

    table_id: str
    at: datetime
    before: tuple[float, float]
    after: tuple[float, float]
    place: int
    players: int
    #: whether its table is listed (public); an unlisted table's id is its people's only
    public: bool = True


@dataclass(frozen=True)
class SeatRating:
    """What a seat shows of its rating: ``rating`` (mu, sigma) now, or after this table's game
    once it was rated, with the one before it (``before``)."""

    rating: tuple[float, float]
    before: tuple[float, float] | None = None
    #: the seat is held by a bot account (shown BOT)
    bot_account: bool = False


class Ratings:
    """The ratings of ``store`` (its engine and sessions)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def leaderboard(self, game: str, limit: int, offset: int, bots: bool = True
                    ) -> tuple[list[Ranked], int]:
        """A page of ``game``'s leaderboard: accounts (not deleted; bot accounts only if
        ``bots``) with at least one rated game, by ``mu - 3 sigma`` (then ``mu``, then
        username); and how many there are."""
        where = (RatingRow.game == game, RatingRow.games > 0, AccountRow.deleted.is_(False),
                 *(() if bots else (AccountRow.kind != BOT_ACCOUNT,)))
        joined = and_(AccountRow.id == RatingRow.subject)
        with self.store.session() as s:
            total = int(s.scalar(select(func.count()).select_from(RatingRow)
                                 .join(AccountRow, joined).where(*where)) or 0)
            rows = s.execute(select(RatingRow, AccountRow.username, AccountRow.display_name,
                                    AccountRow.kind)
                             .join(AccountRow, joined).where(*where)
                             .order_by(RatingRow.ordinal.desc(), RatingRow.mu.desc(),
                                       AccountRow.username_key)
                             .limit(limit).offset(offset)).all()
            return [Ranked(str(r.username), str(r.display_name), _rating(r[0]),
                           r.kind == BOT_ACCOUNT) for r in rows], total

    def bots(self, game: str) -> dict[str, Rating]:
        """Each difficulty's rating in ``game``: stored, or its seed before its first rated
        game. A difficulty with no seed in ``game`` (never calibrated there, see
        :func:`~meeple.bots.ratings.seeded`) is left out: its number would say nothing."""
        ladder = [d for d in RATED_BOTS if seeded(game, d)]
        subjects = [bot_subject(d) for d in ladder]
        with self.store.session() as s:
            stored = {r.subject: _rating(r) for r in s.scalars(select(RatingRow).where(
                RatingRow.game == game, RatingRow.subject.in_(subjects)))}
        out = {}
        for d, subject in zip(ladder, subjects, strict=True):
            if subject in stored:
                out[d] = stored[subject]
            else:
                mu, sigma = start_of(subject, game)
                out[d] = Rating(subject, game, mu, sigma, 0, None)
        return out

    def account(self, username_key: str) -> tuple[str, str, str] | None:
        """The id, username and display name of the account with this case-folded username
        (not deleted), or None."""
        with self.store.session() as s:
            row = s.execute(select(AccountRow.id, AccountRow.username, AccountRow.display_name)
                            .where(AccountRow.username_key == username_key,
                                   AccountRow.deleted.is_(False))).first()
            return None if row is None else (str(row.id), str(row.username),
                                             str(row.display_name))

    def of(self, subject: str) -> list[Rating]:
        """The subject's ratings, one per game it played rated."""
        with self.store.session() as s:
            return [_rating(r) for r in s.scalars(select(RatingRow).where(
                RatingRow.subject == subject, RatingRow.games > 0).order_by(RatingRow.game))]

    def shown_in(self, subject: str, game: str) -> float:
        """The subject's rating in ``game`` as players see it (where a new player starts,
        1500, if it has played none rated): what Play now's bots and a tournament's entry
        go by."""
        for r in self.of(subject):
            if r.game == game:
                return float(shown(r.mu, r.sigma))
        return float(shown(*start_of(subject, game)))

    def history(self, subject: str, game: str, limit: int) -> list[Point]:
        """The subject's last ``limit`` rated games of ``game``, oldest first."""
        with self.store.session() as s:
            rows = list(s.execute(select(RatingHistoryRow, TableRow.public)
                                  .outerjoin(TableRow, TableRow.id == RatingHistoryRow.table_id)
                                  .where(RatingHistoryRow.subject == subject,
                                         RatingHistoryRow.game == game)
                                  .order_by(RatingHistoryRow.at.desc(),
                                            RatingHistoryRow.id.desc())
                                  .limit(limit)))
        return [Point(r.table_id, aware(r.at), (r.mu_before, r.sigma_before),
                      (r.mu_after, r.sigma_after), r.place, r.players, bool(public))
                for r, public in reversed(rows)]

    def for_tables(self, tables: Sequence[tuple[str, str, bool, Sequence[tuple[str, str | None]]]]
                   ) -> dict[tuple[str, int], SeatRating]:
        """The ratings the seats of these tables show, by (table, seat): given each table's
        id, game, whether its game was rated and ended, and its seats' (kind, bot). A seat an
        account holds shows the account's rating in the game; a named difficulty's bot seat
        the bot's; at a finished rated table, each rated seat its rating after that game and
        the one before. Open seats, other bots, and a difficulty with neither a seed in the
        game nor a rated game there yet (``expert`` before calibration) are left out."""
        if not tables:
            return {}
        ids = [t[0] for t in tables]
        games = {t[1] for t in tables}
        with self.store.session() as s:
            holders = {(r.table_id, int(r.seat)): str(r.account_id) for r in s.execute(
                select(AccountSeatRow.table_id, AccountSeatRow.seat, AccountSeatRow.account_id)
                .where(AccountSeatRow.table_id.in_(ids)))}
            bot_accounts = set(s.scalars(select(AccountRow.id).where(
                AccountRow.id.in_(set(holders.values())), AccountRow.kind == BOT_ACCOUNT))
            ) if holders else set()
            subjects = set(holders.values()) | {bot_subject(d) for d in RATED_BOTS}
            now_ = {(str(r.subject), str(r.game)): (float(r.mu), float(r.sigma))
                    for r in s.execute(select(RatingRow.subject, RatingRow.game, RatingRow.mu,
                                              RatingRow.sigma)
                                       .where(RatingRow.subject.in_(subjects),
                                              RatingRow.game.in_(games)))}
            ended = [t[0] for t in tables if t[2]]
            past = {(str(r.table_id), str(r.subject)): r for r in s.scalars(
                select(RatingHistoryRow).where(RatingHistoryRow.table_id.in_(ended)))
            } if ended else {}
        out: dict[tuple[str, int], SeatRating] = {}
        for table_id, game, _, seats in tables:
            for i, (kind, bot) in enumerate(seats):
                subject = (bot_subject(str(bot)) if rated_bot(bot) else None) if kind == BOT \
                    else holders.get((table_id, i))
                if subject is None:
                    continue  # an open seat, or a bot that is no named difficulty
                shown_rating = _seat_rating(table_id, game, subject, kind, bot, past, now_,
                                            subject in bot_accounts)
                if shown_rating is not None:
                    out[(table_id, i)] = shown_rating
        return out


def _seat_rating(table_id: str, game: str, subject: str, kind: str, bot: str | None,
                 past: dict[tuple[str, str], Any],
                 now_: dict[tuple[str, str], tuple[float, float]],
                 marked: bool) -> SeatRating | None:
    """What one rated seat of :meth:`Ratings.for_tables` shows: its rating after and before
    the finished game, else its rating now (a bot's seed, a new player's start); None for a
    difficulty never measured in this game."""
    line = past.get((table_id, subject))
    if line is not None:
        return SeatRating((line.mu_after, line.sigma_after),
                          (line.mu_before, line.sigma_before), marked)
    if kind == BOT and (subject, game) not in now_ and not seeded(game, str(bot)):
        return None  # a difficulty never measured in this game: no number to show
    return SeatRating(now_.get((subject, game), start_of(subject, game)), bot_account=marked)


#: How far back :meth:`Ratings.given_results` looks, and how many results one person gave
#: another there before the pair is listed for the moderators.
GIVEN_WITHIN = timedelta(days=30)
GIVEN_LEAST = 3


@dataclass(frozen=True)
class GivenResults:
    """Two accounts one of which kept giving the other rated results (probe 7): ``giver``
    conceded or left ``games`` rated games in which ``taker`` was placed above them."""

    taker: str
    giver: str
    games: int
    tables: tuple[str, ...]
    last: datetime


def given_results(store: Store, within: timedelta = GIVEN_WITHIN, least: int = GIVEN_LEAST,
                  when: datetime | None = None) -> list[GivenResults]:
    """The pairs of accounts for the moderators (``meeple reports --ratings``): in the rated
    games of the last ``within``, one account conceded or left at least ``least`` times
    with the other placed above it (who may be farming rating from a second account, or be
    given it). Most games first. Bots and deleted accounts are left out."""
    cutoff = (when or now()) - within
    with store.session() as s:
        lines = s.execute(select(RatingHistoryRow.table_id, RatingHistoryRow.subject,
                                 RatingHistoryRow.place, RatingHistoryRow.at)
                          .where(RatingHistoryRow.at >= cutoff,
                                 RatingHistoryRow.subject.not_like("bot:%"))).all()
        tables = sorted({str(r.table_id) for r in lines})
        gave: set[tuple[str, str]] = set()
        for k in range(0, len(tables), 500):
            gave |= {(str(r.table_id), str(r.account_id)) for r in s.execute(
                select(AccountSeatRow.table_id, AccountSeatRow.account_id)
                .join(SeatRow, and_(SeatRow.table_id == AccountSeatRow.table_id,
                                    SeatRow.index == AccountSeatRow.seat))
                .where(AccountSeatRow.table_id.in_(tables[k:k + 500]),
                       SeatRow.forfeit_order.is_not(None)))}
        names = {str(r.id): str(r.username) for r in s.execute(
            select(AccountRow.id, AccountRow.username).where(
                AccountRow.id.in_({str(r.subject) for r in lines}),
                AccountRow.deleted.is_(False)))}
    by_table: dict[str, list[Any]] = {}
    for r in lines:
        by_table.setdefault(str(r.table_id), []).append(r)
    pairs: dict[tuple[str, str], list[tuple[str, datetime]]] = {}
    for table_id, here in by_table.items():
        for giver in here:
            if (table_id, str(giver.subject)) not in gave:
                continue
            for taker in here:
                if (table_id, str(taker.subject)) not in gave and taker.place < giver.place:
                    pairs.setdefault((str(taker.subject), str(giver.subject)), []).append(
                        (table_id, aware(giver.at)))
    out = [GivenResults(names[t], names[g], len(found), tuple(sorted(x for x, _ in found)),
                        max(at for _, at in found))
           for (t, g), found in pairs.items()
           if len(found) >= least and t in names and g in names]
    return sorted(out, key=lambda f: (-f.games, f.taker, f.giver))


@on_account_erased
def forget_ratings(s: Session, account_id: str, seats: Sequence[tuple[str, int]]) -> None:
    """In an account deletion's transaction: its ratings and their history go (a running
    rated game rates the others without it)."""
    s.execute(delete(RatingRow).where(RatingRow.subject == account_id))
    s.execute(delete(RatingHistoryRow).where(RatingHistoryRow.subject == account_id))


def _rating(row: RatingRow) -> Rating:
    return Rating(row.subject, row.game, float(row.mu), float(row.sigma), int(row.games),
                  aware(row.updated) if row.updated is not None else None)


__all__ = ["GIVEN_LEAST", "GIVEN_WITHIN", "MIN_RATED_SEATS", "Change", "GivenResults", "Point",
           "Ranked", "Rating", "Ratings", "SeatRating", "abort_rating_early", "final_places",
           "forfeit", "given_results", "ordinal", "rate_table", "rated_problem", "start_of"]
