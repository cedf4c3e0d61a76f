# cython: language_level=3
"""The package's Python faces (re-exported by ``krazy_core.games.melds``): Kings Rummy's
helpers (``wild_rank`` 3..13, KR-5..KR-7, KR-14) and Crazy Rummy's (CR-2, CR-3, CR-5,
CR-10).  Cards are strings (``"7H"``, ``"QR"`` for the Queen of stars, ``"JK"``) or int codes
of :mod:`krazy_core.cards`; bad input raises ``ValueError``."""

from libc.string cimport memset
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t

from krazy_core.games.melds.rules cimport (kz_meld_rules, kz_arrangement, KZ_MELD_MAX_HAND,
                                           KZ_MELD_MAX_MELDS, KZ_MELD_NONE, KZ_MELD_BOOK,
                                           KZ_MELD_RUN, KZ_WILD_ANY, KZ_MELD_MAX_POS,
                                           kz_rules_kings, kz_rules_crazy, kz_rules_finish,
                                           kz_is_wild, kz_card_points, kz_meld_kind,
                                           _known, _is_book, _is_run)
from krazy_core.games.melds.free cimport (NO_BEST, WSCALE, kz_meld_deadwood, kz_meld_deadwood_below,
                                          kz_meld_all, kz_meld_going_out, kz_meld_contract,
                                          _solve, _wild_shares)
from krazy_core.games.melds.contract cimport (kz_contract_query, KZ_CQ_KINDS, KZ_CQ_JOKER,
                                              KZ_CQ_MAX_FIXED, KZ_CQ_NO_NAT, KZ_CQ_NONE,
                                              kz_contract_feasible)

from krazy_core.games.melds.optimizer import best_laydown
from krazy_core.cards import parse_card, format_card
from krazy_core._validate import c_int as _c_int, index_in as _index_in, flag as _flag

MAX_HAND = KZ_MELD_MAX_HAND
BOOK = KZ_MELD_BOOK
RUN = KZ_MELD_RUN


cdef int _kings_rules(kz_meld_rules *r, wild_rank, wild_points, joker_points) except -1:
    # any integer (numpy.int64(9) too), never a bool
    w = _index_in(wild_rank, 3, 13)
    if w is None:
        raise ValueError(f"wild_rank must be an int in 3..13 (the round's n, KR-3), got {wild_rank!r}")
    wp = _index_in(wild_points, 0, 1000)
    jp = _index_in(joker_points, 0, 1000)
    for name, v, x in (("wild_points", wild_points, wp), ("joker_points", joker_points, jp)):
        if x is None:
            raise ValueError(f"{name} must be an int in 0..1000, got {v!r}")
    kz_rules_kings(r, w, wp, jp)
    return 0


def _card_items(cards, what="hand"):
    """The items of a hand as a caller gives it: a string split at spaces and commas, else the
    collection's items (an iterator read once).  Raises ``ValueError`` for bytes and for what
    is no collection.  Every game's card parser starts here (melds: Kings Rummy, Crazy Rummy;
    ``contract_rummy``'s lay-down helpers)."""
    if isinstance(cards, (bytes, bytearray)):
        raise ValueError(f"{what} must be card texts or codes, got {cards!r}")
    if isinstance(cards, str):
        return cards.replace(",", " ").split()
    try:
        return list(cards)
    except TypeError:
        raise ValueError(f"{what} must be a string of cards or a list of cards, got "
                         f"{type(cards).__name__}") from None


def _parse_kings_cards(cards, what="hand"):
    """Codes of Kings Rummy cards (KR-1: suits S H D C R, ranks 3..K, and JK)."""
    items = _card_items(cards, what)
    codes = []
    for c in items:
        try:
            code = parse_card(c)
        except ValueError:
            code = -1                   # parse_card's examples name other games' cards ('AC')
        if code != 0x50 and (code < 0 or (code >> 4) > 4 or (code & 15) < 3):
            raise ValueError(f"{c!r} is not a Kings Rummy card (try 'QS', '10H', 'TH', '3R' for stars, "
                             f"'JK': suits S H D C R, ranks 3..K; KR-1)")
        codes.append(code)
    if len(codes) > KZ_MELD_MAX_HAND:
        raise ValueError(f"{what} has {len(codes)} cards; the solver takes at most {KZ_MELD_MAX_HAND}")
    return codes


cdef int _load(list codes, uint8_t *buf) except -1:
    cdef int i
    for i in range(len(codes)):
        buf[i] = <uint8_t>codes[i]
    return len(codes)


def _fmt(code):
    code = _c_int(code, "code")
    return format_card(code, True)


def is_book(cards, wild_rank, *, joker_points=50, wild_points=20):
    """Whether ``cards`` together form one book (KR-5, KR-7): 3+ cards of one rank, any
    suits, duplicates allowed, any number of wilds.  ``wild_rank`` 3..13 (KR-3).
    Raises ``ValueError`` for a bad card or wild rank."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, wild_points, joker_points)
    codes = _parse_kings_cards(cards, "cards")
    cdef int n = _load(codes, buf)
    return n > 0 and _is_book(&r, buf, n) == 1


def is_run(cards, wild_rank, *, joker_points=50, wild_points=20):
    """Whether ``cards`` together form one run (KR-6, KR-7): 3+ cards of one suit in
    consecutive ranks 3..K (no wrap), wilds standing for any missing card.
    Raises ``ValueError`` for a bad card or wild rank."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, wild_points, joker_points)
    codes = _parse_kings_cards(cards, "cards")
    cdef int n = _load(codes, buf)
    return n > 0 and _is_run(&r, buf, n) == 1


def is_meld(cards, wild_rank, *, joker_points=50, wild_points=20):
    """Whether ``cards`` together form a book or a run (KR-5..KR-7)."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, wild_points, joker_points)
    codes = _parse_kings_cards(cards, "cards")
    cdef int n = _load(codes, buf)
    return kz_meld_kind(&r, buf, n) != KZ_MELD_NONE


def deadwood_points(hand, wild_rank, *, wild_points=20, joker_points=50):
    """Fewest points the hand can leave over (KR-12, KR-14), an int."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, wild_points, joker_points)
    codes = _parse_kings_cards(hand)
    cdef int n = _load(codes, buf)
    cdef int32_t pts
    with nogil:
        pts = kz_meld_deadwood(&r, buf, n, NULL)
    return int(pts)


cdef tuple _arrangement_lists(const kz_meld_rules *r, list codes, kz_arrangement *a, bint as_codes,
                              bint ascii=True):
    cdef int mi, i
    f = (lambda c: c) if as_codes else ((lambda c: format_card(c, True)) if ascii else format_card)
    melds = []
    for mi in range(a.n_melds):
        members = [(a.pos_of[i], codes[i]) for i in range(len(codes)) if a.meld_of[i] == mi]
        if a.kind[mi] == KZ_MELD_RUN:
            members.sort(key=lambda t: t[0])
        else:
            members.sort(key=lambda t: (t[1] == 0x50 or (t[1] & 15) == r.wild_rank, t[1]))
        melds.append([f(c) for _, c in members])
    left = sorted(codes[i] for i in range(len(codes)) if a.meld_of[i] < 0)
    return melds, [f(c) for c in left], int(a.points)


def best_arrangement(hand, wild_rank, *, wild_points=20, joker_points=50, as_codes=False, ascii=True):
    """The arrangement of ``hand`` into books and runs leaving the fewest points (KR-12).

    Returns ``(melds, leftover, points)``: ``melds`` a list of melds, each a list of cards
    (runs in rank order, a wild at the place it stands for); ``leftover`` the cards left in
    hand, ascending; ``points`` their value (KR-14: face value, J 11, Q 12, K 13, a wild
    ``wild_points``, a Joker ``joker_points``).  Cards are ASCII strings (``"7H"``), suit
    symbols with ``ascii=False`` (``"7♥"``, as ``cards.format_card``), or int codes with
    ``as_codes=True``: the one ``best_arrangement`` shape shared with
    :func:`crazy_best_arrangement` and ``contract_rummy.best_arrangement``: the hand first,
    the game's one positional context (here the wild rank), rule options as keywords,
    ``as_codes`` / ``ascii`` for the card form, ``(melds, leftover, points)`` back.  Raises ``ValueError`` for a bad card, wild rank, or more
    than 32 cards.
    """
    cdef kz_meld_rules r
    cdef kz_arrangement a
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, wild_points, joker_points)
    codes = _parse_kings_cards(hand)
    cdef int n = _load(codes, buf)
    with nogil:
        kz_meld_deadwood(&r, buf, n, &a)
    return _arrangement_lists(&r, codes, &a, as_codes, ascii)


def going_out_discards(hand, wild_rank, *, as_codes=False):
    """The distinct cards the player could discard to go out (KR-10): those ``d`` such that
    the hand without one ``d`` lays down completely in books and runs.  Ascending by code;
    empty when the hand cannot go out.  Raises ``ValueError`` for a bad card or wild rank."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    cdef uint8_t outb[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, 20, 50)
    codes = _parse_kings_cards(hand)
    cdef int n = _load(codes, buf)
    cdef int k
    with nogil:
        k = kz_meld_going_out(&r, buf, n, outb)
    return [outb[i] if as_codes else _fmt(outb[i]) for i in range(k)]


def can_meld_all(hand, wild_rank):
    """Whether every card of ``hand`` lays down in books and runs (KR-10 after the discard)."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, 20, 50)
    codes = _parse_kings_cards(hand)
    cdef int n = _load(codes, buf)
    return kz_meld_all(&r, buf, n) == 1


# --- Crazy Rummy rules (CR-2, CR-3, CR-5, CR-15), for the contract-rummy module and tests

def _parse_crazy_cards(cards):
    items = _card_items(cards)
    codes = []
    for c in items:
        try:
            code = parse_card(c)
        except ValueError:
            code = -1                   # parse_card's examples name other games' cards ('3R')
        if code != 0x50 and (code < 0 or (code >> 4) > 3):
            raise ValueError(f"{c!r} is not a Crazy Rummy card (try 'QS', '10H', 'TH', 'AC', 'JK': "
                             f"suits S H D C, ranks A..K, the Joker; CR-1)")
        codes.append(code)
    if len(codes) > KZ_MELD_MAX_HAND:
        raise ValueError(f"hand has {len(codes)} cards; the solver takes at most {KZ_MELD_MAX_HAND}")
    return codes


def crazy_meld_kind(cards, *, ace_wrap=False):
    """``"book"``, ``"run"`` or ``None``: what ``cards`` form under Crazy Rummy's meld rules
    (CR-2 2s and Jokers wild, a 2 in its natural place natural; CR-3 Ace low or high, wrap
    only with ``ace_wrap``; CR-5 books 3+ with at most 1 wild, runs 4+ with at most 2)."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    kz_rules_crazy(&r, 1 if ace_wrap else 0)
    codes = _parse_crazy_cards(cards)
    cdef int n = _load(codes, buf)
    return {KZ_MELD_BOOK: "book", KZ_MELD_RUN: "run"}.get(kz_meld_kind(&r, buf, n))


def crazy_contract_feasible(hand, books, runs, *, ace_wrap=False, overlapping_runs=False):
    """Whether ``hand`` (Crazy Rummy cards) holds a contract of ``books`` books and ``runs``
    runs laid down under CR-10 (books 3+, runs 4+, same-suit runs that do not join; with
    ``overlapping_runs`` they may overlap but never continue each other): the shared
    solver's ``kz_contract_feasible``, which Crazy Rummy's going-down and lay-down checks
    use.  ``books + runs`` is at most 3 (CR-4).  Raises ``ValueError`` for bad cards or
    counts."""
    cdef kz_meld_rules r
    for name, v in (("books", books), ("runs", runs)):
        if type(v) is not int or not 0 <= v <= KZ_CQ_MAX_FIXED:
            raise ValueError(f"{name} must be an int in 0..{KZ_CQ_MAX_FIXED}, got {v!r}")
    if books + runs > KZ_CQ_MAX_FIXED:
        raise ValueError(f"a contract has at most {KZ_CQ_MAX_FIXED} melds (CR-4), got {books} + {runs}")
    codes = _parse_crazy_cards(hand)
    kz_rules_crazy(&r, 1 if ace_wrap else 0)
    return _feasible(&r, codes, books, runs, overlapping_runs)


cdef bint _feasible(const kz_meld_rules *r, list codes, int books, int runs, bint overlap) except -1:
    """kz_contract_feasible on a fresh contract of ``books`` + ``runs`` melds (at most 3)."""
    cdef kz_contract_query q
    memset(&q, 0, sizeof(q))
    for c in codes:
        k = KZ_CQ_JOKER if c == 0x50 else (c >> 4) * 13 + (c & 15) - 1
        if q.cnt[k] == 255:
            raise ValueError("too many copies of one card")
        q.cnt[k] += 1
    q.overlap = 1 if overlap else 0
    q.nb = books
    q.nr = runs
    q.book_lb = 1
    q.run_lb = -1
    q.pkind = KZ_CQ_NONE
    return kz_contract_feasible(r, &q) == 1


cdef extern from "krazy/clock.h" nogil:
    int64_t kz_monotonic_ns() noexcept      # CLOCK_MONOTONIC (POSIX) or QueryPerformanceCounter


cdef enum:
    BEYOND_CR1_MAX = 22         # contract mode: most cards of a hand beyond CR-1 (the search alone answers)

# CR-4: the contract of each round, (books, runs) -> round
_ROUND_OF = {(2, 0): 1, (1, 1): 2, (0, 2): 3, (3, 0): 4, (2, 1): 5, (1, 2): 6, (0, 3): 7}


def _contract_counts(contract):
    """``(books, runs)`` of a contract, checked: ints, at most 3 melds in all (CR-4)."""
    if not isinstance(contract, (tuple, list)) or len(contract) != 2:
        raise ValueError(f"contract must be None or (books, runs), a tuple or list of 2 ints, got {contract!r}")
    nb, nr = contract
    for name, v in (("books", nb), ("runs", nr)):
        if type(v) is not int or not 0 <= v <= KZ_CQ_MAX_FIXED:
            raise ValueError(f"contract {name} must be an int in 0..{KZ_CQ_MAX_FIXED}, got {v!r}")
    if nb + nr > KZ_CQ_MAX_FIXED:
        raise ValueError(f"a contract has at most {KZ_CQ_MAX_FIXED} melds (CR-4), got {nb} + {nr}")
    return nb, nr


def _beyond_cr1(codes):
    """Whether a hand breaks CR-1: more than 2 of a card or more than 4 Jokers."""
    seen = {}
    for c in codes:
        seen[c] = seen.get(c, 0) + 1
    return any(k > (4 if c == 0x50 else 2) for c, k in seen.items())


cdef tuple _exact_lists(const kz_meld_rules *r, arr, bint as_codes, bint ascii):
    """The optimizer's lay-down (int codes) in ``crazy_best_arrangement``'s form: a run as the
    game lists it (rank order, each wild at its place), a book naturals first (the same
    sort as ``_arrangement_lists``), the leftover ascending by code."""
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    cdef int nm
    wr = r.wild_rank
    f = (lambda c: c) if as_codes else ((lambda c: format_card(c, True)) if ascii else format_card)
    melds_c, left_c, pts = arr
    melds = []
    for m in melds_c:
        m = [int(c) for c in m]
        nm = _load(m, buf)
        if kz_meld_kind(r, buf, nm) == KZ_MELD_BOOK:
            m.sort(key=lambda c: (c == 0x50 or (c & 15) == wr, c))
        melds.append([f(c) for c in m])
    return melds, [f(c) for c in sorted(int(c) for c in left_c)], int(pts)


def crazy_best_arrangement(hand, *, ace_wrap=False, contract=None, as_codes=False, ascii=True):
    """Crazy Rummy rules: ``(melds, leftover, points)`` leaving the fewest points (CR-15
    values), melds free; or with ``contract=(books, runs)`` exactly that many books and runs,
    each as long as wished, laid as CR-10 lays a contract down, ``None`` when the hand holds
    no such melds.

    ``melds``: a list of melds, each a list of cards (a run in rank order with each wild at
    the place it stands for, a book naturals first); ``leftover``: the cards left, ascending
    by code; ``points``: their CR-15 value (an int).  Cards are ASCII strings (``"AS"``,
    ``"10H"``, ``"JK"``), suit symbols with ``ascii=False`` (``"A♠"``, ``"🃏"``, the form
    ``contract_rummy.best_arrangement`` gives by default), or int codes with
    ``as_codes=True`` (the one ``best_arrangement`` shape).  ``hand``: a string of cards
    or a list of strings / codes, at most 32.  Rules: CR-2 (2s and Jokers wild, a 2 in its
    natural place natural), CR-3 (Ace low or high; K-A-2 only with ``ace_wrap``), CR-5
    (books 3+ with at most 1 wild, runs 4+ with at most 2).

    Contract mode (CR-10): two runs of one suit never overlap or join into one sequence
    (``AS 2S 3S 2H`` is not laid next to ``4S..KS``; a wild is placed where it keeps the runs
    apart).  For a round's contract (CR-4) and a hand within CR-1 (at most 2 of a card, 4
    Jokers) the answer is the game's own: the lay-down of
    ``contract_rummy.best_arrangement(hand, round)`` (the contract optimizer,
    ``optimizer.best_laydown``: exact, polynomial from 14 cards, ties broken by the fewest
    cards left, then the least melds), listed in this function's form.  Otherwise (a contract
    that is no round's: ``(0, 0)``, ``(1, 0)``, ``(0, 1)``; a hand beyond CR-1, at most 22
    cards then) the search ``kz_meld_contract`` answers, bounded by the input (the package
    docstring, "Contract lay-downs"; measured times: benches/README.md).  It has no option for
    the house rule ``overlapping_runs`` (:func:`best_arrangement` has).  A contract has at
    most 3 melds (CR-4: ``books`` and ``runs`` ints 0..3).

    Raises ``ValueError`` for a bad card (not S H D C, A..K or JK), more than 32 cards, an
    ``ace_wrap`` that is not True or False, a contract that is not ``(books, runs)`` of at
    most 3 melds, or a contract-mode hand beyond CR-1 of more than 22 cards."""
    cdef kz_meld_rules r
    cdef kz_arrangement a
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    cdef int32_t pts
    cdef int nb = -1, nr = -1
    _flag("ace_wrap", ace_wrap)
    kz_rules_crazy(&r, 1 if ace_wrap else 0)
    codes = _parse_crazy_cards(hand)
    cdef int n = _load(codes, buf)
    if contract is None:
        pts = kz_meld_deadwood(&r, buf, n, &a)
    else:
        nb, nr = _contract_counts(contract)
        beyond = _beyond_cr1(codes)
        if n > BEYOND_CR1_MAX and beyond:
            raise ValueError(
                f"contract mode takes at most {BEYOND_CR1_MAX} cards when the hand holds more than 2 "
                f"of a card or more than 4 Jokers (beyond CR-1 only the search answers, and past "
                f"{BEYOND_CR1_MAX} cards it can take seconds); got {n}: pass a Crazy Rummy hand "
                f"(up to {KZ_MELD_MAX_HAND} cards) or fewer cards")
        rnd = _ROUND_OF.get((nb, nr))
        if rnd is not None and not beyond:
            # the optimizer asks the going-down check itself (None: no such lay-down)
            lay = best_laydown(codes, rnd, bool(ace_wrap), False, True, False)
            return None if lay is None else _exact_lists(&r, lay, as_codes, ascii)
        if not _feasible(&r, codes, nb, nr, False):
            return None             # no such lay-down (the going-down check): the search need not prove it
        with nogil:
            pts = kz_meld_contract(&r, buf, n, nb, nr, &a)
        if pts < 0:
            return None
    return _arrangement_lists(&r, codes, &a, as_codes, ascii)


def _search_contract(hand, contract, ace_wrap=False):
    """Tests: the contract mode's search alone (``kz_meld_contract``, CR-10: two runs of a
    suit apart) on any hand of at most 22 cards, as ``crazy_best_arrangement``'s codes form,
    or None -- the independent answer the contract optimizer is checked against."""
    cdef kz_meld_rules r
    cdef kz_arrangement a
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    cdef int32_t pts
    cdef int nb, nr
    _flag("ace_wrap", ace_wrap)
    kz_rules_crazy(&r, 1 if ace_wrap else 0)
    codes = _parse_crazy_cards(hand)
    if len(codes) > BEYOND_CR1_MAX:
        raise ValueError(f"the search alone takes at most {BEYOND_CR1_MAX} cards, got {len(codes)}")
    cdef int n = _load(codes, buf)
    nb, nr = _contract_counts(contract)
    with nogil:
        pts = kz_meld_contract(&r, buf, n, nb, nr, &a)
    return None if pts < 0 else _arrangement_lists(&r, codes, &a, True, True)




def _time_solver(hands, wild_ranks):
    """Benchmark hook: nanoseconds of each ``kz_meld_deadwood`` call, timed in C around the
    call (no Python overhead), for Kings Rummy hands (lists of codes) and their wild ranks."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    cdef int64_t t0, t1
    cdef int n
    out = []
    for h, w in zip(hands, wild_ranks):
        _kings_rules(&r, w, 20, 50)
        n = _load(_parse_kings_cards(h), buf)
        with nogil:
            t0 = kz_monotonic_ns()
            kz_meld_deadwood(&r, buf, n, NULL)
            t1 = kz_monotonic_ns()
        out.append(t1 - t0)
    return out


def _crazy_is(cards, kind, ace_wrap=False):
    """Test hook: whether ``cards`` are a book (``kind`` 1) or a run (2) by Crazy Rummy rules."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    kz_rules_crazy(&r, 1 if ace_wrap else 0)
    codes = _parse_crazy_cards(cards)
    cdef int n = _load(codes, buf)
    if n == 0:
        return False
    return bool(_is_book(&r, buf, n) if kind == 1 else _is_run(&r, buf, n))


def _wild_share_bound(hand, wild_rank, use_table=True):
    """Test hook (Kings Rummy rules): ``None`` when the wild-share bound does not apply, else
    ``(shares, total, wilds, scale)``: ``shares[i]`` is card i's share of the wilds any
    complete lay-down needs, times ``scale`` (0 for wilds); see ``_wild_shares``.
    ``use_table=False``: the plain window loop instead of the runs-of-3 table."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    cdef int32_t share[KZ_MELD_MAX_HAND]
    cdef int32_t total = 0, top = 0
    cdef int w = 0, i
    _kings_rules(&r, wild_rank, 20, 50)
    codes = _parse_kings_cards(hand)
    cdef int n = _load(codes, buf)
    if not _wild_shares(&r, buf, n, share, &total, &top, &w, -1, 1 if use_table else 0):
        return None
    return [int(share[i]) for i in range(n)], int(total), w, WSCALE


def _can_meld_all_unfiltered(hand, wild_rank):
    """Test hook: ``can_meld_all`` by the exact search alone, without the quick necessary
    tests or the search's wild-share pruning (the oracle the bound is checked against)."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, 20, 50)
    codes = _parse_kings_cards(hand)
    cdef int n = _load(codes, buf)
    if n == 0:
        return True
    return _solve(&r, buf, n, 1, -1, -1, NULL, 0) == 0


def _arrangement_pruned_and_not(hand, wild_rank, wild_points=20, joker_points=50):
    """Test hook: ``(pruned, unpruned)``, each ``(points, meld_of, pos_of, kinds, lengths)``
    of ``kz_meld_deadwood``'s arrangement with and without the search's dead-natural pruning:
    they must be the same (pruning only skips subtrees that cannot beat the best so far)."""
    cdef kz_meld_rules r
    cdef kz_arrangement a
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, wild_points, joker_points)
    codes = _parse_kings_cards(hand)
    cdef int n = _load(codes, buf)
    cdef int pr, i
    out = []
    for pr in (1, 0):
        pts = _solve(&r, buf, n, 0, -1, -1, &a, pr)
        out.append((int(pts), [a.meld_of[i] for i in range(n)], [a.pos_of[i] for i in range(n)],
                    [a.kind[i] for i in range(a.n_melds)], [a.length[i] for i in range(a.n_melds)]))
    return tuple(out)


def _deadwood_below(hand, wild_rank, limit):
    """Test hook: ``kz_meld_deadwood_below`` (Kings Rummy rules, wild 20, Joker 50)."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, 20, 50)
    codes = _parse_kings_cards(hand)
    cdef int n = _load(codes, buf)
    return int(kz_meld_deadwood_below(&r, buf, n, limit))
