"""Shared fixtures: every registered game, made with its default table."""
import os

import pytest
from hypothesis import settings

import krazy_core

settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_report_header(config):
    return f"krazy_core {krazy_core.__version__} from {os.path.dirname(os.path.abspath(krazy_core.__file__))}"


if os.environ.get("KRAZY_TEST_INSTALLED", "") not in ("", "0"):
    # the run of an installed wheel (.ci/run, cibuildwheel): the package under test must be the
    # installed one, never a krazy_core/ folder beside these tests
    _here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if os.path.abspath(krazy_core.__file__).startswith(_here + os.sep):
        raise pytest.UsageError(f"KRAZY_TEST_INSTALLED is set but krazy_core comes from {krazy_core.__file__}")


# The expensive tests (many games, many Hypothesis examples, long searches; the slowest of a
# --durations run of the whole suite): ``pytest -m "not slow"`` is the fast tier; plain
# ``pytest`` (CI) runs them all.  An entry names a test function (every parameter) or one
# parametrized case.
SLOW = {
    "test_krazy_kings_properties.py::test_kept_legal_cards_match_a_fresh_state_from_json",
    "test_krazy_kings_properties.py::test_KK_1_cards_conserved_after_every_action",
    "test_krazy_kings_properties.py::test_observation_hides_other_hands_and_stock_order",
    "test_contract_rummy_properties.py::test_legal_actions_match_the_reference_on_thousands_of_states",
    "test_conformance.py::test_random_playouts_keep_the_contract[contract-rummy-2]",
    "test_conformance.py::test_random_playouts_keep_the_contract[contract-rummy-4]",
    "test_conformance.py::test_random_playouts_keep_the_contract[contract-rummy-6]",
    "test_conformance.py::test_random_playouts_keep_the_contract[kings-rummy-2]",
    "test_conformance.py::test_random_playouts_keep_the_contract[kings-rummy-4]",
    "test_conformance.py::test_random_playouts_keep_the_contract[kings-rummy-7]",
    "test_ismcts.py::test_ctrl_c_stops_a_long_search",
    "test_ismcts_games.py::test_takes_a_winning_move_when_one_exists[contract-rummy]",
    "test_krazy_kings_inference.py::test_inference_is_sound_in_every_real_game",
    "test_krazy_kings_inference.py::test_determinizations_respect_every_inference",
    "test_krazy_kings_inference.py::test_determinized_state_tracks_and_search_world_plays_the_same_game_untracked",
    "test_krass_kariert_input.py::test_any_typed_words_give_an_action_or_an_illegal_action_error",
    "test_cli.py::test_bot_words_print_as_typed",
    "test_melds.py::test_KR_10_wild_share_bound_many_hands_every_wild_rank",
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if (f"{item.path.name}::{item.originalname}" in SLOW
                or f"{item.path.name}::{item.name}" in SLOW):
            item.add_marker(pytest.mark.slow)
