"""Shared fixtures: every registered game, made with its default table."""
import os

import pytest
from hypothesis import settings

import krazy_core

settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# `krazy play` saves every game with a human (cli.autosave_path): the suite's games go to a
# folder of this run, never to the user's saves (subprocesses get it through tests' env helpers)
if not os.environ.get("KRAZY_SAVE_DIR"):
    import tempfile
    os.environ["KRAZY_SAVE_DIR"] = tempfile.mkdtemp(prefix="krazy-test-saves-")


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
    "test_best_arrangement_overlap.py::test_CR_10_overlap_dp_equals_branch_and_bound_on_random_hands",
    "test_best_arrangement_overlap_wrap.py::test_CR_10_wrap_dp_equals_branch_and_bound_on_random_hands",
    "test_best_arrangement_overlap_wrap.py::test_CR_10_wrap_worst_hands_exact_answers",
    "test_best_arrangement_dp.py::test_CR_10_mixed_dp_equals_branch_and_bound",
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
    "test_best_arrangement_dp.py::test_issue19_best_arrangement_equals_the_references_on_random_hands",
    # issue 12 item 8: the rest of the fast tier's slowest (a --durations run of
    # `pytest -m "not slow"`), so that tier stays under 2 minutes
    "test_fingerprints.py::test_fingerprint_matches_the_recorded_tree",   # one compute() for all
    "test_fingerprints.py::test_fingerprints_cover_every_game_and_player_count",
    "test_envs_openspiel.py::test_random_sim_test[contract-rummy-2]",
    "test_envs_openspiel.py::test_random_sim_test[contract-rummy-3]",
    "test_envs_openspiel.py::test_random_sim_test[contract-rummy-4]",
    "test_envs_openspiel.py::test_random_sim_test[contract-rummy-6]",
    "test_envs_openspiel.py::test_random_sim_test[kings-rummy-2]",
    "test_envs_openspiel.py::test_random_sim_test[kings-rummy-5]",
    "test_envs_openspiel.py::test_random_sim_test[kings-rummy-6]",
    "test_envs_openspiel.py::test_random_sim_test[kings-rummy-7]",
    "test_envs_openspiel.py::test_random_sim_test[contract-rummy-5]",
    "test_envs_openspiel.py::test_random_sim_test[kings-rummy-3]",
    "test_envs_openspiel.py::test_random_sim_test[kings-rummy-4]",
    "test_envs_openspiel.py::test_openspiel_bots_play[krass-kariert]",
    "test_ray.py::test_four_bot_tournament_is_the_same_with_and_without_ray",
    "test_ray.py::test_a_ray_worker_killed_mid_batch_loses_nothing",      # every Ray test: the
    "test_ray.py::test_simulate_and_sprt_are_the_same_on_ray",            # cluster's start is
    "test_ray.py::test_selfplay_on_ray_writes_the_same_shards",           # the cost
    "test_ray.py::test_cli_ray_flag_joins_the_running_cluster",
    "test_conformance.py::test_random_playouts_keep_the_contract[krazy-kings-4]",
    "test_conformance.py::test_random_playouts_keep_the_contract[krazy-kings-5]",
    "test_conformance.py::test_random_playouts_keep_the_contract[krass-kariert-3]",
    "test_conformance.py::test_random_playouts_keep_the_contract[krass-kariert-4]",
    "test_conformance.py::test_random_playouts_keep_the_contract[krass-kariert-5]",
    "test_fuzz.py::test_fuzz_mutated_json_state[contract-rummy]",
    "test_runs.py::test_selfplay_shards_are_readable_and_hold_every_decision",
    "test_runs.py::test_cli_unreachable_ray_address_is_a_clear_error",
    "test_runs.py::test_a_full_disk_under_the_store_keeps_the_batches_before",
    "test_runs.py::test_same_seeds_same_results_in_process_and_local_processes",
    "test_runs.py::test_tournament_ratings_pairwise_table_and_plots",
    "test_runs.py::test_a_killed_worker_loses_nothing_and_counts_nothing_twice",
    "test_contract_rummy_properties.py::test_cards_conserved_and_melds_valid_after_every_action",
    "test_cli.py::test_play_odd_input_and_bad_think",
    "test_cli.py::test_simulate_refuses_absurd_worker_counts",
    "test_hostile.py::test_sweep_of_every_method_with_extreme_arguments",
    "test_state_machines.py::test_a_failure_shrinks_to_a_short_move_sequence",
    # issue 13 / issue 12 item 8 (helper wheels): the next slowest of a --durations run of the
    # fast tier (2026-12-01: 165 s of CPU, 7 min 20 s wall at load 7); each keeps a sibling
    # in the fast tier (another game, another CLI screen), and CI's stage 3 runs them all
    "test_meld_golden.py::test_CR_5_crazy_best_arrangement_same_as_before",
    "test_envs_openspiel.py::test_openspiel_bots_play[krazy-kings]",
    "test_envs_openspiel.py::test_random_sim_test[krazy-kings-5]",
    "test_fuzz.py::test_fuzz_mutated_json_state[kings-rummy]",
    "test_protocol.py::test_compiled_checks_and_jsonschema_agree_on_mutated_events_actions_observations[contract-rummy]",
    "test_protocol.py::test_compiled_checks_and_jsonschema_agree_on_mutated_events_actions_observations[krass-kariert]",
    "test_protocol.py::test_compiled_checks_and_jsonschema_agree_on_mutated_events_actions_observations[krazy-kings]",
    "test_state_machines.py::test_state_machine[kings-rummy]",
    "test_state_machines.py::test_state_machine[krass-kariert]",
    "test_envs_pettingzoo.py::test_pettingzoo_seed_test[kings-rummy-5]",
    "test_envs_pettingzoo.py::test_pettingzoo_seed_test[kings-rummy-6]",
    "test_runs.py::test_cli_tournament_sprt_selfplay",
    "test_cli_tester.py::test_krass_kariert_pauses_between_hands_call_them_hands",
    "test_cli_tester.py::test_resume_takes_the_game_options_and_players_from_the_file",
    "test_cli_tester.py::test_names_that_are_markup_or_unprintable_are_refused_not_a_traceback",
    "test_cli_tester.py::test_the_position_prompt_quits_on_q_and_at_the_end_of_input",
    "test_cli_table.py::test_item12_hot_seat_buy_offers_say_out_of_turn_and_can_be_passed_for_the_round",
    "test_cli_table.py::test_gap_bot_levels_seats_from_one_names_and_play_again",
    "test_cli_table.py::test_item9_rules_show_whole_option_names_for_players",
    "test_cli_table.py::test_item14_wording",
    "test_cli_table.py::test_item8_absurd_delay_and_think_are_refused",
    "test_cli_table.py::test_item10_the_seed_is_shown_and_a_saved_game_resumes",
    # the slowest of the fast tier after the session-8 merges (--durations, quiet machine):
    # it ran 134 s with Sphinx installed; CI's stage 5 builds the docs anyway
    "test_docs.py::test_sphinx_build_and_coverage",
    "test_best_arrangement_bound.py::test_CR_10_best_arrangement_equals_exhaustive_on_crowded_runs",
    "test_melds_contract.py::test_CR_10_contract_points_equal_contract_rummy",
    "test_melds.py::test_CR_10_contract_feasible_agrees_with_the_reference",
    "test_typing.py::test_mypy_over_readme_examples_and_game_typed_states",
    # 2026-12-02, after the best_arrangement DPs: the fast tier took 144 s on a quiet machine
    # (load 1.1); these, each with a sibling left in the tier, bring it under 2 minutes
    "test_best_arrangement_dp.py::test_CR_10_overlapping_runs_best_is_the_exhaustive_best",
    "test_best_arrangement_dp.py::test_CR_3_ace_wrap_runs_dp_equals_branch_and_bound",
    "test_best_arrangement_dp.py::test_CR_10_mixed_dp_equals_exhaustive[5-True]",
    "test_best_arrangement_dp.py::test_issue19_worst_round_5_ace_wrap_four_ranks_twice_every_suit",
    "test_best_arrangement_bound.py::test_CR_10_runs_dp_forced_on_small_hands_equals_exhaustive[6]",
    "test_meld_golden.py::test_CR_10_crazy_contract_answers_are_the_games",
    "test_browser.py::test_a_whole_krazy_kings_game_against_bots_in_the_browser",
    "test_server.py::test_a_whole_game_against_bots_over_the_socket_and_its_messages_match_the_protocol_schema",
    "test_event_log_sharing.py::test_diverging_clones_of_a_late_game_share_the_prefix",
    "test_learn.py::test_c_forward_pass_equals_numpy_reference[4]",
    "test_hostile.py::test_ctrl_c_stops_simulate_random[call1]",
    "test_hostile.py::test_ctrl_c_stops_simulate_random[call2]",
    "test_docs.py::test_docstring_examples[krazy_core.tournament]",
    "test_cli_tester.py::test_seat_options_are_typed_counting_seats_from_1",
    # issue 19 item 7, crazy_best_arrangement's budget: each with a fast sibling (60 and 100 hands)
    "test_melds_contract_budget.py::test_CR_10_forced_fallback_is_the_games_lay_down_many",
    "test_melds_contract_budget.py::test_CR_10_unchanged_below_the_budget_all",
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if (f"{item.path.name}::{item.originalname}" in SLOW
                or f"{item.path.name}::{item.name}" in SLOW):
            item.add_marker(pytest.mark.slow)
