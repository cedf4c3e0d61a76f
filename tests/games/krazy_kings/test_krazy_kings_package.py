"""The package's public face (issue 12 item 1): the action ids as named constants mean what the
engine does with them, the names importable before still are, the rules text and the view are
found where the package keeps them, and a state pickles and loads through the new module."""
import pickle

import pytest

import krazy_core
import krazy_core.games.krazy_kings as kk
from helpers import load_test_file
from krazy_core.cards import JOKER, parse_card
from krazy_core.errors import IllegalActionError

scripted = load_test_file("test_krazy_kings").scripted


def test_names_importable_before_still_are():
    for name in ("SPEC", "KrazyKingsState", "new_state", "state_from_dict", "EVENT_NAMES", "PHASE_NAMES",
                 "DRAW_REASONS", "DOUBLES", "TENSOR", "TENSOR_LAYOUT"):
        assert name in kk.__all__ and getattr(kk, name) is not None
    assert kk.KrazyKingsState.__module__ == "krazy_core.games.krazy_kings.state"
    assert krazy_core.game.get_spec("krazy-kings") is kk.SPEC
    assert kk.SPEC.num_distinct_actions == kk.NUM_ACTIONS == 109
    assert kk.TENSOR == sum(seg.size for seg in kk.TENSOR_LAYOUT) == 219


def test_discard_ids_KK_6_and_the_joker_KK_15():
    assert kk.discard_action(parse_card("AS")) == kk.DISCARD == 0
    assert kk.discard_action(parse_card("KC")) == 3 * 13 + 12
    assert kk.discard_action(JOKER) == kk.DISCARD_JOKER == 52
    assert kk.discard_action(parse_card("7H"), announce=True) == kk.ANNOUNCE + 13 + 6
    assert kk.card_index(parse_card("5R")) is None            # a Kings Rummy star: not this deck
    with pytest.raises(ValueError):
        kk.discard_action(0x0E)
    s = krazy_core.make("krazy-kings").new_initial_state(seed=5)
    for a in range(kk.DISCARD, kk.DISCARD_JOKER + 1):
        code = kk._action_card(a)
        assert kk.discard_action(code) == a
        assert s.action_to_string(a) == "play " + krazy_core.cards.format_card(code)


def test_announce_ids_KK_19():
    s = scripted(hands=["7S 9S"], discard=["7H"], phase="round_two")
    legal = s.legal_actions()
    assert kk.discard_action(parse_card("7S"), announce=True) in legal
    assert kk.discard_action(parse_card("7S")) in legal
    assert s.string_to_action("7s") == kk.ANNOUNCE + kk.discard_action(parse_card("7S"))
    assert s.action_to_string(kk.ANNOUNCE) == "play A♠ last card"


def test_roll_id_KK_8():
    s = scripted(hands=["7S 9S 2D"], discard=["7H"], phase="round_two", may_roll_when_able=True)
    assert kk.ROLL in s.legal_actions() and s.action_to_string(kk.ROLL) == "roll"
    s = scripted(hands=["7S 9S 2D"], discard=["7H"], phase="round_two")
    assert kk.ROLL not in s.legal_actions()
    with pytest.raises(IllegalActionError):
        s.apply_action(kk.ROLL)


def test_direction_ids_KK_16():
    s = scripted(hands=["7S 9S 2D"], discard=["JK"], phase="direction")
    assert s.legal_actions() == [kk.CLOCKWISE, kk.COUNTER_CLOCKWISE]
    assert s.action_to_string(kk.COUNTER_CLOCKWISE) == "counter-clockwise"
    s.apply_action(kk.COUNTER_CLOCKWISE)
    assert s.observation(0)["direction"] == -1


def test_a_state_pickles_and_loads_through_the_package():
    s = krazy_core.make("krazy-kings", num_players=3).new_initial_state(seed=11)
    s.apply_action(s.legal_actions()[0])
    back = pickle.loads(pickle.dumps(s))
    assert back == s and type(back) is kk.KrazyKingsState
    assert s.game.state_from_json(s.to_json()) == s


def test_rules_text_and_view_live_in_the_package():
    from importlib import resources
    from krazy_core.ui import load_ui
    assert kk.SPEC.rules_file == "games/krazy_kings/rules.md"
    text = resources.files("krazy_core").joinpath(*kk.SPEC.rules_file.split("/")).read_text(encoding="utf-8")
    assert "KK-20" in text
    from krazy_core.games.krazy_kings import view
    assert load_ui("krazy-kings").render is view.render
