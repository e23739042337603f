"""Tournaments in the store: making one, entering and withdrawing, and what the scheduler
(:mod:`.service`) does to it (start it, pair a round and seat its tables, finish it), each in
one transaction, so every step survives a restart and several server processes agree. Who
meets whom and the standings are the pure core's (:mod:`.pairing`); this module reads the
stored games into it and writes what it decides."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

import meeple
from meeple.server.features.tournaments import pairing
from meeple.server.features.tournaments.rows import (
    TournamentEntryRow,
    TournamentPairingRow,
    TournamentRoundRow,
    TournamentRow,
)
from meeple.store.account_data import on_account_erased
from meeple.store.models import (
    BOT_ACCOUNT,
    FINISHED,
    HUMAN,
    AccountRow,
    AccountSeatRow,
    TableRow,
    aware,
    now,
)
from meeple.store.store import SeatSpec, Store, Table

KINDS = ("swiss", "arena", "round-robin")
#: A tournament's states: taking entries, being played, over (played or cancelled).
OPEN, RUNNING, DONE = "open", "running", "finished"


class TournamentError(Exception):
    """A request the tournament refuses: ``status`` is the HTTP status that says why."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status, self.detail = status, detail


@dataclass(frozen=True)
class Game:
    """One of the tournament's tables, as the standings and the page read it."""

    round: int
    table: str
    status: str
    players: tuple[str, ...]
    places: tuple[int, ...]
    #: when it last changed (a finished table: when it ended)
    updated: datetime


class Tournaments:
    """Tournaments over a :class:`~meeple.store.Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ made, entered
    def create(self, creator_id: str, most_open: int, **fields: Any) -> str:
        """A new tournament (``fields``: its row's, already checked); a creator with
        ``most_open`` upcoming tournaments of their own is refused (429)."""
        with self.store.writing() as s:
            held = s.scalar(select(func.count()).select_from(TournamentRow).where(
                TournamentRow.creator_id == creator_id, TournamentRow.state == OPEN)) or 0
            if held >= most_open:
                raise TournamentError(429, f"you have {held} upcoming tournaments already (at "
                                           f"most {most_open}): cancel one or wait for it "
                                           "to start")
            row = TournamentRow(id=_new_id(), creator_id=creator_id, state=OPEN, created=now(),
                                **fields)
            s.add(row)
            return row.id

    def row(self, s: Session, tournament_id: str) -> TournamentRow:
        row = s.get(TournamentRow, tournament_id) if len(tournament_id) <= 32 else None
        if row is None:
            raise TournamentError(404, f"no tournament {tournament_id[:40]!r}")
        return row

    def join(self, tournament_id: str, account_id: str, bot_account: bool, rating: float,
             most: int) -> bool:
        """Enter the account (True; False: it was in already). Only while it takes entries,
        a bot account only where bots are allowed, at most ``most`` entrants."""
        with self.store.writing() as s:
            t = self.row(s, tournament_id)
            if t.state != OPEN and not _arena_open(t):
                raise TournamentError(409, "this tournament has started: entries close at "
                                           "its start" if t.state == RUNNING else
                                      "this tournament is over")
            if bot_account and not t.bots:
                raise TournamentError(403, "this tournament is for people only: its creator "
                                           "did not allow bot accounts")
            if s.scalar(select(TournamentEntryRow.id).where(
                    TournamentEntryRow.tournament_id == t.id,
                    TournamentEntryRow.account_id == account_id)) is not None:
                return False
            count = s.scalar(select(func.count()).select_from(TournamentEntryRow).where(
                TournamentEntryRow.tournament_id == t.id)) or 0
            if count >= most:
                raise TournamentError(409, f"this tournament is full ({most} entrants)")
            s.add(TournamentEntryRow(tournament_id=t.id, account_id=account_id,
                                     rating=rating, joined=now()))
        return True

    def withdraw(self, tournament_id: str, account_id: str) -> bool:
        """Take the account out: before the start its entry goes; once running it is paired
        no more (its games stay in the standings). False: it was not in (or out already)."""
        with self.store.writing() as s:
            t = self.row(s, tournament_id)
            if t.state == DONE:
                raise TournamentError(409, "this tournament is over: its standings stay")
            mine = (TournamentEntryRow.tournament_id == t.id,
                    TournamentEntryRow.account_id == account_id)
            if t.state == OPEN:
                done = s.execute(delete(TournamentEntryRow).where(*mine))
            else:
                done = s.execute(update(TournamentEntryRow).where(
                    *mine, TournamentEntryRow.withdrawn.is_(None)).values(withdrawn=now()))
            return bool(done.rowcount)  # type: ignore[attr-defined]

    def cancel(self, tournament_id: str, account_id: str) -> None:
        """Its creator calls it off before it starts (it is finished, never played)."""
        with self.store.writing() as s:
            t = self.row(s, tournament_id)
            if t.creator_id != account_id:
                raise TournamentError(403, "only the tournament's creator may cancel it")
            if t.state != OPEN:
                raise TournamentError(409, "a tournament can be cancelled before it starts "
                                           "only")
            t.state, t.finished, t.cancelled = DONE, now(), "cancelled by its creator"

    # ------------------------------------------------------------------ read
    def listing(self, finished: int) -> dict[str, list[dict[str, Any]]]:
        """The lobby's lists: upcoming (soonest first), running, the last ``finished``."""
        with self.store.session() as s:
            counts: dict[str, int] = {str(t): int(n) for t, n in s.execute(
                select(TournamentEntryRow.tournament_id, func.count())
                .where(TournamentEntryRow.withdrawn.is_(None))
                .group_by(TournamentEntryRow.tournament_id))}
            out: dict[str, list[dict[str, Any]]] = {}
            for key, state, order in (("upcoming", OPEN, TournamentRow.starts),
                                      ("running", RUNNING, TournamentRow.starts),
                                      ("finished", DONE, TournamentRow.finished.desc())):
                q = select(TournamentRow).where(TournamentRow.state == state).order_by(order)
                rows = s.scalars(q.limit(finished if state == DONE else 200))
                out[key] = [self._summary(s, r, counts.get(r.id, 0)) for r in rows]
            return out

    def entered(self, account_id: str) -> list[str]:
        """The tournaments not over that the account is in (and has not withdrawn from)."""
        with self.store.session() as s:
            return [str(i) for i in s.scalars(
                select(TournamentEntryRow.tournament_id)
                .join(TournamentRow, TournamentRow.id == TournamentEntryRow.tournament_id)
                .where(TournamentEntryRow.account_id == account_id,
                       TournamentEntryRow.withdrawn.is_(None), TournamentRow.state != DONE))]

    def _summary(self, s: Session, t: TournamentRow, entrants: int) -> dict[str, Any]:
        creator = s.get(AccountRow, t.creator_id) if t.creator_id else None
        return {
            "id": t.id, "name": t.name, "kind": t.kind, "game": t.game,
            "title": _title(t.game),
            "variant": dict(t.variant), "seats": t.seats, "pace": t.pace, "clock": t.clock,
            "rated": bool(t.rated), "bots": bool(t.bots), "starts": _iso(t.starts),
            "rounds": t.rounds, "duration": t.duration,
            "ends": (_iso(aware(t.starts) + timedelta(seconds=t.duration))
                     if t.duration else None),
            "state": t.state, "cancelled": t.cancelled, "started": _iso(t.started),
            "finished": _iso(t.finished), "created": _iso(t.created), "entrants": entrants,
            "creator": None if creator is None or creator.deleted else _person(creator),
            "url": f"/tournaments/{t.id}",
        }

    def exists(self, tournament_id: str) -> bool:
        with self.store.session() as s:
            try:
                self.row(s, tournament_id)
            except TournamentError:
                return False
            return True

    def detail(self, tournament_id: str) -> dict[str, Any]:
        """The page's JSON: the tournament, its entries, its rounds (each pairing a table
        with its players, or a bye) and the standings from the stored games."""
        with self.store.session() as s:
            t = self.row(s, tournament_id)
            rows = list(s.execute(select(TournamentEntryRow, AccountRow).join(
                AccountRow, AccountRow.id == TournamentEntryRow.account_id).where(
                TournamentEntryRow.tournament_id == t.id).order_by(
                TournamentEntryRow.rating.desc(), TournamentEntryRow.joined)))
            people = {a.id: _person(a) for _, a in rows}
            entries = [{**people[e.account_id], "rating": round(e.rating),
                        "withdrawn": e.withdrawn is not None} for e, _ in rows]
            summary = self._summary(s, t, sum(not e.withdrawn for e, _ in rows))
            rounds = self._rounds(s, t.id)
        games = self.games(tournament_id)
        by_table = {g.table: g for g in games}
        later = {p for r in rounds for p in r[2] if p not in people}
        if later:  # a player seated whose entry went (its account deleted): still named
            with self.store.session() as s:
                for a in s.scalars(select(AccountRow).where(AccountRow.id.in_(later))):
                    people[a.id] = _person(a)
        out_rounds = []
        for number, paired, byes, tables in rounds:
            pairings: list[dict[str, Any]] = []
            for table_id in tables:
                g = by_table.get(table_id)
                if g is None:
                    continue
                pairings.append({
                    "table": g.table, "url": f"/t/{g.table}", "status": g.status,
                    "players": [{**people.get(p, _gone()), "seat": i,
                                 "place": g.places[i] if g.places else None}
                                for i, p in enumerate(g.players)]})
            pairings += [{"bye": people.get(b, _gone())} for b in byes]
            out_rounds.append({"number": number, "paired": _iso(paired),
                               "pairings": pairings})
        standings = self.standings(tournament_id, t.kind, games)
        return {"tournament": summary, "entries": entries, "rounds": out_rounds,
                "standings": [{**people.get(line["player"], _gone()),
                               **{k: v for k, v in line.items() if k != "player"}}
                              for line in standings]}

    def _rounds(self, s: Session, tournament_id: str
                ) -> list[tuple[int, datetime, list[str], list[str]]]:
        """Each paired round: its number, when, its byes and its tables (in order)."""
        out = []
        for r in s.scalars(select(TournamentRoundRow).where(
                TournamentRoundRow.tournament_id == tournament_id)
                .order_by(TournamentRoundRow.number)):
            pairs = list(s.scalars(select(TournamentPairingRow).where(
                TournamentPairingRow.round_id == r.id).order_by(TournamentPairingRow.id)))
            out.append((r.number, r.paired,
                        [p.bye_account_id for p in pairs if p.bye_account_id is not None],
                        [p.table_id for p in pairs if p.table_id is not None]))
        return out

    def games(self, tournament_id: str) -> list[Game]:
        """Every table the tournament made, round by round: who sits where, the places once
        finished (none for a table ended without a result)."""
        with self.store.session() as s:
            made = list(s.execute(
                select(TournamentRoundRow.number, TournamentPairingRow.table_id)
                .join(TournamentPairingRow,
                      TournamentPairingRow.round_id == TournamentRoundRow.id)
                .where(TournamentRoundRow.tournament_id == tournament_id,
                       TournamentPairingRow.table_id.is_not(None))
                .order_by(TournamentRoundRow.number, TournamentPairingRow.id)))
            ids = [str(t) for _, t in made]
            holders: dict[tuple[str, int], str] = {
                (a.table_id, a.seat): a.account_id for a in s.scalars(
                    select(AccountSeatRow).where(AccountSeatRow.table_id.in_(ids)))}
        out = []
        for number, table_id in made:
            table: Table = self.store.table(str(table_id))
            players = tuple(holders.get((table.id, i), "") for i in range(table.players))
            places = tuple(table.places()) if table.status == FINISHED else ()
            out.append(Game(number, table.id, table.status, players, places,
                            aware(table.updated)))
        return out

    def byes(self, tournament_id: str) -> list[str]:
        with self.store.session() as s:
            return [str(b) for b in s.scalars(
                select(TournamentPairingRow.bye_account_id)
                .join(TournamentRoundRow, TournamentRoundRow.id == TournamentPairingRow.round_id)
                .where(TournamentRoundRow.tournament_id == tournament_id,
                       TournamentPairingRow.bye_account_id.is_not(None))
                .order_by(TournamentRoundRow.number, TournamentPairingRow.id))]

    def entries(self, tournament_id: str) -> tuple[list[pairing.Entry], set[str]]:
        """Every entry (withdrawn ones too: their games count) and who is still in."""
        with self.store.session() as s:
            rows = list(s.scalars(select(TournamentEntryRow).where(
                TournamentEntryRow.tournament_id == tournament_id)))
        return ([pairing.Entry(e.account_id, e.rating) for e in rows],
                {e.account_id for e in rows if e.withdrawn is None})

    def standings(self, tournament_id: str, kind: str, games: Sequence[Game]
                  ) -> list[dict[str, Any]]:
        """The standings from the stored games (:func:`results`), as the page shows them."""
        entries, _ = self.entries(tournament_id)
        known = {e.player for e in entries}
        results = results_of(games, known)
        if kind == "arena":
            return [{"rank": a.rank, "player": a.player, "points": a.points,
                     "games": a.games, "rating": round(a.rating)}
                    for a in pairing.arena_standings(entries, results)]
        byes = [b for b in self.byes(tournament_id) if b in known]
        return [{"rank": x.rank, "player": x.player, "score": float(x.score),
                 "score_text": _half(x.score), "buchholz": float(x.buchholz),
                 "buchholz_text": _half(x.buchholz),
                 "sonneborn_berger": float(x.sonneborn_berger),
                 "sonneborn_berger_text": _half(x.sonneborn_berger),
                 "rating": round(x.rating), "games": x.games, "byes": x.byes}
                for x in pairing.standings(entries, results, byes)]

    # ------------------------------------------------------------------ the scheduler's
    def due(self, when: datetime) -> list[str]:
        """The tournaments the scheduler looks at now: running ones, and open ones whose
        start has come."""
        with self.store.session() as s:
            return [str(i) for i in s.scalars(select(TournamentRow.id).where(
                (TournamentRow.state == RUNNING)
                | ((TournamentRow.state == OPEN) & (TournamentRow.starts <= when)))
                .order_by(TournamentRow.starts))]

    def step(self, tournament_id: str, when: datetime) -> list[str]:
        """One look at a tournament: start it if its time has come (or cancel it with too few
        entrants), pair its next round once the last one's tables all finished (an Arena:
        seat its free players while its window is open), finish it after its last round.
        Returns the tables it made (to be started)."""
        with self.store.session() as s:
            t = self.row(s, tournament_id)
            s.expunge(t)
        if t.state == OPEN:
            if aware(t.starts) > when:
                return []
            _, active = self.entries(t.id)
            if len(active) < t.seats:
                self._finish(t.id, OPEN, f"too few entrants: {len(active)} at the start, "
                                         f"a table needs {t.seats}")
                return []
            with self.store.writing() as s:
                done = s.execute(update(TournamentRow).where(
                    TournamentRow.id == t.id, TournamentRow.state == OPEN).values(
                    state=RUNNING, started=when))
                if not done.rowcount:  # type: ignore[attr-defined]
                    return []
            t.state = RUNNING
        if t.state != RUNNING:
            return []
        if t.kind == "arena":
            return self._arena_step(t, when)
        return self._round_step(t)

    def _round_step(self, t: TournamentRow) -> list[str]:
        if self._busy(t.id):
            return []  # the round goes on (one query a second, whatever the tournament's size)
        games = self.games(t.id)
        last = max((number for number, *_ in self._rounds_only(t.id)), default=0)
        entries, active = self.entries(t.id)
        ins = [e for e in entries if e.player in active]
        if t.kind == "swiss":
            total = t.rounds or 0
        else:
            schedule = pairing.round_robin(entries, t.seats)
            total = len(schedule)
        if last >= total or len(ins) < t.seats:
            self._finish(t.id, RUNNING, None)
            return []
        if t.kind == "swiss":
            known = {e.player for e in entries}
            rnd = pairing.swiss_round(ins, results_of(games, known),
                                      [b for b in self.byes(t.id) if b in known], t.seats)
            tables, byes = list(rnd.tables), list(rnd.byes)
        else:  # the schedule's next round: a withdrawn player's tables are not played
            rnd = schedule[last]
            tables = [tab for tab in rnd.tables if all(p in active for p in tab)]
            byes = [b for b in rnd.byes if b in active]
        return self._pair(t, last + 1, tables, byes)

    def _arena_step(self, t: TournamentRow, when: datetime) -> list[str]:
        ends = aware(t.starts) + timedelta(seconds=t.duration or 0)
        busy = self._busy(t.id)
        if when >= ends:  # the window closed: the tables begun play out, then it is over
            if not busy:
                self._finish(t.id, RUNNING, None)
            return []
        entries, active = self.entries(t.id)
        free = [e for e in entries if e.player in active and e.player not in busy]
        if len(free) < t.seats:
            return []
        games = self.games(t.id)
        points: dict[str, int] = {}
        last: dict[str, Game] = {}
        for g in games:
            if g.places:
                for p, pts in zip(g.players, pairing.place_points(g.places), strict=True):
                    points[p] = points.get(p, 0) + pts
            for p in g.players:
                last[p] = g
        waiting = [pairing.Waiting(
            e.player, e.rating, points.get(e.player, 0),
            frozenset(p for p in last[e.player].players if p != e.player)
            if e.player in last else frozenset(),
            (last[e.player].updated if e.player in last else aware(t.starts)).timestamp())
            for e in free]
        tables = pairing.arena_tables(waiting, t.seats)
        if not tables:
            return []
        number = max((n for n, *_ in self._rounds_only(t.id)), default=0) + 1
        return self._pair(t, number, list(tables), [], closes=ends)

    def _busy(self, tournament_id: str) -> set[str]:
        """The accounts at an unfinished table of the tournament."""
        with self.store.session() as s:
            return {str(a) for a in s.scalars(
                select(AccountSeatRow.account_id)
                .join(TournamentPairingRow,
                      TournamentPairingRow.table_id == AccountSeatRow.table_id)
                .join(TournamentRoundRow, TournamentRoundRow.id == TournamentPairingRow.round_id)
                .join(TableRow, TableRow.id == AccountSeatRow.table_id)
                .where(TournamentRoundRow.tournament_id == tournament_id,
                       TableRow.status != FINISHED))}

    def _rounds_only(self, tournament_id: str) -> list[tuple[int]]:
        with self.store.session() as s:
            return [(int(n),) for n in s.scalars(select(TournamentRoundRow.number).where(
                TournamentRoundRow.tournament_id == tournament_id))]

    def _pair(self, t: TournamentRow, number: int, tables: Sequence[Sequence[str]],
              byes: Sequence[str], closes: datetime | None = None) -> list[str]:
        """Round ``number``: its row first (unique per tournament and number: a second
        process pairing the same round fails here and makes nothing), then each table with
        its entrants' accounts in their seats (taken, so the table starts), and the byes;
        one transaction. The tables made, or none if another process paired it. ``closes``:
        an Arena's end; the step began before it, but on a slow machine the clock may have
        passed it since, and no round is paired once the window has closed."""
        made: list[str] = []
        try:
            with self.store.writing() as s:
                paired = now()
                if closes is not None and paired >= closes:
                    return []
                rnd = TournamentRoundRow(tournament_id=t.id, number=number, paired=paired)
                s.add(rnd)
                s.flush()
                for players in tables:
                    row = self.store._new_table(
                        t.game, dict(t.variant), t.seats,
                        [SeatSpec(kind=HUMAN, bot=None) for _ in players], None, True,
                        t.clock, None, None, bool(t.rated), t.pace,
                        BANK_FOR_TURN_BASED if t.pace != "live" else None)
                    s.add(row)
                    s.flush()
                    for i, account_id in enumerate(players):
                        self.store._take_seat(s, row.id, i, "player", None, account_id)
                    s.add(TournamentPairingRow(round_id=rnd.id, table_id=row.id))
                    made.append(row.id)
                for b in byes:
                    s.add(TournamentPairingRow(round_id=rnd.id, bye_account_id=b))
        except IntegrityError:
            return []  # another server process paired this round
        return made

    def _finish(self, tournament_id: str, state: str, cancelled: str | None) -> None:
        with self.store.writing() as s:
            s.execute(update(TournamentRow).where(
                TournamentRow.id == tournament_id, TournamentRow.state == state).values(
                state=DONE, finished=now(), cancelled=cancelled))


@on_account_erased
def forget_entries(s: Session, account_id: str, seats: Sequence[tuple[str, int]]) -> None:
    """In an account deletion's transaction (:mod:`meeple.store.account_data`): its entries
    go, so a deleted account is never paired again; with its seats' holders erased, the games
    it played count for nobody's standings."""
    s.execute(delete(TournamentEntryRow).where(TournamentEntryRow.account_id == account_id))


#: A turn-based tournament table's time bank per seat (3 days, as a new table's default).
BANK_FOR_TURN_BASED = 3 * 86400


def results_of(games: Sequence[Game], known: set[str]) -> list[pairing.Result]:
    """The finished games with places, as the pure core takes them. A table ended without a
    result (abandoned before its end) counts as no game; so does one with a seat whose
    account is no longer entered (deleted)."""
    return [pairing.Result(g.players, g.places) for g in games
            if g.places and all(p in known for p in g.players)]


def _person(a: AccountRow) -> dict[str, Any]:
    return {"name": a.username, "display_name": a.display_name,
            "bot_account": a.kind == BOT_ACCOUNT}


def _arena_open(t: TournamentRow) -> bool:
    """Whether ``t`` is an Arena being played whose window is still open: one may join it
    late, and is seated as soon as someone is free (as on Lichess)."""
    return (t.kind == "arena" and t.state == RUNNING and
            now() < aware(t.starts) + timedelta(seconds=t.duration or 0))


def _title(game: str) -> str:
    try:
        return meeple.game_info(game).title
    except meeple.MeepleError:  # a game no longer shipped: its name
        return game


def _gone() -> dict[str, Any]:
    return {"name": None, "display_name": "(deleted account)", "bot_account": False}


def _half(x: Any) -> str:
    """A score as players write it: 2, 1½, ½, 2.33 (thirds and quarters as decimals)."""
    whole, rest = divmod(x, 1)
    if rest == 0:
        return str(int(whole))
    if rest * 2 == 1:
        return f"{int(whole) or ''}½"
    return f"{float(x):.2f}"


def _iso(when: datetime | None) -> str | None:
    return None if when is None else aware(when).isoformat()


def _new_id() -> str:
    return secrets.token_hex(8)


__all__ = ["DONE", "KINDS", "OPEN", "RUNNING", "Game", "TournamentError", "Tournaments",
           "forget_entries", "results_of"]
