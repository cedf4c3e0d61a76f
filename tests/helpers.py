"""Helpers shared by the tests."""
import krazy_core

GAMES = krazy_core.available_games()


def random_playout(state, rng, max_steps=100_000, check=None):
    """Play random legal actions to the end; calls check(state) before each action."""
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        if check is not None:
            check(state)
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def state_after_random_steps(game_id, seed, steps):
    """A fresh ``game_id`` deal from ``seed`` after up to ``steps`` random legal actions drawn
    by ``random.Random(seed)`` (fewer if the game ends first)."""
    import random
    import krazy_core
    s = krazy_core.make(game_id).new_initial_state(seed=seed)
    random_playout(s, random.Random(seed), max_steps=steps)
    return s


def kk_tables():
    """Hypothesis strategy: a Krazy Kings table (player count and every option)."""
    from hypothesis import strategies as st
    return st.fixed_dictionaries({
        "num_players": st.integers(2, 5),
        "free_reroll": st.booleans(),
        "may_roll_when_able": st.booleans(),
        "doubles_reverse": st.sampled_from(["all", "challenge_only", "never"]),
        "jokers": st.sampled_from(["rolloff", "none"]),
        "last_card_call": st.booleans(),
    })
