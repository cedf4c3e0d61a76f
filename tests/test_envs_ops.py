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
