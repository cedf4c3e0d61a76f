"""Scripted Crazy Rummy states: build a JSON body with chosen hands, up-card, stock top and
melds; the rest of the deck goes to the stock, so the deck is conserved (CR-1)."""
import json
from collections import Counter

import krazy_core
from krazy_core.cards import parse_card

DECK = [(s << 4) | r for s in range(4) for r in range(1, 14)] * 2


def cards(text):
    return [parse_card(c) for c in text.split()] if text else []


def scripted(n=4, rnd=1, hands=None, up="", stock_top="", discard_below="", melds=None,
             phase="first_up_card", cur=0, turn_player=None, up_live=True, discarder=-1,
             turns=0, down=(), buys=None, building=(0, False, 0), **opts):
    """A state of round ``rnd`` (the game's only round unless ``rounds`` is given) dealt by
    seat 0.  ``hands``: {seat: "7H 7S ..."}; seats not given get the first cards left in
    the deck.  ``stock_top``: cards drawn next, in order.  ``melds``: {meld id: (kind,
    rank or suit, lo, "cards")}."""
    opts.setdefault("first_round", rnd)
    opts.setdefault("rounds", 8 - opts["first_round"])
    game = krazy_core.make("contract-rummy", num_players=n, **opts)
    left = Counter(DECK + [0x50] * game.options.jokers)
    body_hands = [None] * n
    hands = dict(hands or {})

    def take(cs):
        for c in cs:
            if left[c] <= 0:
                raise ValueError(f"card {c:#x} used too often")
            left[c] -= 1
        return cs

    for p, text in hands.items():
        body_hands[p] = take(cards(text))
    md = [None] * (3 * n)
    for m, (kind, a, lo, text) in (melds or {}).items():
        cs = take(cards(text))
        md[m] = {"kind": kind, "rank": a if kind == "book" else None,
                 "suit": a if kind == "run" else None, "lo": lo if kind == "run" else None, "cards": cs}
    discard = take(cards(discard_below)) + take(cards(up))
    top = take(cards(stock_top))
    rest = sorted(left.elements())
    for p in range(n):
        if body_hands[p] is None:
            body_hands[p] = rest[:rnd + 6]
            rest = rest[rnd + 6:]
    stock = rest + list(reversed(top))
    body = {
        "rng": [1, 2, 3, 4], "round": rnd, "dealer": (rnd - game.options.first_round) % n,
        "phase": phase, "current_player": cur,
        "turn_player": cur if turn_player is None else turn_player, "up_live": up_live,
        "discarder": discarder, "turns": turns, "total_turns": turns, "limit_rounds": 0,
        "building": list(building), "hands": [sorted(h) for h in body_hands],
        "known": [[] for _ in range(n)], "stock": stock, "discard": discard, "melds": md,
        "down": [p in down for p in range(n)], "buys": list(buys or [0] * n),
        "scores": [[0] * n for _ in range(7)],
        "round_results": [-1 if game.options.first_round <= r + 1 < rnd else -2 for r in range(7)],
    }
    doc = {"format": 1, "game": "contract-rummy", "num_players": n,
           "options": game.options_dict(), "state": body, "events": []}
    return game.state_from_json(json.dumps(doc))


def act(state, *texts):
    """Apply actions named by their text (``action_to_string``)."""
    for t in texts:
        state.apply_action(state.string_to_action(norm(t)))
    return state


def texts(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def norm(text):
    """``"lay off 7H on meld 4 high"`` -> the engine's text (cards formatted)."""
    from krazy_core.cards import format_card
    out = []
    for tok in text.split():
        try:
            if tok[0].isdigit() and not any(ch.isalpha() for ch in tok):
                raise ValueError
            out.append(format_card(parse_card(tok)))
        except (ValueError, KeyError, IndexError):
            out.append(tok)
    return " ".join(out)


RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def crowded_hand(rng, lo, hi, nsuits=(1, 1, 2, 2, 3, 4)):
    """A random hand of ``lo..hi`` cards (ASCII) from 1-4 suits with many wilds, at most 2 of
    a card and 4 Jokers (CR-1): the hard case of the lay-down searches."""
    suits = rng.sample("SHDC", rng.choice(nsuits))
    pool = [f"{r}{s}" for s in suits for r in RANKS] * 2 + ["JK"] * 4 + [f"2{s}" for s in "SHDC"] * 2
    hand, cnt = [], {}
    for c in rng.sample(pool, rng.randint(lo, hi)):
        if cnt.get(c, 0) < (4 if c == "JK" else 2):
            cnt[c] = cnt.get(c, 0) + 1
            hand.append(c)
    return hand


def _exhaustive_best(hand, rnd, wrap, ov):
    """The best lay-down by listing every one (no limit): most points laid, then most
    cards, then the least (sorted melds, leftover) -- best_arrangement's documented order."""
    lays = _crs()._all_laydowns(hand, rnd, wrap, ov)
    if not lays:
        return None
    def score(x):
        return (-sum(cr_points(c) for c in x[1]), -len(x[1]))
    top = max(score(x) for x in lays)
    lay, left = min(x for x in lays if score(x) == top)
    return ([list(m[3]) for m in lay], list(left), sum(cr_points(c) for c in left))


def _crs():
    from krazy_core.games.contract_rummy import state
    return state


def cr_points(code):
    """CR-15 points of a card code (suit << 4 | rank; Joker 0x50)."""
    return 20 if code >> 4 == 5 else {1: 15, 2: 20, 9: 10, 10: 10, 11: 10, 12: 10, 13: 10}.get(code & 15, 5)


A_ADD, A_RUN, A_FINISH = 58, 111, 163          # core.pxd: the lay-down steps


def _replay(hand, rnd, wrap, ov, got):
    """The engine lays ``got``'s melds (codes) step by step from ``hand``: books by rank,
    then runs in order (start, each card, finish), every step one of its legal actions;
    then it is down with ``got``'s leftover (or out, CR-13).  A run's first position: from
    its first natural other than a 2 (an Ace first is low, later high; with ace_wrap a
    first position below A goes round the corner, CR-3)."""
    from krazy_core.games import contract_rummy as cr
    s = _crs()._laydown_state(hand, rnd, wrap, ov)
    nb = cr.CONTRACTS[rnd][0]
    melds = sorted(got[0][:nb], key=lambda m: next(c & 15 for c in m if c >> 4 != 5)) + got[0][nb:]
    for i, m in enumerate(melds):
        acts = []
        if i >= nb:
            j, c = next((j, c) for j, c in enumerate(m) if c >> 4 != 5 and c & 15 != 2)
            lo = (1 if j == 0 else 14 - j) if c & 15 == 1 else (c & 15) - j
            if lo < 1:
                lo += 13
            acts.append(A_RUN + (c >> 4) * 13 + lo - 1)
        acts += [A_ADD + (52 if c >> 4 == 5 else (c >> 4) * 13 + (c & 15) - 1) for c in m] + [A_FINISH]
        for a in acts:
            assert a in s.legal_actions(), (hand, rnd, got, s.action_to_string(a))
            s.apply_action(a)
    la = s.legal_actions()
    if not got[1]:
        assert la == []                         # out by laying down (CR-13)
    else:
        assert la and not [a for a in la if A_ADD <= a <= A_FINISH]
    assert sorted(sum(got[0], []) + got[1]) == sorted(parse_card(c) for c in hand)
    assert got[2] == sum(cr_points(c) for c in got[1])


# benches/meld_worst_cases.py's 41-card hands (three suits, a Joker and 2C: "three"; two suits
# twice and 4 wilds: "twice"), (hand, round) -> "meld | meld // leftover points": the best lay-down
# with overlapping_runs, the same with ace_wrap too (the branch and bound gave the same without
# ace_wrap, 6..41 s each, benches/README.md; the overlap-with-wrap DP gives these)
OVERLAP_WORST = {
            # gave the same (6..41 s each: checked once, benches/README.md)
    ("three", 3): "AS 2S 3S 4S 5S 6S 7S 2H 9S 10S JS QS KS | AD 2D 3D 4D 5D 6D 2C JK 9D 10D JD QD KD"
                  " // 8S AH 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 7D 8D 110",
    ("three", 7): "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS | AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
                  " | AD 2D 3D 4D 5D 6D 2C JK 9D 10D JD QD KD // 7D 8D 10",
    ("three", 6): "AS AH AD 2S | 2H 2D 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS | 2C JK 3H 4H 5H 6H 7H 8H 9H 10H"
                  " JH QH KH // 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD 80",
    ("twice", 3): "AS 2S 2S 4S 5S 6S 7S 2D 9S 10S JS QS KS | AH 2H 3H 4H 5H 6H 2C JK 9H 10H JH QH KH"
                  " // AS 3S 3S 4S 5S 6S 7S 8S 8S 9S 10S JS 7H 8H JK 115",
    ("twice", 7): "AS 2S 2S 4S 5S 6S 7S 8S 9S 10S JS QS 2H | AS 2D 3S 4S 5S 6S 7S 8S 9S 10S JS 2C KS"
                  " | AH JK 3H 4H 5H 6H 7H JK 9H 10H JH QH KH // 3S 8H 10",
    ("twice", 6): "AS AS AH 2S | 2D 2S 3S 4S 5S 6S 7S 2C 9S 10S JS QS KS | JK 2H 3H 4H 5H 6H 7H JK 9H 10H"
                  " JH QH KH // 3S 4S 5S 6S 7S 8S 8S 9S 10S JS 8H 70",
}
