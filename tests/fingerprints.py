"""Behaviour fingerprints: hashes of what the engine does over seeded games and searches.

Refactors must keep behaviour bit for bit (issue 12, "Behaviour identical").  This module
plays seeded games of every game at every player count and hashes, after every action, the
state's ``to_json()`` (the whole state: struct fields, PRNG, events, history), its
``observation_tensor`` for the player to act, and the text of the action applied; at the end
of each game the event log as seat 0 and as the omniscient reader see it, and the returns.
Two policies: uniformly random legal actions (``random.Random(seed)``) and the game's C
heuristic (``heuristic_action(seed)``).  Then seeded ISMCTS searches of every game (the chosen
action and every visit count) and the in-core ``simulate_random`` decision counts.

    python tests/fingerprints.py            # print the fingerprints, compare with the data file
    python tests/fingerprints.py --write    # record them in tests/data/fingerprints.json

``tests/test_fingerprints.py`` compares a fresh run with the recorded file.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import sys

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "fingerprints.json")

# to_json() is hashed after every one of the first FULL_STEPS actions of a game (it grows with
# the event log, so hashing it after every action of an 800-decision game is quadratic); after
# that every EVERY-th action and at the end.  The action texts and tensors are hashed at every step.
FULL_STEPS = 150
EVERY = 25
MAX_STEPS = 3000          # a cap on one game (max_turns ends every game well before it)


def _h():
    return hashlib.sha256()


def game_fingerprint(game, seed, policy):
    """Hex digest of one seeded game of ``game`` played by ``policy`` ("random"/"heuristic")."""
    h = _h()
    st = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    h.update(st.to_json().encode())
    steps = 0
    while not st.is_terminal() and steps < MAX_STEPS:
        p = st.current_player()
        legal = st.legal_actions()
        h.update(repr((p, legal)).encode())
        h.update(st.observation_tensor(p).tobytes())
        if policy == "random":
            a = rng.choice(legal)
        else:
            a = st.heuristic_action(seed * 1000003 + steps)
        h.update(st.action_to_string(a).encode())
        st.apply_action(a)
        steps += 1
        if steps <= FULL_STEPS or steps % EVERY == 0:
            h.update(st.to_json().encode())
    h.update(st.to_json().encode())
    h.update(json.dumps(st.events_for(0), sort_keys=True).encode())
    h.update(json.dumps(st.events_for("all"), sort_keys=True).encode())
    h.update(repr(st.returns()).encode())
    return h.hexdigest()[:24], steps


def search_fingerprint(game, seed, iterations, advance):
    """Digest of seeded ISMCTS searches from a state ``advance`` random actions into a game."""
    from krazy_core.search.ismcts import search
    st = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(advance):
        if st.is_terminal():
            break
        st.apply_action(rng.choice(st.legal_actions()))
    h = _h()
    out = []
    for k in range(2):
        if st.is_terminal() or len(st.legal_actions()) < 2:
            break
        r = search(st, iterations=iterations, seed=seed + k, threads=1)
        rec = [r.action, sorted(r.visits.items())]
        out.append(rec)
        h.update(repr(rec).encode())
        st.apply_action(r.action)
    return h.hexdigest()[:24], out[0][0] if out else None


def compute(verbose=False):
    """Every fingerprint, as a dict of name -> [digest, extra]."""
    import krazy_core
    from krazy_core._state import simulate_random
    from krazy_core.game import get_spec
    fp = {}
    for gid in krazy_core.available_games():
        spec = get_spec(gid)
        for n in range(spec.min_players, spec.max_players + 1):
            game = krazy_core.make(gid, num_players=n)
            for policy in ("random", "heuristic"):
                seed = 1000 * n + (7 if policy == "random" else 11)
                d, steps = game_fingerprint(game, seed, policy)
                fp[f"{gid}/{n}p/{policy}/{seed}"] = [d, steps]
                if verbose:
                    print(gid, n, policy, d, steps, file=sys.stderr)
            r = simulate_random(game, 20, seed=n)
            fp[f"{gid}/{n}p/simulate_random/20"] = [r["games"], r["decisions"]]
        game = krazy_core.make(gid, num_players=spec.default_players)
        for advance in (0, 12):
            d, a = search_fingerprint(game, 5 + advance, 300, advance)
            fp[f"{gid}/{spec.default_players}p/ismcts/300it/advance{advance}"] = [d, a]
            if verbose:
                print(gid, "ismcts", advance, d, a, file=sys.stderr)
    return fp


def load():
    with open(DATA, encoding="utf-8") as f:
        return json.load(f)


def main(argv):
    import time
    t0 = time.perf_counter()
    fp = compute(verbose=True)
    print(f"{len(fp)} fingerprints in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    if "--write" in argv:
        os.makedirs(os.path.dirname(DATA), exist_ok=True)
        with open(DATA, "w", encoding="utf-8") as f:
            json.dump(fp, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"wrote {DATA}")
        return 0
    if os.path.exists(DATA):
        old = load()
        bad = [k for k in sorted(set(old) | set(fp)) if old.get(k) != fp.get(k)]
        for k in bad:
            print(f"DIFFERS {k}: recorded {old.get(k)} now {fp.get(k)}")
        print("identical" if not bad else f"{len(bad)} differ")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
