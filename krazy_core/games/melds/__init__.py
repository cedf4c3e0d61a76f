"""Every meld question of the rummy games, answered once: which cards are wild, what a set
of cards is (a book, a run, no meld), the best free arrangement of a hand, whether a
contract can still be laid down, and the best contract lay-down.

Layout (``krazy_core/games/melds/``; this package imports no game, the games import it):

* ``rules.pxd`` / ``rules.pyx`` -- :c:type:`kz_meld_rules` (minimum lengths, wild caps, rank
  range, Ace high or wrap-around, the wild rank and whether it can be natural, points: one
  small plain struct), its two fillings ``kz_rules_kings`` (KR-5..KR-7, KR-14) and
  ``kz_rules_crazy`` (CR-2, CR-3, CR-5, CR-15), and the kind checks (``kz_meld_kind``).
* ``free.pxd`` / ``free.pyx`` (+ ``materialize.pxi``, ``shares.pxi``) -- the free solver,
  Kings Rummy's engine: ``kz_meld_deadwood``, ``kz_meld_deadwood_below``, ``kz_meld_all``,
  ``kz_meld_going_out``, and ``kz_meld_contract`` (exactly ``books`` + ``runs`` melds).
* ``contract.pxd`` / ``contract.pyx`` -- contract feasibility, Crazy Rummy's engine
  (``kz_contract_feasible``: is a contract laid down in steps still completable?).
* ``laydown.pxd`` / ``laydown.pyx`` -- the CR-10 lay-down rules, once: the steps of laying a
  contract down meld by meld and which of them keep it completable (Crazy Rummy's core
  cimports them, for a seat of its state; the optimizer, for a hand's counts).
* ``runs.pyx``, ``runs_ovw.pyx``, ``optimizer.pyx`` -- the one exact optimizer for contract
  lay-downs (``optimizer.best_laydown``): the runs DPs, the books DP, the mixed search.
* ``faces.pyx`` -- the Python faces re-exported here.
* this module -- :class:`MeldRules`, :class:`Arrangement` and :func:`best_arrangement`, the
  one public question; each game gives its rules with ``meld_rules(options, ...)``.

Use from another Cython module::

    from krazy_core.games.melds.rules cimport kz_meld_rules, kz_arrangement, kz_rules_crazy
    from krazy_core.games.melds.free cimport kz_meld_contract, kz_meld_deadwood
    from krazy_core.games.melds.contract cimport kz_contract_query, kz_contract_feasible

The free solver (KR-10, KR-12)
------------------------------
Given a hand -- a multiset, the same card may be held twice -- and which cards are wild,
which arrangement into books and runs leaves the fewest points, and can every card but one
be laid down (going out)?  The answer is exact, not greedy: at wild rank 7 the hand
``3H 4H 5H 6H 6S 6C 9D`` leaves 9 points (``3H 4H 5H`` + ``6H 6S 6C``), not the 21 a greedy
"longest run first" split would leave.

Method (C, no GIL, no allocation): wilds are a pooled count; natural cards sit in a
suit x rank count table.  A depth-first branch and bound takes the first natural card ``c``
(suit-major, rank ascending) and decides its fate: left over (deadwood), in a run in which
it is the lowest natural card, or in a book of its rank with any of the other naturals of
that rank.  A meld of ``2m`` or more cards splits into two melds of at least ``m`` (with no
more wilds in either part), so in the free arrangement a run spans at most ``2m-1``
positions and a book holds at most ``2m-1`` naturals -- which keeps the search small.  A
meld is given only the wilds it needs; any wilds left at the end join melds that still have
room under the rules' wild caps (or, when wilds are unlimited, form an all-wild book), and
the wilds that stay in hand are the cheapest ones.  The wild-share bound (``shares.pxi``)
prunes hands whose naturals need more wilds than the hand holds.

Contract lay-downs (CR-10)
--------------------------
``kz_meld_contract`` lays exactly ``books`` books and ``runs`` runs, each as long as wished,
leaving the fewest points; two runs of one suit never overlap or join into one sequence: at
each complete lay-down holding two runs of one suit the search tries at most 18^3
placements of their spans (3 lengths x 3 starts, x 2 laps with Ace wrap, a run), runs whose
naturals already touch pruned.  It is not proven polynomial, so in Crazy Rummy's contract
mode (:func:`crazy_best_arrangement`) it answers only what the contract optimizer below does
not: a contract that is no round's (at most one meld) and a hand beyond CR-1 (at most 22
cards then); a hand that holds no such lay-down is answered by ``kz_contract_feasible``
first (at most (52 x 16)^3 steps).  A round's contract on a hand within CR-1 is the
optimizer's, the game's own lay-down.

The contract optimizer (``laydown``, ``runs``, ``runs_ovw``, ``optimizer``)
----------------------------------------------------------------------------
It searches and walks the CR-10 lay-down sequence of one hand (``laydown.pxd``: books
first, by rank, then runs by (suit, first position), one card or one start a step, each
step kept completable by ``kz_contract_feasible``) and takes, of the lay-downs laying the
most points then the most cards, the least (sorted melds, leftover).  The runs DP is one
dispatch, ``runs._runs_rest``, on ``ace_wrap`` and ``overlapping_runs`` over one-suit DPs
(``_suit_runs``; ``_suit_runs_wrap`` over ``_win_runs`` windows; ``_suit_runs_ov``;
``runs_ovw._suit_runs_ovw``), suits joined by the pool wilds each uses.  (The four one-suit
DPs were moved intact, not merged into one: each keeps its own state space, and merging them
bit for bit and within 3 % of their speed was not done.)

The exact lay-down of a round's contract (``optimizer.best_laydown``, which
``contract_rummy.best_arrangement`` answers with).  Cost (the answer is exact; n = cards in
hand, 41 at most in a real game without buys):

* Books only (rounds 1 and 4, any option), n >= 14: no search.  A DP over the ranks
  (every natural of a book's rank lies in its books; books of 2s take the 2s, only
  Jokers as their wild, CR-2, CR-5) gives the best (points, cards) in O(12 x 4 x 4 x 13
  x 4) steps; the least key is then found book by book, the least candidate book some
  best lay-down holds: at most books x 13 x 3^4 x 6 candidates, one DP each.
* Only runs left in a contract of 2 or 3 runs (rounds 3 and 7 from the start, round 6
  after its book), no overlapping_runs, n >= 14: no search.  A DP over each suit's 14
  positions (CR-3 Ace low or high, never both; CR-5 at most 2 wilds a run, a 2 in its
  place natural; CR-10 runs in (suit, first position) order that do not join), suits
  joined by the wilds each uses: O(4 x 14 x 4 x 13 x 5 x 3 x 4) steps.  With ace_wrap
  a suit's first run fixes a window of 13 positions that all its runs lie in (no run
  covers a rank twice; the others end a rank before the first, round the corner):
  O(4 x 13 windows x 13 x 4 x 13 x 5 x 3 x 2) steps.  The least lay-down reaching the
  best is walked one step at a time (at most 41 steps x 50 actions, each one DP).
* Books and runs (rounds 2, 5, 6), no overlapping_runs, n >= 14: no search.  In a best
  lay-down every natural of a book's rank lies in a book or a run, and the runs hold at
  most one card of each (suit, rank) (CR-10; not the 2s, also wilds, nor without
  ace_wrap the Aces, low in one run and high in another), so a book of rank 3..K has
  at most 2^4 choices of its naturals and 6 of its wild (CR-2, CR-5), a book of 2s
  3^4 x 2, of Aces 3^4 x 6: B <= 11 x 16 x 6 + 162 + 486 = 1,704 single books, at
  most B^2 / 2 pairs (round 5; the pairs of one rank listed apart), each followed by
  the runs DP above: O(B^2 x 4 x 14 x 4 x 13 x 5 x 3 x 4) steps at worst (with
  ace_wrap its bound).  The sets are taken best first by the books' value and cut once
  that plus the runs DP of the whole hand (fewer cards lay no more) is below the best,
  so few are tried.  The least key: the least sorted books of the best, then the runs
  walk above.
* overlapping_runs without ace_wrap, n >= 14 (CR-10 option: runs of one suit may
  overlap but never continue one another): rounds 3 and 7, and round 6 after its book,
  by a DP over each suit's 14 positions whose state is the multiset of the suit's open
  runs (at most 3, each: cards 0..4+, wilds 0..2, begun at the low Ace), the runs begun,
  the pool wilds and the low Aces used; at a position each open run stops (4+ cards) or
  takes a natural or a wild, fresh runs begin where no run stopped just before: at most
  14 x 5,456 x 4 x 13 x 3 states x 27 x 10 moves a suit (the states reached are far
  fewer).  Round 6 tries every book (no lemma: two runs may share a rank; at most 13 x
  3^4 x 6 = 6,318), best first with the cut above, each followed by that DP.  Rounds 2
  and 5 hold one run, where the option changes nothing: the mixed DP above (ace_wrap
  too).
* overlapping_runs with ace_wrap, n >= 14 (CR-3 option: runs go round K-A-2, an arc of
  4..13 ranks, each rank once): rounds 3, 7 and round 6 as above, by a DP over each
  suit's 13 ranks as a cycle cut between K and A and swept A..K once (each rank's
  naturals once).  Its state is the multiset (at most 3) of the suit's run pieces: a
  run inside A..K (its first rank, wilds 0..2), a wrapping run's tail (begun at A), the
  tail's record once it ends (its last rank, wilds) and the head that binds a record
  later (open through K; cards 0..4+, wilds), with the runs counted, the pool wilds and
  one bit for the join across K-A.  Two runs join (apart and touching, CR-10,
  ``kz_runs_join``) only where one stops and the next begins, and each such place is
  checked where the sweep meets it: inside A..K always joined; a run stopping just
  before a head unless the head's tail reached the run's first rank; a run beginning
  just after a tail unless it is open when the head begins; a run from A against one
  open through K begun after it stopped.  A first rank or a record's last rank is kept
  only as far as those checks (and the runs laid before) tell it apart.  Bound: 13
  positions x at most C(231, 3) = 2,027,795 item multisets x 5 x 2 x 13 states (a
  constant, whatever n) x at most 27 moves of the pieces x 8 of the run being laid x
  945 of the runs beginning (35 fresh starts x 3^3 records bound);
  reached: at most 282,000 states over the 4 suits' 52 layers on the worst hand below.
  A suit with no run laid yet keeps its answer in a cache (the walk asks it again at
  every step).
* Everything else is a branch and bound over the CR-10 lay-down sequence, not proven
  polynomial: hands under 14 cards (bounded by the lay-downs of 13 cards; the search is
  faster there, and the tests check both against the exhaustive enumeration).  It is
  bounded by the shared solver (``melds.pxd`` ``kz_meld_contract``) for 17..24 cards,
  except with overlapping_runs, where that solver (it keeps two runs of one suit apart)
  is no bound.

``kz_contract_feasible`` lays the contract's melds in their fixed order from the counts,
exactly: the partly built meld first, then the fresh runs by their first four positions'
natural/wild choice (with ``overlapping_runs`` a run may also grow), then the fresh books by
counts; wilds are promised lazily.  At most 52 windows x 16 choices per fresh run and 13 x
2 per fresh book: (52 x 16)^3 steps for a contract of 3 runs, whatever the hand size.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, NamedTuple, Optional, Tuple, Union, overload

from krazy_core._validate import flag, index_in
from krazy_core.games.melds import faces, optimizer
from krazy_core.games.melds.faces import (  # noqa: F401
    MAX_HAND, BOOK, RUN, is_book, is_run, is_meld, deadwood_points,
    going_out_discards, can_meld_all, crazy_meld_kind, crazy_best_arrangement,
    crazy_contract_feasible, _card_items, _fmt, _parse_kings_cards, _parse_crazy_cards,
    _time_solver, _crazy_is, _wild_share_bound, _can_meld_all_unfiltered,
    _arrangement_pruned_and_not, _deadwood_below)

__all__ = ["MeldRules", "Arrangement", "best_arrangement", "kings_rules", "crazy_rules",
           "MAX_HAND", "BOOK", "RUN", "is_book", "is_run", "is_meld", "deadwood_points",
           "going_out_discards", "can_meld_all", "crazy_meld_kind", "crazy_best_arrangement",
           "crazy_contract_feasible"]


@dataclass(frozen=True)
class MeldRules:
    """One game's meld rules, as :func:`best_arrangement` takes them.

    ``game``: ``"kings"`` (Kings Rummy, KR-5..KR-7, KR-14: runs and books of 3+, any number
    of wilds, ``wild_rank`` 3..13 the round's wild rank, ``wild_points`` / ``joker_points``
    what a wild / Joker left in hand costs) or ``"crazy"`` (Crazy Rummy, CR-2, CR-3, CR-5,
    CR-15: books 3+ with at most 1 wild, runs 4+ with at most 2, 2s and Jokers wild;
    ``ace_wrap`` CR-3's K-A-2 runs, ``overlapping_runs`` CR-10's house rule).  Build one with
    :func:`kings_rules` / :func:`crazy_rules` or a game's ``meld_rules(options)``.  Raises
    ``ValueError`` for a value out of those ranges (points ints 0..1000; the options True or
    False; Crazy Rummy's wild rank is 2)."""

    game: str
    wild_rank: int = 2
    wild_points: int = 20
    joker_points: int = 50
    ace_wrap: bool = False
    overlapping_runs: bool = False

    def __post_init__(self) -> None:
        if self.game not in ("kings", "crazy"):
            raise ValueError(f"game must be 'kings' or 'crazy', got {self.game!r}")
        lo = 3 if self.game == "kings" else 2
        hi = 13 if self.game == "kings" else 2
        for name, low, high in (("wild_rank", lo, hi), ("wild_points", 0, 1000), ("joker_points", 0, 1000)):
            v = getattr(self, name)
            if index_in(v, low, high) is None:          # any integer (numpy's too), never a bool
                raise ValueError(f"{name} must be an int in {low}..{high} ({self.game} rules), got {v!r}")
        for name in ("ace_wrap", "overlapping_runs"):
            flag(name, getattr(self, name))
        if self.game == "kings" and (self.ace_wrap or self.overlapping_runs):
            raise ValueError("ace_wrap and overlapping_runs are Crazy Rummy's options (CR-3, CR-10), "
                             "not Kings Rummy's")


def kings_rules(wild_rank: int, *, wild_points: int = 20, joker_points: int = 50) -> MeldRules:
    """Kings Rummy's meld rules for a round whose wild rank is ``wild_rank`` (3..13, KR-3)."""
    return MeldRules("kings", wild_rank, wild_points, joker_points)


def crazy_rules(*, ace_wrap: bool = False, overlapping_runs: bool = False) -> MeldRules:
    """Crazy Rummy's meld rules (CR-2, CR-3, CR-5, CR-15), with the CR-3 / CR-10 options."""
    return MeldRules("crazy", 2, 20, 20, ace_wrap, overlapping_runs)


class Arrangement(NamedTuple):
    """A hand laid down: ``melds`` (a list of melds, each a list of cards: a run in rank
    order with each wild at the place it stands for, a book naturals first), ``deadwood``
    (the cards left, ascending by code) and ``points`` (their value under the rules: KR-14
    or CR-15).  Cards are ASCII strings, suit symbols (``ascii=False``) or int codes
    (``as_codes=True``).  A tuple, so ``melds, left, points = best_arrangement(...)``."""

    melds: List[List[Union[int, str]]]
    deadwood: List[Union[int, str]]
    points: int


@overload
def best_arrangement(hand: Any, rules: MeldRules, contract: None = None, *,
                     as_codes: bool = False, ascii: bool = True) -> Arrangement: ...
@overload
def best_arrangement(hand: Any, rules: MeldRules, contract: Tuple[int, int], *,
                     as_codes: bool = False, ascii: bool = True) -> Optional[Arrangement]: ...


def best_arrangement(hand: Any, rules: MeldRules, contract: Optional[Tuple[int, int]] = None, *,
                     as_codes: bool = False, ascii: bool = True) -> Optional[Arrangement]:
    """The arrangement of ``hand`` into melds that leaves the fewest points under ``rules``
    (a :class:`MeldRules`), as an :class:`Arrangement`; with ``contract=(books, runs)``
    (Crazy Rummy's rules only, CR-10: exactly that many books and runs, each as long as
    wished, two runs of one suit never overlapping or joining) the best such lay-down, or
    ``None`` when the hand holds none.

    Kings Rummy (KR-10, KR-12): exact.  Crazy Rummy: the answer of
    :func:`crazy_best_arrangement` (its docstring gives the bounds); with
    ``overlapping_runs`` and a contract (a round's, CR-4, on a hand within CR-1) the contract
    optimizer's, as ``contract_rummy.best_arrangement(hand, round, overlapping_runs=True)``.
    Whatever was imported before, the answer is the same.  ``hand``: a string of cards or a
    list of strings / int codes, at most 32 (``MAX_HAND``).  Raises ``ValueError`` for a bad
    card, a bad rule value, a contract with Kings Rummy's rules, and with
    ``overlapping_runs`` a contract that is no round's or a hand beyond CR-1."""
    if not isinstance(rules, MeldRules):
        raise ValueError(f"rules must be a MeldRules (melds.kings_rules(...), melds.crazy_rules(...) "
                         f"or a game's meld_rules(options)), got {rules!r}")
    r: Optional[Tuple[Any, Any, int]]
    if rules.game == "kings":
        if contract is not None:
            raise ValueError(f"Kings Rummy has no contracts (KR-10): contract must be None, got {contract!r}")
        r = faces.best_arrangement(hand, rules.wild_rank, wild_points=rules.wild_points,
                                   joker_points=rules.joker_points, as_codes=as_codes, ascii=ascii)
    elif rules.game == "crazy":
        if contract is not None and rules.overlapping_runs:
            r = _overlapping_laydown(hand, rules, contract, as_codes, ascii)
        else:
            r = crazy_best_arrangement(hand, ace_wrap=rules.ace_wrap, contract=contract,
                                       as_codes=as_codes, ascii=ascii)
    else:
        raise ValueError(f"rules.game must be 'kings' or 'crazy', got {rules.game!r}")
    return None if r is None else Arrangement(r[0], r[1], r[2])


def _overlapping_laydown(hand: Any, rules: MeldRules, contract: Tuple[int, int], as_codes: bool,
                         ascii: bool) -> Optional[Tuple[Any, Any, int]]:
    """A contract with ``overlapping_runs`` (CR-10 option): the contract optimizer's lay-down."""
    nb, nr = faces._contract_counts(contract)
    rnd = faces._ROUND_OF.get((nb, nr))
    if rnd is None:
        raise ValueError(f"with overlapping_runs a contract is a round's (CR-4: "
                         f"{sorted(faces._ROUND_OF)}), got {contract!r}")
    codes = _parse_crazy_cards(hand)
    if faces._beyond_cr1(codes):
        raise ValueError("with overlapping_runs a hand holds at most 2 of each card and 4 Jokers (CR-1)")
    return optimizer.best_laydown(codes, rnd, bool(rules.ace_wrap), True, as_codes, ascii)
