"""Strength of the learned value (issue 18) on duplicate deals, Krazy Kings by default.

``python benches/learned_strength.py --bot ismcts:2000:value=model --opp heuristic --pairs 200``

Deal ``seed + i`` is played twice with the seats swapped (duplicate deals: the luck of the deal
and of the dice stream cancels in a pair); the candidate's score is its return, the row gives
the win rate with a 95% interval from the per-pair means (normal approximation over pairs),
(more players: one game a deal, the candidate's seat rotating), and for a search bot the mean iterations per move and iterations per second of search time
(``SearchResult.iterations / elapsed``: the machine's load shows there). ``--json`` appends
the row to a file (one JSON object a line; ``pair_scores``: the candidate's mean score on
each deal, for paired differences between two candidates on the same deals).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import krazy_core                                   # noqa: E402
from krazy_core.bots import make_bot                # noqa: E402


class _Counting:
    """Wraps an ISMCTSBot's search to count iterations and seconds."""

    def __init__(self, bot):
        self.bot, self.iters, self.secs, self.moves = bot, 0, 0.0, 0

    def step(self, state):
        t = time.perf_counter()
        a = self.bot.step(state)
        dt = time.perf_counter() - t
        r = getattr(self.bot, "last_result", "none")
        if r == "none":                      # no search: time the bot's step
            self.secs += dt
            self.moves += 1
        elif r is not None:                  # None: a forced move, not searched
            self.iters += r.iterations
            self.secs += r.elapsed
            self.moves += 1
        return a


class _HandsKnown:
    """DIAGNOSTIC (``--hands-known``, Krazy Kings): the candidate is given every hand, not
    the stock's order or the future dice.  Each move its bot sees a copy of the state whose
    public inferences (KK-6 .. KK-19) pin every other seat to the cards it really holds, so
    ``determinize`` (the search's, every iteration) deals those hands as they are and only
    the stock again, and reseeds the dice: a perfect card reader, the upper end of what
    inferring the hands could buy (the omniscient search also sees the stock and dice)."""

    def __init__(self, bot):
        self.bot = bot

    @property
    def last_result(self):
        return getattr(self.bot, "last_result", "none")

    def step(self, state):
        d = json.loads(state.to_json())
        st = d["state"]
        every = set(st["stock"]) | set(st["discard"])
        for h in st["hands"]:
            every |= set(h)
        me = state.current_player()
        for p, h in enumerate(st["hands"]):
            if p != me:
                st["inference_cards"][p] = sorted(every - set(h))
                st["inference_count"][p] = len(h)
        pinned = state.game.state_from_json(json.dumps(d))
        return self.bot.step(pinned)


def play(game_id, players, cand, opp, seed, pairs, hands_known=False):
    g = krazy_core.make(game_id, num_players=players)
    scores, per_pair = [], []
    inner = make_bot(cand, seed=seed * 7 + 1)
    c = _Counting(_HandsKnown(inner) if hands_known else inner)
    for i in range(pairs):
        pair = []
        # 2 players: both seats on each deal; more: one game a deal, the seat rotating
        for seat in (range(2) if players == 2 else [i % players]):
            bots = [make_bot(opp, seed=(seed + i) * 31 + k) for k in range(players)]
            bots[seat] = c
            s = g.new_initial_state(seed=seed + i)
            while not s.is_terminal():
                s.apply_action(bots[s.current_player()].step(s))
            pair.append(s.returns()[seat])
        scores += pair
        per_pair.append(sum(pair) / len(pair))
    n = len(per_pair)
    mean = sum(per_pair) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in per_pair) / max(1, n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return {"game": game_id, "players": players, "bot": cand, "opponent": opp, "seed": seed,
            "pairs": pairs, "hands_known": hands_known, "games": len(scores), "win": mean, "lo": mean - half, "hi": mean + half,
            "moves": c.moves, "iters_per_move": c.iters / c.moves if c.moves else 0.0,
            "iters_per_s": c.iters / c.secs if c.secs else 0.0,
            "s_per_move": c.secs / c.moves if c.moves else 0.0,
            "pair_scores": per_pair}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="krazy-kings")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bot", required=True)
    ap.add_argument("--opp", default="heuristic")
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--json")
    ap.add_argument("--hands-known", action="store_true",
                    help="diagnostic (Krazy Kings): the candidate sees every hand, not the stock or dice")
    a = ap.parse_args()
    if a.hands_known and a.game != "krazy-kings":
        ap.error("--hands-known pins Krazy Kings' inference fields: krazy-kings only")
    t = time.time()
    row = play(a.game, a.players, a.bot, a.opp, a.seed, a.pairs, a.hands_known)
    row["wall_s"] = round(time.time() - t, 1)
    print(json.dumps(row), flush=True)
    if a.json:
        with open(a.json, "a") as f:
            f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
