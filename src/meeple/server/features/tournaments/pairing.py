"""Tournament pairing, schedules and standings: a pure core (no I/O, no server, no store).

The tournaments feature (its rows, routes, pages and the server's scheduler) keeps the
entries and the finished games and asks this module what to do next. Everything here is a
function of dataclasses in and dataclasses out, deterministic (the same input gives the same
answer, whatever order the games are listed in), so a plain recomputation from the stored
games gives the same standings and the same pairing.

In:

- :class:`Entry`: a player in the tournament (``player``, its account id) and its ``rating``
  (the site's rating for the variant when the round is paired; any finite number).
- :class:`Result`: one finished game: its ``players`` in seat order and their ``places``
  (1 is first, equal places share as :meth:`meeple.core.state.State.places` gives them, A4).
- byes: the player of each bye given so far, one item per bye.

Out:

- :class:`Round`: the ``tables`` to start (each a tuple of players in seat order) and the
  ``byes`` of the round.
- :class:`Standing`: a player's rank, score and tie-breaks.

The functions:

- :func:`swiss_round`: the next Swiss round (the number of rounds is fixed by the
  tournament, not here).
- :func:`round_robin`: every round of a round robin, up front.
- :func:`arena_tables`: the tables an Arena starts now from the players who are free.
- :func:`standings` (Swiss and round robin) and :func:`arena_standings`.
- :func:`place_points`: the points of each seat of one game, by place (both use it).

The rules a player reads are in this package's README.md ("Pairing and standings")."""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

#: How many steps the search for a repeat-free grouping of 3-4 seat tables may take before it
#: settles for the fewest repeats (small tournaments are searched to the end well within it).
SEARCH_BUDGET = 20_000


@dataclass(frozen=True)
class Entry:
    """A player in the tournament and the rating its pairing and last tie-break use."""

    player: str
    rating: float

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise ValueError(f"player {self.player}'s rating must be a finite number")


@dataclass(frozen=True)
class Result:
    """One finished game: its players in seat order and each one's place (1 is first)."""

    players: tuple[str, ...]
    places: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.players) != len(self.places):
            raise ValueError(f"{len(self.players)} players but {len(self.places)} places")
        if len(self.players) < 2 or len(set(self.players)) != len(self.players):
            raise ValueError("a game needs two or more different players")
        if any(not 1 <= place <= len(self.places) for place in self.places):
            raise ValueError(f"places must be between 1 and {len(self.places)}")


@dataclass(frozen=True)
class Round:
    """The tables to start (players in seat order) and the players with a bye."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Standing:
    """One line of the standings. ``rank`` is shared by lines equal in everything but the
    player id (the id only orders the listing)."""

    rank: int
    player: str
    score: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    rating: float
    games: int
    byes: int


@dataclass(frozen=True)
class Waiting:
    """A player free to start an Arena game: its arena points so far, its rating, the
    opponents of its last game (not met again at once where avoidable) and when it became
    free (any increasing number: a smaller one has waited longer)."""

    player: str
    rating: float
    points: int = 0
    last_opponents: frozenset[str] = frozenset()
    free_since: float = 0.0


@dataclass(frozen=True)
class ArenaStanding:
    """One line of an Arena's standings (``rank`` shared as :class:`Standing`'s)."""

    rank: int
    player: str
    points: int
    games: int
    rating: float


def place_points(places: Sequence[int]) -> list[int]:
    """Each seat's points from one game by place: 2 for every other seat it finished above
    and 1 for every other seat it shares a place with (A4: ties win together, so they share).
    Two seats: 2 a win, 1 a draw, 0 a loss; four seats: 6, 4, 2, 0 without ties. The seats'
    points always add up to ``n * (n - 1)``."""
    return [sum(2 if place < other else 1 if place == other else 0
                for j, other in enumerate(places) if j != i)
            for i, place in enumerate(places)]


def game_score(places: Sequence[int]) -> list[Fraction]:
    """Each seat's Swiss score from one game: its :func:`place_points` over the most a seat
    can get, so a win is 1, a draw (of two) 1/2, last alone 0, at any table size."""
    most = 2 * (len(places) - 1)
    return [Fraction(p, most) for p in place_points(places)]


def _checked_entries(entries: Iterable[Entry]) -> dict[str, Entry]:
    by_player: dict[str, Entry] = {}
    for entry in entries:
        if entry.player in by_player:
            raise ValueError(f"player {entry.player} is entered twice")
        by_player[entry.player] = entry
    return by_player


def _check_known(players: Iterable[str], known: Mapping[str, Entry], what: str) -> None:
    unknown = sorted(set(players) - set(known))
    if unknown:
        raise ValueError(f"{what} of players not entered: {unknown}")


def _scores(entries: Mapping[str, Entry], results: Sequence[Result],
            byes: Sequence[str]) -> dict[str, Fraction]:
    """Each entered player's Swiss score: its games' :func:`game_score` plus 1 a bye."""
    scores = {player: Fraction(0) for player in entries}
    for result in results:
        for player, score in zip(result.players, game_score(result.places), strict=True):
            if player in scores:
                scores[player] += score
    for player in byes:
        if player in scores:
            scores[player] += 1
    return scores


def _met(results: Iterable[Result]) -> set[frozenset[str]]:
    """Every pair of players who have shared a table."""
    return {frozenset(pair) for result in results
            for pair in itertools.combinations(result.players, 2)}


def _ranked(entries: Mapping[str, Entry], scores: Mapping[str, Fraction]) -> list[str]:
    """The players by score (higher first), then rating (higher first), then id."""
    return sorted(entries, key=lambda p: (-scores[p], -entries[p].rating, p))


def standings(entries: Iterable[Entry], results: Sequence[Result],
              byes: Sequence[str] = ()) -> list[Standing]:
    """The standings of a Swiss or round robin from its finished games and byes alone.

    Score: each game's :func:`game_score` (a win 1, a draw of two 1/2, shared places share),
    plus 1 for a bye (worth a win). Ties are broken, in this order, by

    1. Buchholz: over the player's games, the mean final score of its opponents at that
       table (with two seats: the sum of its opponents' scores); a bye adds nothing;
    2. Sonneborn-Berger: over the player's games and each opponent there, the opponent's
       final score times the share of that meeting won (1 finished above, 1/2 shared place,
       0 below), over the number of opponents at the table (with two seats: the scores of the
       opponents beaten plus half of those drawn);
    3. the rating given in the entry (higher first).

    Lines equal in all of these share a rank; the player id orders them in the listing.
    Every entry has a line (a withdrawn player keeps its games); a game or bye of a player not
    entered is a ValueError. Exact fractions: the order of the games changes nothing."""
    known = _checked_entries(entries)
    for result in results:
        _check_known(result.players, known, "a game")
    _check_known(byes, known, "a bye")
    scores = _scores(known, results, byes)
    buchholz = {player: Fraction(0) for player in known}
    berger = {player: Fraction(0) for player in known}
    games: Counter[str] = Counter()
    for result in results:
        others = len(result.players) - 1
        for i, player in enumerate(result.players):
            games[player] += 1
            for j, opponent in enumerate(result.players):
                if j == i:
                    continue
                buchholz[player] += scores[opponent] / others
                won = _share_won(result.places[i], result.places[j])
                berger[player] += won * scores[opponent] / others
    bye_count = Counter(byes)
    lines = [(scores[p], buchholz[p], berger[p], known[p].rating, p) for p in known]
    lines.sort(key=lambda line: (-line[0], -line[1], -line[2], -line[3], line[4]))
    ranks = _shared_ranks([line[:4] for line in lines])
    return [Standing(rank=rank, player=p, score=score, buchholz=bh, sonneborn_berger=sb,
                     rating=rating, games=games[p], byes=bye_count[p])
            for rank, (score, bh, sb, rating, p) in zip(ranks, lines, strict=True)]


def _share_won(place: int, other: int) -> Fraction:
    """What a meeting at one table is worth to the seat at ``place`` against ``other``."""
    return Fraction(1) if place < other else Fraction(1, 2) if place == other else Fraction(0)


def _shared_ranks(keys: Sequence[object]) -> list[int]:
    """Ranks of lines already in order: a line equal to the one before shares its rank."""
    ranks: list[int] = []
    for i, key in enumerate(keys):
        ranks.append(ranks[-1] if i and key == keys[i - 1] else i + 1)
    return ranks


def swiss_round(entries: Iterable[Entry], results: Sequence[Result], byes: Sequence[str],
                seats: int) -> Round:
    """The next Swiss round for the players still in (``entries``; a withdrawn player is left
    out), from the finished games and the byes so far.

    - The players are ranked by score (:func:`standings`' score), then rating, then id.
    - When they do not divide into tables of ``seats``, the remainder get a bye (worth a win):
      the lowest-ranked players without a bye yet; once everyone has had one, the
      lowest-ranked with the fewest.
    - Two seats: a maximum-weight matching (:func:`networkx.max_weight_matching`) whose
      weights prefer, strictly in this order, no repeat opponents, equal scores, close
      ratings, neighbours in the ranking. A repeat is only made when no pairing of the round
      avoids it, and then as few as possible.
    - Three or four seats: :func:`_group_tables` (why not matching: its docstring).
    - Seat order at each table: whoever has sat first least often sits first (then by rank)."""
    if seats < 2:
        raise ValueError("a table has two or more seats")
    known = _checked_entries(entries)
    if len(known) < seats:
        raise ValueError(f"{len(known)} players cannot fill a table of {seats}")
    scores = _scores(known, results, byes)
    ranked = _ranked(known, scores)
    given = _bye_players(ranked, Counter(byes), len(ranked) % seats)
    playing = [p for p in ranked if p not in given]
    met = _met(results)
    if seats == 2:
        points = {p: int(scores[p] * 2) for p in playing}
        ratings = {p: known[p].rating for p in playing}
        tables = _match_pairs(playing, points, ratings, met)
    else:
        tables = _group_tables(playing, seats, met)
    firsts = Counter(result.players[0] for result in results)
    position = {p: i for i, p in enumerate(ranked)}
    seated = [tuple(sorted(table, key=lambda p: (firsts[p], position[p]))) for table in tables]
    seated.sort(key=lambda table: min(position[p] for p in table))
    return Round(tables=tuple(seated), byes=tuple(given))


def _bye_players(ranked: Sequence[str], had: Counter[str], count: int) -> list[str]:
    """Who gets the round's ``count`` byes: the lowest-ranked players with the fewest byes so
    far (so nobody gets a second bye while someone has none)."""
    bottom_up = sorted(range(len(ranked)), key=lambda i: (had[ranked[i]], -i))
    return [ranked[i] for i in sorted(bottom_up[:count])]


def _lexicographic(gains: Sequence[Sequence[int]], edges_per_matching: int) -> list[int]:
    """One integer weight per edge from its gains listed most important first (each gain
    0 or more): each level's multiplier is more than the most all lower levels can add up to
    over a matching, so a better first gain always wins, then the second, and so on."""
    weights = [0] * len(gains)
    scale = 1
    for level in reversed(range(len(gains[0]) if gains else 0)):
        for i, gain in enumerate(gains):
            weights[i] += gain[level] * scale
        scale *= edges_per_matching * max(gain[level] for gain in gains) + 1
    return weights


def _match_pairs(playing: Sequence[str], points: Mapping[str, int],
                 ratings: Mapping[str, float], met: set[frozenset[str]]) -> list[tuple[str, ...]]:
    """The two-seat tables of an even list of ranked players: the maximum-cardinality
    matching of greatest weight, gains (most important first) no repeat, equal scores, close
    ratings, close in the ranking. Integer weights keep networkx's blossom algorithm exact."""
    if not playing:
        return []
    # imported here, when a round is paired: networkx takes ~0.15-0.3 s to import, which every
    # server start, CLI command and test server paid though most never pair a round
    import networkx as nx

    pairs = list(itertools.combinations(range(len(playing)), 2))
    most_points = max(points.values())
    most_apart = max(round(abs(ratings[a] - ratings[b])) for a, b in
                     itertools.combinations(playing, 2))
    gains = []
    for i, j in pairs:
        a, b = playing[i], playing[j]
        gains.append((0 if frozenset((a, b)) in met else 1,
                      most_points - abs(points[a] - points[b]),
                      most_apart - round(abs(ratings[a] - ratings[b])),
                      len(playing) - (j - i)))
    graph = nx.Graph()
    for (i, j), weight in zip(pairs, _lexicographic(gains, len(playing) // 2), strict=True):
        graph.add_edge(i, j, weight=weight)
    matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((playing[min(i, j)], playing[max(i, j)]) for i, j in matching)


def _repeats(table: Sequence[str], met: set[frozenset[str]]) -> int:
    """How many pairs at ``table`` have met before."""
    return sum(1 for pair in itertools.combinations(table, 2) if frozenset(pair) in met)


def _group_tables(playing: Sequence[str], seats: int,
                  met: set[frozenset[str]]) -> list[tuple[str, ...]]:
    """Tables of three or four from ranked players (their number a multiple of ``seats``).

    Matching pairs two players; tables of three or four are groups, and splitting players
    into groups of three with no two who have met is "partition into triangles", an
    NP-complete problem, so no exact polynomial algorithm applies. Instead, greedy with
    repair: the highest-ranked player left opens a table and the next-ranked players who have
    met nobody at it fill it (so tables keep to score groups, then ratings); on a dead end the
    search goes back (the repair) and tries the next candidate, for up to
    :data:`SEARCH_BUDGET` steps. It guarantees a repeat-free grouping whenever one exists and
    the search ends within its budget (always for a small tournament). Otherwise the tables
    are filled greedily by the fewest repeats, then improved by swapping two players of two
    tables while that lowers the number of repeated pairs: then no such swap is left."""
    found = _repeat_free_groups(list(playing), seats, met)
    if found is not None:
        return found
    return _fewest_repeats(playing, seats, met)


def _repeat_free_groups(playing: list[str], seats: int,
                        met: set[frozenset[str]]) -> list[tuple[str, ...]] | None:
    """The first repeat-free grouping in rank order, or None if there is none or the search
    ran out of its budget."""
    steps = 0

    def fill(left: list[str], table: list[str]) -> list[tuple[str, ...]] | None:
        nonlocal steps
        steps += 1
        if steps > SEARCH_BUDGET:
            return None
        if len(table) == seats:
            if not left:
                return [tuple(table)]
            rest = fill(left[1:], [left[0]])
            return None if rest is None else [tuple(table), *rest]
        for k, candidate in enumerate(left):
            if any(frozenset((candidate, p)) in met for p in table):
                continue
            found = fill(left[:k] + left[k + 1:], [*table, candidate])
            if found is not None:
                return found
        return None

    if not playing:
        return []
    return fill(playing[1:], [playing[0]])


def _fewest_repeats(playing: Sequence[str], seats: int,
                    met: set[frozenset[str]]) -> list[tuple[str, ...]]:
    """Greedy tables by the fewest repeats (then rank), then two-player swaps between tables
    while a swap lowers the number of repeated pairs."""
    left = list(playing)
    tables: list[list[str]] = []
    while left:
        table = [left.pop(0)]
        while len(table) < seats:
            best = min(range(len(left)), key=lambda k: (_repeats([*table, left[k]], met), k))
            table.append(left.pop(best))
        tables.append(table)
    improved = True
    while improved:
        improved = _improving_swap(tables, met)
    return [tuple(table) for table in tables]


def _improving_swap(tables: list[list[str]], met: set[frozenset[str]]) -> bool:
    """Make the first swap of two players between two tables that lowers their repeats."""
    for t, u in itertools.combinations(range(len(tables)), 2):
        before = _repeats(tables[t], met) + _repeats(tables[u], met)
        if before == 0:
            continue
        for i, j in itertools.product(range(len(tables[t])), range(len(tables[u]))):
            first, second = list(tables[t]), list(tables[u])
            first[i], second[j] = second[j], first[i]
            if _repeats(first, met) + _repeats(second, met) < before:
                tables[t], tables[u] = first, second
                return True
    return False


def round_robin(entries: Iterable[Entry], seats: int) -> list[Round]:
    """Every round of a round robin, ranked by rating (then id).

    Two seats: the circle method; every pair meets exactly once, in ``n - 1`` rounds (``n``
    with a bye a round when ``n`` is odd, each player's bye once). Three or four seats
    (:func:`_covering_rounds`): rounds until every pair has shared a table at least once."""
    if seats < 2:
        raise ValueError("a table has two or more seats")
    known = _checked_entries(entries)
    if len(known) < seats:
        raise ValueError(f"{len(known)} players cannot fill a table of {seats}")
    ranked = sorted(known, key=lambda p: (-known[p].rating, p))
    if seats == 2:
        return _circle_rounds(ranked)
    return _covering_rounds(ranked, seats)


def _circle_rounds(ranked: Sequence[str]) -> list[Round]:
    """The circle method: the first player stays, the others turn one place a round; with an
    odd number an empty place is added, and whoever meets it has the bye. Which side
    of a table sits first alternates by round."""
    circle: list[str | None] = [*ranked, None] if len(ranked) % 2 else list(ranked)
    half = len(circle) // 2
    rounds = []
    for number in range(len(circle) - 1):
        tables, byes = [], []
        for a, b in zip(circle[:half], reversed(circle[half:]), strict=True):
            if a is None or b is None:
                byes.append(b if a is None else a)
            else:
                tables.append((a, b) if number % 2 == 0 else (b, a))
        rounds.append(Round(tables=tuple(tables), byes=tuple(p for p in byes if p is not None)))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def _covering_rounds(ranked: Sequence[str], seats: int) -> list[Round]:
    """Rounds of three or four seat tables until every pair has shared a table (a covering
    design; the fewest rounds is an open problem for many sizes, so this is greedy).

    Each round: a pair not yet met is picked (the first in rank order); the byes (the
    remainder of the players over ``seats``) go to others, those with the fewest pairs left to
    meet and the fewest byes first; that pair opens the first table, and each table is filled
    by the player who meets the most new players at it (then by rank). Every round covers at
    least that one pair, so the schedule ends; with ``n`` players it has at most
    ``n * (n - 1) / 2`` rounds, and usually close to ``(n - 1) / (seats - 1)``."""
    position = {p: i for i, p in enumerate(ranked)}
    unmet = {frozenset(pair) for pair in itertools.combinations(ranked, 2)}
    had: Counter[str] = Counter()
    rounds = []
    while unmet:
        opening = min(unmet, key=lambda pair: sorted(position[p] for p in pair))
        left_to_meet = Counter(p for pair in unmet for p in pair)
        could_rest = sorted((p for p in ranked if p not in opening),
                            key=lambda p: (left_to_meet[p], had[p], -position[p]))
        byes = could_rest[:len(ranked) % seats]
        had.update(byes)
        left = [p for p in ranked if p not in byes and p not in opening]
        tables = []
        table = sorted(opening, key=position.__getitem__)
        while True:
            while len(table) < seats:
                best = max(left, key=lambda p: (sum(frozenset((p, q)) in unmet for q in table),
                                                -position[p]))
                left.remove(best)
                table.append(best)
            tables.append(tuple(table))
            unmet -= {frozenset(pair) for pair in itertools.combinations(table, 2)}
            if not left:
                break
            table = [left.pop(0)]
        rounds.append(Round(tables=tuple(tables), byes=tuple(sorted(byes, key=position.__getitem__))))
    return rounds


def arena_tables(free: Iterable[Waiting], seats: int) -> list[tuple[str, ...]]:
    """The Arena tables to start now from the players who are free.

    As many full tables as the free players fill; who waits for the next call (the remainder)
    are those who became free last. The others are ranked by arena points, then rating, then
    id, and seated as a Swiss round is (:func:`swiss_round`: matching for two seats, grouping
    for three or four) with "met" meaning an opponent of a player's last game: no immediate
    rematch where the free players allow one to be avoided."""
    if seats < 2:
        raise ValueError("a table has two or more seats")
    waiting: dict[str, Waiting] = {}
    for player in free:
        if player.player in waiting:
            raise ValueError(f"player {player.player} is free twice")
        if not math.isfinite(player.rating):
            raise ValueError(f"player {player.player}'s rating must be a finite number")
        waiting[player.player] = player
    longest_first = sorted(waiting, key=lambda p: (waiting[p].free_since, p))
    seated = longest_first[:len(longest_first) - len(longest_first) % seats]
    ranked = sorted(seated, key=lambda p: (-waiting[p].points, -waiting[p].rating, p))
    recent = {frozenset((p, q)) for p in ranked for q in waiting[p].last_opponents if q != p}
    if seats == 2:
        points = {p: waiting[p].points for p in ranked}
        ratings = {p: waiting[p].rating for p in ranked}
        return _match_pairs(ranked, points, ratings, recent)
    return _group_tables(ranked, seats, recent)


def arena_standings(entries: Iterable[Entry], results: Sequence[Result]) -> list[ArenaStanding]:
    """An Arena's standings from its finished games alone: each game's :func:`place_points`
    (two seats: 2 a win, 1 a draw, 0 a loss, as Lichess's arena without streaks or berserk).
    Ties broken by fewer games (the same points in fewer games is the better rate), then
    rating (higher first); lines equal in all of these share a rank."""
    known = _checked_entries(entries)
    points: defaultdict[str, int] = defaultdict(int)
    games: Counter[str] = Counter()
    for result in results:
        _check_known(result.players, known, "a game")
        for player, gained in zip(result.players, place_points(result.places), strict=True):
            points[player] += gained
            games[player] += 1
    lines = sorted(known, key=lambda p: (-points[p], games[p], -known[p].rating, p))
    ranks = _shared_ranks([(points[p], games[p], known[p].rating) for p in lines])
    return [ArenaStanding(rank=rank, player=p, points=points[p], games=games[p],
                          rating=known[p].rating) for rank, p in zip(ranks, lines, strict=True)]
