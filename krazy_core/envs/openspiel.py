"""Every krazy_core game as an OpenSpiel (pyspiel) Python game
(``pip install 'krazy_core[openspiel]'``).

    >>> import pyspiel
    >>> from krazy_core.envs import openspiel
    >>> openspiel.register()
    ['python_contract_rummy', 'python_kings_rummy', 'python_krass_kariert', 'python_krazy_kings']
    >>> game = pyspiel.load_game("python_krazy_kings(players=4,max_turns=300)")
    >>> state = game.new_initial_state()
    >>> pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)

Short names: ``python_krazy_kings``, ``python_kings_rummy``, ``python_contract_rummy``,
``python_krass_kariert``; parameters: ``players`` and every game option (``krazy rules
GAME``), plus ``seed`` (int, default 0): the ``k``-th state a loaded game makes with
``new_initial_state()`` is dealt from the ``k``-th draw of ``krazy_core.rng.Rng(seed)``, so a
loaded game is reproducible.  Clones do not count: pyspiel clones a Python state by calling
``new_initial_state()`` and copying the attributes over, and such a state gives its deal
back (so two agents on one seed see the same deals however often their bots cloned).

- Chance: ``SAMPLED_STOCHASTIC``: dice and shuffles are drawn from the state's own PRNG
  inside ``apply_action`` (no chance nodes), as in the core.
- Observation tensor: ``State.observation_tensor(player)`` (float32, the game's
  ``observation_tensor_shape``); observation string: the JSON of
  ``State.observation(player)`` (what that seat may see).
- Information state: string = the observation JSON and the public action history
  (its length and a BLAKE2b digest chained over its ``(seat, action)`` pairs: every action is seen by
  every seat; a digest keeps the string short in games of thousands of actions), so it
  depends only on what
  the seat has seen and two states a seat cannot tell apart give the same string; tensor =
  the observation tensor (fixed size: not perfect recall beyond what the tensor holds).
- ``resample_from_infostate(player, sampler)``: ``State.determinize(player, seed)`` with
  the seed drawn from ``sampler`` (the other hands, the stock order and the future dice
  dealt again consistently with what ``player`` has seen).  OpenSpiel's Python
  ``ISMCTSBot`` uses it.
- Serialization: ``state.serialize()`` / ``game.deserialize_state()`` round-trip (pyspiel's
  Python-game form: history plus the pickled attributes; our state pickles as its JSON).
  ``pyspiel.serialize_game_and_state``, ``random_sim_test(..., serialize=True)`` and
  pickle/deepcopy of a pyspiel state do **not** work: for a ``SAMPLED_STOCHASTIC`` game
  they ask ``Game::GetRNGState``, which pyspiel 2.0.2 does not forward to Python games
  (``SpielError: GetRNGState unimplemented``); use ``random_sim_test(..., serialize=False)``
  and ``state.clone()``.
- Algorithms: those that only sample play run (OpenSpiel's Python ``ISMCTSBot`` with
  ``resample_from_infostate``, Python ``MCTSBot``, random rollouts).  Those that need
  chance nodes (outcome/external sampling MCCFR, ``chance_outcomes()``-driven code,
  expectimax, exact best responses) do not: chance is not explicit here.  pyspiel's C++
  ``MCTSBot``/``ISMCTSBot`` cannot drive any Python game.
- Utility: ``returns()`` (constant sum: 1 in every game but KrassKariert, where the one
  loser gets 0 and everyone else 1, so ``num_players - 1``).
- An illegal action raises ``IllegalActionError`` (a ``ValueError``), the state unchanged.
"""

from __future__ import annotations

import hashlib
import json
from typing import Dict

import numpy as np

try:
    import pyspiel
except ImportError as _e:                   # pragma: no cover - the extra is missing
    raise ImportError("krazy_core.envs.openspiel needs open_spiel: "
                      "pip install 'krazy_core[openspiel]'") from _e

import krazy_core
from krazy_core.game import get_spec
from krazy_core.rng import Rng

__all__ = ["register", "short_name", "SHORT_NAMES"]

SHORT_NAMES = {g: "python_" + g.replace("-", "_") for g in krazy_core.available_games()}


def short_name(game_id: str) -> str:
    """``"krazy-kings"`` -> ``"python_krazy_kings"``."""
    return SHORT_NAMES[game_id]


def _utility_sum(game_id: str, n: int) -> float:
    """``returns()`` summed over a table of ``n`` (the game's ``GameSpec.utility_sum``)."""
    return float(get_spec(game_id).utility_sum(n))


def _max_game_length(game) -> int:
    """A bound on the actions of one game for OpenSpiel's ``max_game_length``: the game's
    ``GameSpec.max_game_length`` (each game's turn cap, KK-20, KR-17, CR-17, times generous
    actions per turn; KrassKariert, with no cap, ends within its hands: measured random games
    stay under 350 actions), 20000 for a game that gives none."""
    f = game.spec.max_game_length
    return int(f(game)) if f is not None else 20000


_CLASSES: Dict[str, type] = {}


def _game_type(game_id: str) -> "pyspiel.GameType":
    spec = get_spec(game_id)
    params = {"players": spec.default_players, "seed": 0}
    for o in spec.options:
        params[o.name] = o.default
    return pyspiel.GameType(
        short_name=SHORT_NAMES[game_id],
        long_name=f"krazy_core {spec.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class KrazySpielGame(pyspiel.Game):
    """A krazy_core game as a pyspiel Python game (module docstring)."""

    GAME_ID = "krazy-kings"         # each registered subclass names its game

    def __init__(self, params=None):
        params = dict(params or {})
        game_id = self.GAME_ID
        gtype = _game_type(game_id)
        full = dict(gtype.parameter_specification)
        full.update(params)
        options = {k: v for k, v in full.items() if k not in ("players", "seed")}
        self.kgame = krazy_core.make(game_id, num_players=int(full["players"]), **options)
        n = self.kgame.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.kgame.num_distinct_actions,
            max_chance_outcomes=0,
            num_players=n,
            min_utility=float(self.kgame.min_utility),
            max_utility=float(self.kgame.max_utility),
            utility_sum=_utility_sum(game_id, n),
            max_game_length=_max_game_length(self.kgame))
        super().__init__(gtype, info, full)
        self._deals = Rng(int(full["seed"]))
        self._dealt = 0                 # states dealt so far (clones not counted)
        self._before = self._deals      # the generator before the last deal (for a clone)

    def new_initial_state(self):
        """The next deal: the ``k``-th state made is dealt from the ``k``-th draw of
        ``Rng(seed)``.  pyspiel clones a Python state by calling this and then overwriting
        the new state's attributes with copies of the original's; the state notices that
        (``KrazySpielState.__setattr__``) and hands its deal back, so clones and
        deserializations never move the sequence of deals."""
        self._before = self._deals.__copy__()
        deal = self._deals.next_u64()
        self._dealt += 1
        state = KrazySpielState(self, self.kgame.new_initial_state(deal))
        object.__setattr__(state, "_deal_no", self._dealt)
        return state

    def _give_back(self, deal_no):
        """A state made by deal ``deal_no`` became a clone: undo that deal if it is still
        the last one (pyspiel's ``Clone`` overwrites the state right after making it)."""
        if deal_no == self._dealt:
            self._deals = self._before
            self._dealt -= 1

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return KrazyObserver(self.kgame, info_state=perfect_recall)


class KrazySpielState(pyspiel.State):
    """A pyspiel state over a ``krazy_core.State`` (attribute ``kstate``)."""

    def __init__(self, game, kstate=None):
        super().__init__(game)
        self.kstate = kstate if kstate is not None else game.kgame.new_initial_state(0)
        self.history_key = "0"          # actions applied, then a digest chained over them

    def __setattr__(self, name, value):
        # pyspiel's Clone (and deserialization) makes a state with new_initial_state() and
        # then sets every attribute of the original on it: the first such write on a fresh
        # state gives its deal back to the game, so deals do not depend on clones.  Only
        # new_initial_state sets ``_deal_no`` (bypassing this method); a copied one is 0.
        if name in ("kstate", "_deal_no"):
            no = self.__dict__.get("_deal_no", 0)
            if no and (name == "_deal_no" or "kstate" in self.__dict__):
                object.__setattr__(self, "_deal_no", 0)
                self.get_game()._give_back(no)
            if name == "_deal_no":
                value = 0
        object.__setattr__(self, name, value)

    def current_player(self):
        p = self.kstate.current_player()
        return pyspiel.PlayerId.TERMINAL if p < 0 else p

    def _legal_actions(self, player):
        return self.kstate.legal_actions() if player == self.kstate.current_player() else []

    def _apply_action(self, action):
        p = self.kstate.current_player()
        self.kstate.apply_action(int(action))
        n, _, digest = self.history_key.partition(" ")
        self.history_key = f"{int(n) + 1} " + hashlib.blake2b(
            f"{digest}|{p}:{int(action)}".encode(), digest_size=12).hexdigest()

    def _action_to_string(self, player, action):
        try:
            return self.kstate.action_to_string(int(action))
        except Exception:
            return str(action)

    def is_terminal(self):
        return self.kstate.is_terminal()

    def returns(self):
        return [float(x) for x in self.kstate.returns()]

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one: ``determinize(player_id, seed)``,
        the seed drawn from ``probability_sampler`` (a callable giving floats in [0, 1))."""
        u = float(probability_sampler())
        seed = int(u * 2.0 ** 53) ^ (len(self.history()) << 53)
        c = self.clone()
        c.kstate = self.kstate.determinize(int(player_id), seed)
        return c

    def __str__(self):
        return str(self.kstate)


class KrazyObserver:
    """pyspiel Python observer: ``tensor`` (the observation tensor) and ``string_from``
    (observation JSON; with ``info_state`` also the public action history)."""

    def __init__(self, kgame, info_state=False):
        self.info_state = info_state
        self.tensor = np.zeros(kgame.observation_tensor_shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor[:] = state.kstate.observation_tensor(player)

    def string_from(self, state, player):
        obs = json.dumps(state.kstate.observation(player), sort_keys=True, separators=(",", ":"))
        if not self.info_state:
            return obs
        return f"{obs}|history {state.history_key}"


def register():
    """Register every game with pyspiel (``pyspiel.load_game("python_krazy_kings(...)")``).
    Idempotent; returns the short names."""
    names = set(pyspiel.registered_names())
    for game_id, name in SHORT_NAMES.items():
        if name in names:
            continue
        # a class per game (not a closure): pyspiel keeps the creator until the interpreter
        # exits, and releasing a closure then aborts the process
        cls = type("".join(w.capitalize() for w in game_id.split("-")) + "SpielGame",
                   (KrazySpielGame,), {"GAME_ID": game_id, "__module__": __name__})
        _CLASSES[game_id] = cls
        globals()[cls.__name__] = cls
        pyspiel.register_game(_game_type(game_id), cls)
    return list(SHORT_NAMES.values())
