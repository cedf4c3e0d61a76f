"""The one card encoding (cards.pyx): every code round-trips through both text forms."""

import pytest

from krazy_core import cards
from krazy_core.cards import (JOKER, format_card, parse_card, parse_cards, format_cards, all_codes,
                              is_valid_card, make_card, rank_of, suit_of)


def test_every_code_round_trips_through_symbols_and_ascii():
    codes = all_codes()
    # 5 suits x 13 ranks, the Joker, 12 number cards, 3 specials
    assert len(codes) == 5 * 13 + 1 + 12 + 3
    for c in codes:
        assert parse_card(format_card(c)) == c
        assert parse_card(format_card(c, ascii=True)) == c
        assert parse_card(format_card(c).lower()) == c
        assert parse_card(format_card(c, ascii=True).lower()) == c
    assert len({format_card(c) for c in codes}) == len(codes)
    assert len({format_card(c, ascii=True) for c in codes}) == len(codes)


@pytest.mark.parametrize("text,code", [
    ("Q♠", 0x0C), ("QS", 0x0C), ("10♥", 0x1A), ("10H", 0x1A), ("TH", 0x1A), ("A♣", 0x31),
    ("AC", 0x31), ("K♦", 0x2D), ("3R", 0x43), ("Q★", 0x4C), ("JK", JOKER), ("🃏", JOKER),
    ("joker", JOKER), ("7", 0x67), ("X", 0x70), ("DRAW", 0x71), ("stop", 0x72), (" 2d ", 0x22),
])
def test_parse_both_forms(text, code):
    assert parse_card(text) == code


def test_format_forms():
    assert format_card(0x0C) == "Q♠" and format_card(0x0C, ascii=True) == "QS"
    assert format_card(0x1A) == "10♥" and format_card(0x1A, ascii=True) == "10H"
    assert format_card(JOKER) == "🃏" and format_card(JOKER, ascii=True) == "JK"
    assert format_cards(parse_cards("QS 10H, TH AC JK"), ascii=True) == "QS 10H 10H AC JK"
    assert rank_of(parse_card("JH")) == 11 and suit_of(parse_card("JH")) == 1
    assert make_card(4, 13) == parse_card("KR")


@pytest.mark.parametrize("bad", ["", "1S", "11H", "ZZ", "QQ", "13", "0", "K", None, 3.5, -1, 0x0E, 0x80, 256, True])
def test_bad_cards_raise_value_error_naming_them(bad):
    with pytest.raises(ValueError) as e:
        parse_card(bad)
    assert repr(bad) in str(e.value)


def test_is_valid_and_make_card_ranges():
    assert not is_valid_card(0x00) and not is_valid_card(0x51) and not is_valid_card(0x60)
    with pytest.raises(ValueError):
        make_card(5, 1)
    with pytest.raises(ValueError):
        format_card(0x0F)
