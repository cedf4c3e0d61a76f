"""The GameOps entries the vectorized env reads (src/krazy/ops.h): ``observation_tensor``
writes exactly ``State.observation_tensor(player)`` in every game, for every seat, all
through random games; ``truncated`` is true exactly when Krazy Kings' turn cap ended the
game (KK-20) and never in the other games (their caps end a round: KR-17, CR-17)."""
import random

import numpy as np
import pytest

import krazy_core
from krazy_core.game import get_spec
from krazy_core.vector import observation_tensor_into, truncated

from helpers import GAMES

TABLES = [(g, n) for g in GAMES for n in sorted({get_spec(g).min_players, get_spec(g).max_players})]


@pytest.mark.parametrize("game_id,n", TABLES)
def test_ops_tensor_equals_state_tensor(game_id, n):
    game = krazy_core.make(game_id, num_players=n)
    rng = random.Random(7)
    out = np.empty(game.observation_tensor_shape, dtype=np.float32)
    checked = 0
    for seed in range(3):
        st = game.new_initial_state(seed)
        step = 0
        while True:
            if step % 7 == 0 or st.is_terminal():
                for p in range(n):
                    out[:] = np.nan
                    observation_tensor_into(st, p, out)
                    np.testing.assert_array_equal(out, st.observation_tensor(p))
                    checked += 1
            if st.is_terminal():
                break
            st.apply_action(rng.choice(st.legal_actions()))
            step += 1
    assert checked > 3 * n


def test_ops_tensor_refuses_bad_seat_and_length():
    st = krazy_core.make("krazy-kings", num_players=3).new_initial_state(1)
    with pytest.raises(ValueError, match="player"):
        observation_tensor_into(st, 3, np.zeros(219, np.float32))
    with pytest.raises(ValueError, match="219"):
        observation_tensor_into(st, 0, np.zeros(218, np.float32))


def test_truncated_kk20_turn_cap():
    """KK-20: with max_turns=3 random games end by the cap: truncated, and the returns
    share the win among the fewest cards; a game won by play is not truncated."""
    capped = krazy_core.make("krazy-kings", num_players=4, max_turns=3)
    rng = random.Random(1)
    st = capped.new_initial_state(5)
    while not st.is_terminal():
        assert not truncated(st)
        st.apply_action(rng.choice(st.legal_actions()))
    assert truncated(st)
    assert st.observation(0)["winner"] < 0
    assert abs(sum(st.returns()) - 1.0) < 1e-9
    game = krazy_core.make("krazy-kings", num_players=2)
    won = 0
    for seed in range(10):
        st = game.new_initial_state(seed)
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
        if st.observation(0)["winner"] >= 0:
            won += 1
            assert not truncated(st)
    assert won > 0


@pytest.mark.parametrize("game_id", [g for g in GAMES if g != "krazy-kings"])
def test_truncated_never_in_games_whose_cap_ends_a_round(game_id):
    kw = {"max_turns": 5} if any(o.name == "max_turns" for o in get_spec(game_id).options) else {}
    game = krazy_core.make(game_id, **kw)
    rng = random.Random(2)
    st = game.new_initial_state(3)
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    assert not truncated(st)


# the observation Box: bounds no observation leaves (extreme options included)
BOUND_TABLES = [("krazy-kings", 2, {}), ("krazy-kings", 5, {}),
                ("kings-rummy", 2, {"first_round": 9, "rounds": 3, "joker_points": 1000, "wild_points": 0}),
                ("kings-rummy", 7, {"first_round": 10, "rounds": 2}),
                ("contract-rummy", 2, {"first_round": 6, "rounds": 2, "buy_limit": 1}),
                ("contract-rummy", 6, {"first_round": 7, "rounds": 1}),
                ("krass-kariert", 3, {}), ("krass-kariert", 5, {"chips": 1})]


@pytest.mark.parametrize("game_id,n,opts", BOUND_TABLES)
def test_observation_tensor_stays_within_its_bounds(game_id, n, opts):
    """``game.observation_tensor_bounds()`` holds at every decision of 300 random games, for
    every seat; the bounds are those of the envs' Box; the high side is within reach where
    it is 1 (some entry of each segment of high 1 reaches it in these games)."""
    import numpy as np
    from krazy_core.bots import RandomBot
    game = krazy_core.make(game_id, num_players=n, **opts)
    lo, hi = game.observation_tensor_bounds()
    D = game.observation_tensor_shape[0]
    assert lo.shape == hi.shape == (D,) and lo.dtype == hi.dtype == np.float32 and (lo < hi).all()
    seen_lo = np.full(D, np.inf, np.float32)
    seen_hi = np.full(D, -np.inf, np.float32)
    bot = RandomBot(seed=3)
    for g in range(300):
        s = game.new_initial_state(seed=g)
        k = 0
        while True:
            for p in range(n):
                t = s.observation_tensor(p)
                seen_lo = np.minimum(seen_lo, t)
                seen_hi = np.maximum(seen_hi, t)
            if s.is_terminal() or k == 400:
                break
            s.apply_action(bot.step(s))
            k += 1
    bad = np.flatnonzero((seen_lo < lo) | (seen_hi > hi))
    names = {i: seg.name for seg in game.observation_tensor_layout for i in range(seg.offset, seg.offset + seg.size)}
    assert bad.size == 0, [(names[i], int(i), float(seen_lo[i]), float(seen_hi[i]), float(lo[i]), float(hi[i])) for i in bad[:5]]
    # every segment's largest high of 1 is reached: the bounds are not loose where they are 1
    for seg in game.observation_tensor_layout:
        part = slice(seg.offset, seg.offset + seg.size)
        if hi[part].max() == 1.0 and seg.name not in ("unused", "turn", "stock_size", "known_cards", "discard_pile"):
            assert seen_hi[part].max() > 0, seg.name


def test_envs_observation_box_is_the_games_bounds():
    pytest.importorskip("gymnasium")
    import numpy as np
    from krazy_core.envs.gymnasium import KrazyEnv
    from krazy_core.envs.pettingzoo import env as pz_env
    from krazy_core.vector import VectorEnv
    game = krazy_core.make("kings-rummy", num_players=3, joker_points=1000)
    lo, hi = game.observation_tensor_bounds()
    assert float(hi.max()) == pytest.approx(11 * 13 * 1000 / 500) and float(lo.min()) == 0.0
    box = KrazyEnv("kings-rummy", num_players=3, joker_points=1000).observation_space["observation"]
    assert np.array_equal(box.low, lo) and np.array_equal(box.high, hi)
    e = pz_env("krazy-kings")
    box = e.observation_space(e.possible_agents[0])["observation"]
    assert box.low.min() == -1.0 and box.high.max() == 1.0
    v = VectorEnv("contract-rummy", 4, threads=1)
    box = v.single_observation_space["observation"]
    assert box.high.max() == pytest.approx(25.5) and box.low.min() == 0.0     # buys: unlimited
    v.close()


@pytest.mark.parametrize("game_id", ["krazy-kings", "kings-rummy", "contract-rummy", "krass-kariert"])
def test_one_observation_tensor_and_its_layout_says_what_each_segment_holds(game_id):
    """``observation_tensor`` is the base State's (the GameOps writer), for every game; what
    each segment holds is data (``TensorSegment.doc``), not a docstring per game."""
    import krazy_core
    from krazy_core import State
    game = krazy_core.make(game_id)
    state = game.new_initial_state(seed=1)
    assert "observation_tensor" not in type(state).__dict__
    assert type(state).observation_tensor is State.observation_tensor
    layout = game.observation_tensor_layout
    assert all(seg.doc for seg in layout)
    assert sum(seg.size for seg in layout) == state.observation_tensor(0).shape[0]
    with pytest.raises(ValueError):
        state.observation_tensor(game.num_players)
