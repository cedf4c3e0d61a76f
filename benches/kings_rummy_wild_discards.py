"""Kings Rummy heuristic: keeping wilds (issue 16 item 7), old policy vs new, seeded games.

The new C heuristic never discards a wild (a Joker or the round's wild rank) outside last
turns while it holds a card that is not wild.  This bench plays ``--games`` seeded 4-player
games with two seats on each policy (seats alternate by seed) and prints the new policy's
share of the wins.  Both policies are played in one process: the old one is emulated in
Python on top of the built engine (``--old-emulated``: the C heuristic, but when it discards a
non-wild while a wild would leave fewer points, discard that wild: the old key) or the new one
is emulated on an old build (``--new-emulated``).

    python benches/kings_rummy_wild_discards.py --games 400 --new-emulated   # on the old build
    python benches/kings_rummy_wild_discards.py --games 400 --old-emulated   # on the new build
"""
import argparse

import krazy_core
from krazy_core.games import melds


def code_of(kind):
    return 0x50 if kind == 55 else (kind // 11) << 4 | (kind % 11 + 3)


def is_wild(c, w):
    return c == 0x50 or (c & 15) == w


def pts(hand, w, opts):
    return melds.deadwood_points(hand, w, wild_points=opts.wild_points, joker_points=opts.joker_points)


def _choose(state, prefer_wild_ok):
    """The heuristic's discard re-chosen: fewest points left, ties the dearer card; wilds
    allowed when ``prefer_wild_ok`` (old key: wild only penalised 500 < one point)."""
    obs = state.observation(state.current_player())
    w, hand = obs["wild_rank"], obs["hand"]
    opts = state.game.options
    best, best_key = None, None
    for a in state.legal_actions():
        if not 2 <= a < 58:
            continue
        c = code_of(a - 2)
        if not prefer_wild_ok and is_wild(c, w) and any(not is_wild(x, w) for x in hand):
            continue
        rest = list(hand)
        rest.remove(c)
        wild = is_wild(c, w)
        key = (-pts(rest, w, opts), 0 if wild else pts([c], w, opts), -wild)
        if best_key is None or key > best_key:
            best, best_key = a, key
    return best


def policy(state, seed, emulate):
    a = state.heuristic_action(seed)
    obs = state.observation(state.current_player())
    if obs["phase"] != "discard" or obs["went_out"] is not None or not 2 <= a < 58:
        return a
    w = obs["wild_rank"]
    if emulate == "new" and is_wild(code_of(a - 2), w) and any(not is_wild(x, w) for x in obs["hand"]):
        return _choose(state, prefer_wild_ok=False)
    if emulate == "old":
        b = _choose(state, prefer_wild_ok=True)
        if b is not None and is_wild(code_of(b - 2), w):
            return b
    return a


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=400)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--new-emulated", action="store_true")
    g.add_argument("--old-emulated", action="store_true")
    args = ap.parse_args()
    game = krazy_core.make("kings-rummy", num_players=4)
    new_wins = 0.0
    wild_discards = {"new": 0, "old": 0}
    for seed in range(args.games):
        new_seats = {0, 2} if seed % 2 == 0 else {1, 3}
        st = game.new_initial_state(seed=seed)
        step = 0
        while not st.is_terminal():
            p = st.current_player()
            mine = "new" if p in new_seats else "old"
            s = seed * 1000003 + step
            if args.new_emulated:
                a = policy(st, s, "new") if mine == "new" else st.heuristic_action(s)
            else:
                a = st.heuristic_action(s) if mine == "new" else policy(st, s, "old")
            obs = st.observation(p)
            if obs["phase"] == "discard" and obs["went_out"] is None and 2 <= a < 58 \
                    and is_wild(code_of(a - 2), obs["wild_rank"]):
                wild_discards[mine] += 1
            st.apply_action(a)
            step += 1
        ret = st.returns()
        top = max(ret)
        winners = [p for p in range(4) if ret[p] == top]
        new_wins += sum(1 for p in winners if p in new_seats) / len(winners)
    n = args.games
    print(f"{n} games, 4 players, 2 seats each: new heuristic wins {new_wins:.1f} ({new_wins / n:.1%}; "
          f"no difference = 50%); wild discards outside last turns: new {wild_discards['new']}, "
          f"old {wild_discards['old']}")


if __name__ == "__main__":
    main()
