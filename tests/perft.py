"""Move counts from seeded states (perft, as python-chess and chess engines check move
generators): from each position, the number of legal-action sequences of length 1..DEPTH.
The expected counts are data, ``tests/games/<game>/perft.json``; ``tests/test_perft.py``
recomputes them.  Regenerate after a deliberate rules change (and say why in the commit):

    python tests/perft.py            # every game (PYTHONPATH=. for an in-place build)
    python tests/perft.py kings-rummy

A position is ``make(game, num_players).new_initial_state(seed)`` followed by up to ``steps``
random legal actions drawn by ``random.Random(seed)``.  Chance (shuffles, dice, stock rebuilds)
is drawn inside ``apply_action`` from the state's own PRNG, which ``clone()`` copies, so every
count is a fixed number: each child is ``clone()`` + ``apply_action(a)``.  A terminal state
before the depth ends its sequences there (it adds nothing at the depths below it).
"""
import json
import pathlib
import random
import sys

GAMES_DIR = pathlib.Path(__file__).resolve().parent / "games"     # tests/games/<game>/perft.json
# deepest level per game: every game's whole file recomputes in well under a second but
# KrassKariert's (many combinations per lead: its depth 4 costs seconds)
DEPTH = {"krazy-kings": 5, "kings-rummy": 5, "contract-rummy": 5, "krass-kariert": 3}
SEEDS = range(4)
STEPS = (0, 15, 60)


def perft(state, depth):
    """``[n_1, ..., n_depth]``: n_k = legal-action sequences of length k from ``state``."""
    counts = [0] * depth

    def walk(s, d):
        if d == depth or s.is_terminal():
            return
        legal = s.legal_actions()
        counts[d] += len(legal)
        if d + 1 < depth:
            for a in legal:
                c = s.clone()
                c.apply_action(a)
                walk(c, d + 1)

    walk(state, 0)
    return counts


def position(game_id, num_players, seed, steps):
    import krazy_core
    from helpers import random_playout
    s = krazy_core.make(game_id, num_players=num_players).new_initial_state(seed=seed)
    played = random_playout(s, random.Random(seed), max_steps=steps)
    return s, played


def tables(game_id):
    from krazy_core.game import get_spec
    spec = get_spec(game_id)
    return sorted({spec.min_players, spec.default_players, spec.max_players})


def compute(game_id):
    """The data file's content for ``game_id``."""
    depth = DEPTH[game_id]
    positions = []
    for n in tables(game_id):
        for seed in SEEDS:
            for steps in STEPS:
                s, played = position(game_id, n, seed, steps)
                positions.append({"num_players": n, "seed": seed, "steps": steps, "played": played,
                                  "terminal": s.is_terminal(), "counts": perft(s, depth)})
    return {"game": game_id, "depth": depth,
            "how": "tests/perft.py: make(game, num_players).new_initial_state(seed), up to `steps` "
                   "random legal actions by random.Random(seed) (`played` of them), then counts[k-1] = "
                   "legal-action sequences of length k",
            "positions": positions}


def path_for(game_id):
    return GAMES_DIR / game_id.replace("-", "_") / "perft.json"


def main(argv):
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    games = argv or sorted(DEPTH)
    for g in games:
        doc = compute(g)
        rows = ",\n".join("  " + json.dumps(r) for r in doc["positions"])
        head = json.dumps({k: v for k, v in doc.items() if k != "positions"}, ensure_ascii=False)
        text = head[:-1] + ',\n "positions": [\n' + rows + "\n ]}\n"
        assert json.loads(text) == doc
        path_for(g).write_text(text, encoding="utf-8")
        print(f"{path_for(g)}: {len(doc['positions'])} positions, depth {doc['depth']}")


if __name__ == "__main__":
    main(sys.argv[1:])
