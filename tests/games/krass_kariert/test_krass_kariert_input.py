"""KrassKariert short forms (krazy_core.games.krass_kariert.notation via string_to_action): what a
player types at the table, exact actions and exact refusals on seeded deals."""

import pytest

import krazy_core
from krazy_core.errors import IllegalActionError, UnclearActionError


def deal(seed):
    return krazy_core.make("krass-kariert").new_initial_state(seed=seed)


def name(st, text):
    """The name of the action ``text`` names, legal now or not (string_to_action refuses an
    illegal one with IllegalActionError carrying it in ``.action``)."""
    try:
        return st.action_to_string(st.string_to_action(text))
    except UnclearActionError:
        raise
    except IllegalActionError as e:
        assert e.action is not None and "is not allowed now: " in str(e)
        return st.action_to_string(e.action)


def refusal(st, text):
    with pytest.raises(UnclearActionError) as e:
        st.string_to_action(text)
    return str(e.value)


def test_positions_name_the_combination_they_make():
    # seed 3: seat 1 leads holding 12 1 4 4 12 11 10 10 6 10, reserves STOP 11
    st = deal(3)
    assert st.current_player() == 1
    assert name(st, "p3") == name(st, "play 3") == name(st, "P 3") == "play 3 solo 4"
    assert name(st, "2-3") == name(st, "play 2-3") == name(st, "2 - 3 pair") == "play 2-3 pair 4"
    assert name(st, "pair 4") == "play 2-3 pair 4"
    assert name(st, "single 6") == "play 8 solo 6"
    assert refusal(st, "3-4") == ("positions 3-4 hold 4 12: no combination (adjacent cards make a "
                                  "solo, straight, pair or triple; KA-5, KA-6)")
    assert refusal(st, "3-9") == ("3-9 is no combination: play 1-3 adjacent cards, as positions "
                                  "like '3' (with play), '3-4' or '3-5'")
    assert refusal(st, "9-10") == "your hand has positions 0-9: 9-10 is past its end"
    assert refusal(st, "single 12") == "solo 12 lies at positions 0 and 4: type 'p0' or 'p4'"
    assert refusal(st, "pair 7") == "your hand has no pair 7 in adjacent cards"
    assert refusal(st, "stop") == "you hold no STOP card"
    assert refusal(st, "reserve") == "say which reserve card, STOP and 11: e.g. 'reserve STOP at 0'"
    assert refusal(st, "reserve 8 at 2") == "your reserve is STOP and 11: no 8"
    # the canonical names still come first, and words that name nothing stay a plain refusal
    assert name(st, "play 2-3 pair 4") == "play 2-3 pair 4"
    with pytest.raises(UnclearActionError) as e:
        st.string_to_action("foo")
    assert e.value.matches == () and "no move is called 'foo'" in str(e.value)


def test_x_cards_ask_which_combination():
    # seed 6: seat 1 holds 7 X 11 STOP DRAW 8 2 8 8 10, reserves 9 12
    st = deal(6)
    assert refusal(st, "0-1") == ("positions 0-1 (7 X) can be played as 2-straight 7, 2-straight 8, "
                                  "pair 7: say which, e.g. '0-1 pair 7'")
    assert name(st, "0-1 pair") == "play 0-1 pair 7 (X=7)"
    assert name(st, "0-1 2-straight 8") == "play 0-1 2-straight 8 (X=8)"
    assert refusal(st, "p1") == ("position 1 (X) can be played as solo 1, solo 2, ... solo 12: say "
                                 "which, e.g. 'p1 solo 12'")
    assert name(st, "p1 solo 7") == "play 1 solo 7 (X=7)"
    assert refusal(st, "0-1 triple") == ("positions 0-1 hold 7 X: they make 2-straight 7, 2-straight 8, "
                                         "pair 7, not triple")
    assert name(st, "stop") == name(st, "play the stop card") == "stop 3"
    # a Draw card never leads: the short form names it, the rules say why not (KA-9)
    with pytest.raises(IllegalActionError) as e:
        st.string_to_action("draw")
    a = e.value.action
    assert st.action_to_string(a) == "draw 4" and a not in st.legal_actions()
    assert str(e.value) == "draw 4 is not allowed now: a Draw card never leads a trick (KA-9)"
    assert st.explain_illegal(a) == st.explain_illegal("draw") == "a Draw card never leads a trick (KA-9)"
    assert name(st, "reserve 9 at 2") == name(st, "take 9 into position 2") == name(st, "r 9 2") \
        == "reserve slot 0 at 2"
    assert name(st, "reserve 12 at 0") == "reserve slot 1 at 0"
    assert refusal(st, "reserve 9") == ("say where it goes in your hand: 'reserve 9 at N', N from 0 "
                                        "(the front) to 10 (the end)")
    assert refusal(st, "reserve 9 at 11") == "position 11 is past the end of your hand: 0 (the front) .. 10 (the end)"


def test_cli_reads_short_forms_and_explains_refusals():
    from test_cli import krazy
    # seed 7: seat 0 (you) holds 3 8 1 X 7 6 3 1 10 5 when its first turn comes
    code, out = krazy("play", "krass-kariert", "--seed", "7", "--delay", "0",
                      input="4-5\nxyz\n4-5 pair\nq\n")           # positions from 1 at the table
    text = " ".join(out.split())
    assert code == 0, out
    assert ("positions 4-5 (X 7) can be played as 2-straight 7, 2-straight 8, pair 7: say which, "
            "e.g. '4-5 pair 7' (or type the move's number from the list)") in text
    assert "'xyz' is not one of your moves. Type a number from the list above" in text
    assert "Short forms: positions count from 1 (the first card is 1); 'p3' plays the card at position 3" in text
    assert "seat 1 (you) plays X 7 as pair 7 (X=7)" in text          # seats from 1 (issue 16)


def test_cli_refusal_names_the_menus_numbers():
    """A fresh user's find: the refusal said 'a number from the list above (1-28)' (every
    legal action) under a menu numbered 1-8 (grouped moves count once)."""
    import re
    from test_cli import krazy
    code, out = krazy("play", "krass-kariert", "--seed", "4", "--delay", "0", input="p-1\n999\nq\n")
    text = " ".join(out.split())
    assert code == 0, out
    menu = int(re.search(r"999 is not a choice: type a number from 1 to (\d+)\.", text).group(1))
    said = int(re.search(r"'p-1' is not one of your moves\. Type a number from the list above \(1-(\d+)\)",
                         text).group(1))
    assert said == menu and menu < 28


@pytest.mark.slow
def test_any_typed_words_give_an_action_or_an_illegal_action_error():
    """Seeded fuzz over mid-game states: a short form never raises anything else (a huge
    number included) and never names an action outside 0..1115."""
    import random
    rnd = random.Random(2)
    words = ["p", "play", "3", "-", "4", "pair", "solo", "x", "stop", "draw", "reserve", "at", "take",
             "insert", "into", "99999999999999", "0", "12", "straight", "r", "position", "٣", "X",
             "3-straight", "triple", "1", "the", "card"]
    g = krazy_core.make("krass-kariert")
    seen = 0
    for seed in range(25):
        st = g.new_initial_state(seed=seed)
        for k in range(rnd.randrange(0, 80)):
            if st.is_terminal():
                break
            st.apply_action(st.heuristic_action(seed=k))
        if st.is_terminal():
            continue
        for _ in range(200):
            text = " ".join(rnd.choice(words) for _ in range(rnd.randrange(1, 6)))
            try:
                a = st.string_to_action(text)
                assert a in st.legal_actions()      # the one contract: never an illegal id
                seen += 1
            except UnclearActionError:
                pass
            except IllegalActionError as e:         # names a move that is not legal now
                assert 0 <= e.action < 1116 and e.action not in st.legal_actions()
                seen += 1
    assert seen > 40                  # short forms that named an action
    assert refusal(deal(3), "pair 99999999999999") == "a pair has a value 1..12, not 99999999999999"


def test_reserve_short_form_names_the_card_not_the_slot():
    # the action names say "reserve slot S at K"; a typed "reserve 1 at 0" means the card 1,
    # even where the card 1 lies in slot 0 and slot 1 holds another card (it once took slot 1)
    for seed in range(200):
        st = krazy_core.make("krass-kariert", num_players=3).new_initial_state(seed=seed)
        p = st.current_player()
        res = st.observation(p)["reserves"][p]
        if 0x61 in res and len(set(res)) == 2:
            break
    one = res.index(0x61)
    other = 1 - one
    assert name(st, "reserve 1 at 0") == f"reserve slot {one} at 0"
    other_card = res[other]
    typed = {0x70: "X", 0x71: "DRAW", 0x72: "STOP"}.get(other_card, str(other_card & 0xF))
    assert name(st, f"reserve {typed} at 0") == f"reserve slot {other} at 0"
