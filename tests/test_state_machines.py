"""Hypothesis state machines over every game's actions (issue 12 item 8): one
``RuleBasedStateMachine`` per game, so a failure shrinks to a short sequence of moves that
reproduces it (Hypothesis prints it as ``state.apply_legal(pick=0)`` lines).

Rules: apply a legal action (``pick`` indexes the sorted legal list, so shrinking goes towards
the first legal action); play a few seeded random actions (to reach later phases in few
steps); clone and compare (equal, and moving the clone leaves the original alone); read back
``to_json()`` with ``game.state_from_json`` (equal, same legal actions, and the machine goes
on from the read-back state); an illegal action (an id not legal now, out of range, or not an
action) raises ``IllegalActionError`` and leaves the state exactly as it was.
Invariants after every step: the cards are conserved (the deal's multiset, wherever they are:
KK-1, KR-1, CR-1, KA-1); the player to act is a seat, or ``TERMINAL_PLAYER`` exactly when the
game is over; the legal actions are sorted distinct ids in range, empty exactly when over."""
import json
import os
import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition, rule,
                                 run_state_machine_as_test)

import krazy_core
from krazy_core.errors import IllegalActionError
from helpers import GAMES, slow_cases

EXAMPLES = int(os.environ.get("KRAZY_FUZZ_EXAMPLES", "0")) or 25
STEPS = 30


def census(state):
    """Every card of the game wherever it is, as a Counter of codes."""
    gid = state.game.game_id
    if gid in ("krazy-kings", "contract-rummy"):          # hands, stock, pile (and melds: CR)
        return Counter(state.census())
    body = json.loads(state.to_json())["state"]
    if gid == "kings-rummy":                              # no melds on the table (KR-1)
        c = Counter(body["stock"]) + Counter(body["discard"])
        for h in body["hands"]:
            c += Counter(h)
        return c
    assert gid == "krass-kariert"                         # hands, reserves, pile, played (KA-1)
    cards = [c for h in body["hands"] for c in h] + [c for r in body["reserves"] for c in r if c is not None]
    return Counter(cards + body["pile"] + body["played"])


def _tables(gid):
    spec = krazy_core.game.get_spec(gid)
    return list(range(spec.min_players, spec.max_players + 1))


class GameMachine(RuleBasedStateMachine):
    """The rules and invariants, for the game named by a subclass's ``GAME``."""

    GAME = ""

    def __init__(self):
        super().__init__()
        self.state = None
        self.deck = None

    @initialize(data=st.data(), seed=st.integers(0, 2**32 - 1))
    def deal(self, data, seed):
        n = data.draw(st.sampled_from(_tables(self.GAME)), label="num_players")
        self.state = krazy_core.make(self.GAME, num_players=n).new_initial_state(seed=seed)
        self.deck = census(self.state)
        assert sum(self.deck.values()) > 0

    def _live(self):
        return not self.state.is_terminal()

    @precondition(lambda self: not self.state.is_terminal())
    @rule(pick=st.integers(0, 10**6))
    def apply_legal(self, pick):
        legal = self.state.legal_actions()
        self.state.apply_action(legal[pick % len(legal)])

    @precondition(lambda self: not self.state.is_terminal())
    @rule(seed=st.integers(0, 2**32 - 1), k=st.integers(1, 40))
    def random_steps(self, seed, k):
        rng = random.Random(seed)
        for _ in range(k):
            if self.state.is_terminal():
                break
            self.state.apply_action(rng.choice(self.state.legal_actions()))

    @rule(pick=st.integers(0, 10**6))
    def clone_and_compare(self, pick):
        before = self.state.to_json()
        c = self.state.clone()
        assert c == self.state and c.to_json() == before
        assert c.legal_actions() == self.state.legal_actions()
        if not c.is_terminal():
            legal = c.legal_actions()
            a = legal[pick % len(legal)]
            c.apply_action(a)
            assert self.state.to_json() == before          # moving the clone leaves the original
            d = self.state.clone()
            d.apply_action(a)
            assert d == c and d.to_json() == c.to_json()   # same state, same action: same result

    @rule(go_on=st.booleans())
    def json_round_trip(self, go_on):
        text = self.state.to_json()
        back = self.state.game.state_from_json(text)
        assert back == self.state and back.to_json() == text
        assert back.legal_actions() == self.state.legal_actions()
        assert back.current_player() == self.state.current_player()
        if go_on:
            self.state = back

    @rule(data=st.data())
    def illegal_action_is_refused(self, data):
        s = self.state
        n = s.game.num_distinct_actions
        legal = set(s.legal_actions())
        choices = [-1, n, n + 7, 10**12, True, 2.0, None]
        if len(legal) < n:
            choices += [a for a in range(0, n, max(1, n // 64)) if a not in legal][:16]
        bad = data.draw(st.sampled_from(choices), label="illegal action")
        before = s.to_json()
        with pytest.raises(IllegalActionError):
            s.apply_action(bad)
        assert s.to_json() == before and set(s.legal_actions()) == legal

    @invariant()
    def cards_are_conserved(self):
        if self.state is not None:
            assert census(self.state) == self.deck

    @invariant()
    def player_to_act_is_a_seat_or_terminal(self):
        if self.state is None:
            return
        p = self.state.current_player()
        if self.state.is_terminal():
            assert p == krazy_core.TERMINAL_PLAYER
        else:
            assert 0 <= p < self.state.game.num_players

    @invariant()
    def legal_actions_empty_exactly_when_over(self):
        if self.state is None:
            return
        legal = self.state.legal_actions()
        assert legal == sorted(set(legal))
        assert all(0 <= a < self.state.game.num_distinct_actions for a in legal)
        assert (legal == []) == self.state.is_terminal()


_SETTINGS = settings(max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _machine(gid):
    name = "".join(w.capitalize() for w in gid.split("-")) + "Machine"
    return type(name, (GameMachine,), {"GAME": gid})


MACHINES = {gid: _machine(gid) for gid in GAMES}
KrazyKingsMachine = MACHINES["krazy-kings"]
KingsRummyMachine = MACHINES["kings-rummy"]
ContractRummyMachine = MACHINES["contract-rummy"]
KrassKariertMachine = MACHINES["krass-kariert"]


@pytest.mark.parametrize("gid", GAMES)
@slow_cases('kings-rummy', 'krass-kariert')
def test_state_machine(gid):
    run_state_machine_as_test(MACHINES[gid], settings=_SETTINGS)


@pytest.mark.slow
def test_a_failure_shrinks_to_a_short_move_sequence(capsys):
    """A planted bug (Kings Rummy's state 'breaks' once three actions were applied) is found
    and reported as the deal plus about three ``apply_legal(pick=0)`` steps, not the long
    random run that found it."""

    class Planted(MACHINES["kings-rummy"]):
        @invariant()
        def planted_bug(self):
            if self.state is not None:
                assert len(self.state.history()) < 3, "planted"

    with pytest.raises(AssertionError, match="planted") as e:
        run_state_machine_as_test(Planted, settings=settings(
            max_examples=200, stateful_step_count=STEPS, deadline=None, derandomize=True,
            suppress_health_check=list(HealthCheck)))
    # the steps: notes on the error (PEP 678; Hypothesis 6.8x+) or printed (older)
    out = "\n".join(getattr(e.value, "__notes__", [])) + "\n" + capsys.readouterr().out
    steps = re.findall(r"^state\.(\w+)\(", out, flags=re.M)
    assert steps and steps[0] == "deal", out
    moves = [s for s in steps if s in ("apply_legal", "random_steps")]
    assert 1 <= len(moves) <= 3, out
    assert re.search(r"state\.(apply_legal\(pick=0\)|random_steps\()", out), out
