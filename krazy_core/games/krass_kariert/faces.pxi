# KrassKariert: the Python faces of the rules core: combinations (KA-6 .. KA-8) for frontends,
# the options a game starts from, simulate_random, and a probe of the move generator for tests.
#
# Included by core.pyx (textually: one C unit with it).

# ------------------------------------------------------------------ public faces (frontends)
def combination_index(str kind, value) -> int:
    """Index 0..56 of the combination ``(kind, value)`` (module table; ``kind`` one of
    ``COMBINATION_TYPES``, ``value`` the number or a straight's top card).  Raises
    ``ValueError`` for a combination that does not exist (e.g. a 3-straight topped by 2)."""
    value = _c_int(value, "value")
    if kind not in COMBINATION_TYPES:
        raise ValueError(f"combination type {kind!r} is not one of {COMBINATION_TYPES}")
    t = COMBINATION_TYPES.index(kind)
    lo = (1, 2, 1, 3, 1)[t]
    if not lo <= value <= 12:
        raise ValueError(f"a {kind} has a value in {lo}..12, got {value!r}")
    return (-1, 10, 22, 32, 44)[t] + value


def combination_of_index(c) -> tuple:
    """``(type, value)`` of combination index ``c`` (0..56).  Raises ``ValueError``."""
    c = _c_int(c, "c")
    if not 0 <= c < KA_NUM_COMBOS:
        raise ValueError(f"combination index {c!r} is outside 0..56")
    return (COMBINATION_TYPES[combo_type(c)], combo_value(c))


def _as_card(x):
    """A KrassKariert card code from a code, a number 1..12, or text ("7", "X")."""
    if isinstance(x, str):
        c = parse_card(x)
    elif isinstance(x, int) and not isinstance(x, bool):
        c = 0x60 | x if 1 <= x <= 12 else x
    else:
        raise ValueError(f"{x!r} is not a KrassKariert card")
    if not (0x61 <= c <= 0x6C or c in (X_CARD, DRAW_CARD, STOP_CARD)):
        raise ValueError(f"{x!r} is not a KrassKariert card (numbers 1..12, X, DRAW, STOP)")
    return c


def window_combinations(cards, bint two_straight=True, above=-1) -> list:
    """Every combination ``(type, value)`` that these 1-3 adjacent cards can be played as
    (KA-5, KA-6, KA-8: each X card may take any value), strongest last; only those that beat
    combination index ``above`` (KA-7).  Cards are codes, numbers 1..12 or text.  Empty for
    a Stop or Draw card among them.  Raises ``ValueError`` for other than 1-3 cards."""
    above = _c_int(above, "above")
    cdef uint8_t buf[3]
    cdef int8_t out[24]
    cdef int k, i
    codes = [_as_card(c) for c in cards]
    if not 1 <= len(codes) <= 3:
        raise ValueError(f"a combination has 1..3 cards, got {len(codes)}")
    for i, c in enumerate(codes):
        buf[i] = c
    k = ka_window_combos(buf, len(codes), two_straight, above, out)
    return [combination_of_index(out[i]) for i in range(max(k, 0))]


def combination(cards, x_values=(), bint two_straight=True):
    """The combination ``(type, value)`` these cards make, or ``None`` (KA-5, KA-6, KA-8).

    ``cards``: 1-3 cards (codes, numbers 1..12 or text like ``"7"``, ``"X"``), in any order
    (``8 10 9`` is a 3-straight of value 10).  ``x_values``: the value 1..12 chosen for each
    X card, in the order the X cards appear.  ``type`` is one of ``COMBINATION_TYPES``;
    ``value`` is the number, or a straight's top card.  Raises ``ValueError`` for a bad
    card, a wrong number of cards or of X values."""
    codes = [_as_card(c) for c in cards]
    if not 1 <= len(codes) <= 3:
        raise ValueError(f"a combination has 1..3 cards, got {len(codes)}")
    xs = list(x_values)
    if sum(1 for c in codes if c == X_CARD) != len(xs):
        raise ValueError(f"give one value per X card: {len(xs)} values for "
                         f"{sum(1 for c in codes if c == X_CARD)} X cards")
    vals = []
    for c in codes:
        if c == X_CARD:
            v = xs.pop(0)
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 12:
                raise ValueError(f"an X card takes a value 1..12, got {v!r}")
            vals.append(0x60 | v)
        else:
            vals.append(c)
    found = window_combinations(vals, two_straight)
    return found[0] if found else None


def beats(new, old) -> bool:
    """Whether combination ``new`` beats ``old`` (KA-7): a higher type, whatever the
    numbers, or the same type and a strictly higher value.  Both are ``(type, value)``
    pairs; ``old=None`` (nothing to beat yet) is beaten by any combination.  Raises
    ``ValueError`` for a malformed combination."""
    if new is None:
        raise ValueError("new must be a combination (type, value)")
    a = combination_index(*new)
    if old is None:
        return True
    return a > combination_index(*old)


# ------------------------------------------------------------------ options, simulate_random, a probe for tests
def chips_for(game) -> int:
    """Chips each player starts with (KA-2): option ``chips``, or 3 (2 with 5 players)."""
    c = game.options.chips
    if c:
        return c
    return 2 if game.num_players == 5 else 3


cdef int ka_set_options(ka_state *s, game) except -1:
    """The game's options (and seat count) into ``s``: KA-2, KA-3, KA-4, KA-6.  Raises
    ``ConfigError`` for a ``dealer`` beyond the table."""
    o = game.options
    if o.dealer >= game.num_players:
        raise ConfigError(f"option 'dealer' must be a seat 0..{game.num_players - 1}, got {o.dealer}")
    s.num_players = game.num_players
    s.two_straight = 1 if o.two_straight else 0
    s.chips_start = chips_for(game)
    s.deal_size = 7 if game.num_players == 5 else 10
    s.dealer = o.dealer
    return 0



def simulate_random(game, n_games, seed=0, str policy="random") -> dict:
    """Plays ``n_games`` whole games of ``game`` (a ``krass-kariert`` Game) with uniformly
    random legal actions, in C without the GIL and through this module's own functions (no
    GameOps indirection); game ``i`` is dealt from ``seed + i``.  Returns ``{"games",
    "decisions", "seconds", "decisions_per_second"}`` like ``krazy_core._state.
    simulate_random``.  ``policy="heuristic"`` plays every seat with the C heuristic instead
    (what ISMCTS rollouts cost).  Raises ``ConfigError`` for another game, ``n_games < 1``
    or an unknown policy; ``KeyboardInterrupt`` on Ctrl-C (between two slices of games, as
    ``krazy_core._state.simulate_random``)."""
    cdef ka_state s
    cdef kz_rng rng
    cdef int32_t acts[KA_NUM_ACTIONS]
    cdef long long decisions = 0, g, g0, g1
    cdef int k
    cdef uint64_t base
    if getattr(game, "game_id", None) != "krass-kariert":
        raise ConfigError(f"simulate_random needs a krass-kariert game, got {game!r}")
    n_games = _c_count(n_games, "n_games")      # ConfigError, never OverflowError
    if policy not in ("random", "heuristic"):
        raise ConfigError(f"policy must be 'random' or 'heuristic', got {policy!r}")
    cdef bint heur = policy == "heuristic"
    memset(&s, 0, sizeof(ka_state))
    ka_set_options(&s, game)
    base = <uint64_t>check_seed(seed)
    kz_rng_seed(&rng, base ^ 0xA5A5A5A5DEADBEEFULL)
    t0 = time.perf_counter()
    for g0, g1 in _games_in_slices(n_games):     # Ctrl-C stops it between two slices
        with nogil:
            for g in range(g0, g1):
                ka_new_game(&s, base + <uint64_t>g, NULL)
                while s.phase != KA_PH_OVER:
                    if heur:
                        ka_apply(&s, ka_heuristic(&s, &rng), NULL)
                    else:
                        k = ka_legal(&s, acts)
                        ka_apply(&s, acts[kz_bounded(&rng, <uint32_t>k)], NULL)
                    decisions += 1
    dt = time.perf_counter() - t0
    return {"games": n_games, "decisions": decisions, "seconds": dt,
            "decisions_per_second": decisions / dt if dt > 0 else float("inf")}


def _probe_actions(hand, best_combo=-1, reserves=0, bint two_straight=True, bint insert=False):
    """For tests: ``(ka_any_action, ka_legal)`` of seat 0 holding ``hand`` (card codes) in a
    bare struct: leading when ``best_combo`` is -1, else following it; ``reserves`` (0..2)
    reserve cards; ``insert``: the insert phase.  Raises ``ValueError`` for a bad hand."""
    cdef ka_state s
    cdef int32_t acts[KA_NUM_ACTIONS]
    cdef int n, i
    best_combo, reserves = _c_int(best_combo, "best_combo"), _c_int(reserves, "reserves")
    if len(hand) > KA_MAX_HAND or not -1 <= best_combo < KA_NUM_COMBOS or not 0 <= reserves <= 2:
        raise ValueError("hand of at most 18 cards, best_combo -1..56, reserves 0..2")
    memset(&s, 0, sizeof(ka_state))
    memset(s.reserve, NO_CARD, sizeof(s.reserve))
    s.num_players = 3
    s.two_straight = two_straight
    s.phase = KA_PH_INSERT if insert else KA_PH_PLAY
    s.leader = 0 if best_combo < 0 else 1
    s.best_player = -1 if best_combo < 0 else 1
    s.best_combo = best_combo
    s.hand_n[0] = len(hand)
    for i, c in enumerate(hand):
        s.hand[0][i] = _as_card(c)
    for i in range(reserves):
        s.reserve[0][i] = 0x61
    n = ka_legal(&s, acts)
    return bool(ka_any_action(&s)), [acts[i] for i in range(n)]
