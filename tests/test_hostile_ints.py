"""Issue 19 (helper task D): public functions and the CLI-reached methods that take an int
refuse one beyond a C int with their documented ``ValueError`` (``IllegalActionError`` and
``ConfigError`` are ``ValueError``s), never Cython's ``OverflowError``."""
import pytest

import krazy_core
from krazy_core import cards
from krazy_core.games import contract_rummy as cr
from krazy_core.games import krass_kariert as ka
from krazy_core.games import krazy_kings as kk
from krazy_core.games import melds

HUGE = [2**31, -2**31 - 1, 2**63, -2**63 - 1, 2**64, 10**400]

CALLS = [
    ("cards.make_card suit", lambda x: cards.make_card(x, 3)),
    ("cards.make_card rank", lambda x: cards.make_card(0, x)),
    ("cards.rank_of", cards.rank_of),
    ("cards.suit_of", cards.suit_of),
    ("cards.format_card", cards.format_card),
    ("krass_kariert.combination_index", lambda x: ka.combination_index("single", x)),
    ("krass_kariert.combination_of_index", ka.combination_of_index),
    ("krass_kariert.window_combinations", lambda x: ka.window_combinations([1], True, x)),
    ("krass_kariert._action_text", ka._action_text),
    ("contract_rummy._action_text", cr._action_text),
    ("krazy_kings._action_card", kk._action_card),
    ("melds._fmt", melds._fmt),
]


@pytest.mark.parametrize("x", HUGE)
@pytest.mark.parametrize("name,call", CALLS, ids=[c[0] for c in CALLS])
def test_huge_int_is_a_value_error(name, call, x):
    with pytest.raises(ValueError):
        call(x)


@pytest.mark.parametrize("game", ["krazy-kings", "kings-rummy", "contract-rummy", "krass-kariert"])
def test_explain_illegal_huge_id_is_a_value_error(game):
    s = krazy_core.make(game).new_initial_state(seed=3)
    for x in HUGE:
        with pytest.raises(ValueError):
            s._explain_illegal(x)
        with pytest.raises(ValueError):
            s._illegal_message(x, x)
        assert "out of range" in s.explain_illegal(x)       # the public face explains it


def test_in_range_ints_unchanged():
    assert cards.make_card(1, 12) == 0x1C and cards.rank_of(0x1C) == 12 and cards.suit_of(0x1C) == 1
    assert cards.rank_of(-1) == 15 and cards.suit_of(-1) == -1        # as the C int did
    assert cards.format_card(0x1C, True) == "QH"
    with pytest.raises(TypeError):
        cards.rank_of(1.5)
