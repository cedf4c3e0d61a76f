"""MaskablePPO (sb3-contrib) on ``KrazySB3VecEnv`` (issue 32): train for a budget, then
play the greedy policy against the same opponents and report its win rate beside a random
policy's on the same deals.

    pip install torch --index-url https://download.pytorch.org/whl/cpu && pip install sb3-contrib
    python benches/sb3_maskable_ppo.py --game krazy-kings --players 2 --steps 100000
"""
from __future__ import annotations

import argparse
import time

import numpy as np


def win_rate(venv, choose, games, seed):
    venv.seed(seed)
    obs = venv.reset()
    wins = done = 0
    while done < games:
        obs, rew, dones, infos = venv.step(choose(obs))
        wins += int((rew[dones] > 0.5).sum())
        done += int(dones.sum())
    return wins / done, done


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="krazy-kings")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponents", default="random")
    ap.add_argument("--steps", type=int, default=100_000)
    ap.add_argument("--games", type=int, default=2000)
    args = ap.parse_args(argv)
    from sb3_contrib import MaskablePPO
    from krazy_core.envs.sb3 import KrazySB3VecEnv
    venv = KrazySB3VecEnv(args.game, num_envs=64, num_players=args.players, opponents=args.opponents)
    venv.seed(0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=1024, seed=0, verbose=0)
    t = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    took = time.perf_counter() - t
    ev = KrazySB3VecEnv(args.game, num_envs=64, num_players=args.players, opponents=args.opponents)
    ppo, n = win_rate(ev, lambda o: model.predict(o, action_masks=ev.action_masks(),
                                                   deterministic=True)[0], args.games, 123)
    rnd, m = win_rate(ev, lambda o: ev.sample_legal(), args.games, 123)
    print(f"{args.game} {args.players}p vs {args.opponents}: MaskablePPO {args.steps} steps in "
          f"{took:.0f} s ({args.steps / took:,.0f} steps/s): win rate {ppo:.3f} over {n} games; "
          f"random policy {rnd:.3f} over {m} games")


if __name__ == "__main__":
    main()
