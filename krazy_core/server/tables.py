"""Tables: seats and their tokens, the state, per-seat messages, bots off the event loop.

Everything a seat receives is built by :meth:`Table.message_for` from
``krazy_core.protocol.seat_view`` (its observation, its view of the events, its legal
actions described); a spectator gets :func:`public_view`. Nothing here ever sends
``to_json()``, another seat's observation, the stock or the PRNG state."""
import asyncio
import hashlib
import hmac
import json
import secrets
import unicodedata
import time
from typing import Any, Dict, List, Optional

import krazy_core
from krazy_core import protocol
from krazy_core.bots import make_bot
from krazy_core.bots.levels import LEVEL_NAMES, is_level, level_word
from krazy_core.errors import ConfigError, IllegalActionError, KrazyError
from krazy_core.server.db import secret_hash
from krazy_core.bots.ismcts import ISMCTSBot

try:                                   # the server extra's fast JSON encoder (same output)
    import orjson as _orjson
except ImportError:                    # pragma: no cover - orjson is in the server extra
    _orjson = None                     # type: ignore[assignment]


def dumps_bytes(obj) -> bytes:
    """Compact JSON as UTF-8 bytes (orjson when installed, else the json module)."""
    if _orjson is not None:
        return _orjson.dumps(obj)
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


def dumps(obj) -> str:
    """Compact JSON text of one message."""
    return dumps_bytes(obj).decode()


# observation keys that belong to the seat alone (dropped from the spectators' view)
PRIVATE_KEYS = ("hand", "hand_text", "playable", "legal_actions", "drawn_card", "player")
MAX_THINK = 10.0
BOT_WORDS = ("random", "heuristic", "ismcts")
MAX_NAME = 40                 # characters of a seat name or a string option
MAX_OPTIONS = 20              # option names in one request
MOVE_BUDGET = 2.0             # seconds of search a server bot may spend on one move
LAYDOWN_BUDGET = 0.5          # seconds the lay-down search may take (off the event loop)
LAYDOWN_NODES = 4000          # and states it may visit
# characters refused in names and string options: bidi embeddings, overrides and isolates
# (U+202A-U+202E, U+2066-U+2069) that turn the text around it, and the marks U+200E/U+200F
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


def fingerprint(state) -> str:
    """16 hex digits of SHA-256 over the game state (checked when a log is replayed): the
    ``"state"`` part of ``to_json()`` (hands, stock, piles, PRNG state...), without the event
    log and history that ``to_json()`` adds, which follow from the seed and the actions anyway
    and made a fingerprint cost O(actions so far) -- 3-4 ms late in a game, the largest cost
    of an action on the server (benches/README.md, "Game server load")."""
    return hashlib.sha256(dumps_bytes(state._to_dict())).hexdigest()[:16]


def public_view(state) -> Dict[str, Any]:
    """What a spectator may see: seat 0's observation less every key of ``PRIVATE_KEYS``
    (no hand, no hand order, no drawn card)."""
    obs = state.observation(0)
    return {k: v for k, v in obs.items() if k not in PRIVATE_KEYS}


def check_text(value: Any, what: str, max_len: int = MAX_NAME) -> str:
    """``value`` if it is a string a page can show as it is: at most ``max_len`` characters,
    encodable as UTF-8 (no lone surrogate such as ``"\\ud800"``, which JSON may carry), no
    control character (Unicode category Cc: tab, newline, escape...) and no bidi override,
    embedding, isolate or mark (``BIDI``: U+202E would turn the rest of a lobby line around).
    Raises ``ConfigError`` naming ``what`` and the character's code point."""
    if not isinstance(value, str):
        raise ConfigError(f"{what} must be a string of at most {max_len} characters")
    if len(value) > max_len:
        raise ConfigError(f"{what} must be a string of at most {max_len} characters")
    for ch in value:
        o = ord(ch)
        if 0xD800 <= o <= 0xDFFF:
            raise ConfigError(f"{what} is not valid text: a lone surrogate U+{o:04X} (not encodable as UTF-8)")
        if o < 0x20 or 0x7F <= o < 0xA0:
            raise ConfigError(f"{what} must not contain the control character U+{o:04X}")
        if ch in BIDI:
            raise ConfigError(f"{what} must not contain the bidi formatting character U+{o:04X}")
        if unicodedata.category(ch) == "Cf":    # zero-width and other invisible format marks
            raise ConfigError(f"{what} must not contain the invisible formatting character U+{o:04X}")
    return value


def check_bot(word: str) -> str:
    """A level (``easy`` | ``normal`` | ``hard``: ``krazy_core.bots.levels``, the
    terminal's and ``make_bot``'s words) | ``random`` | ``heuristic`` | ``ismcts`` |
    ``ismcts:N`` (N iterations, 1..20000).  Raises ``ConfigError``."""
    if not isinstance(word, str) or len(word) > 20:
        raise ConfigError("bot must be a level (" + ", ".join(LEVEL_NAMES) + "), random, heuristic, ismcts "
                          "or ismcts:ITERATIONS")
    w = word.strip().lower()
    if is_level(w) or w in ("random", "heuristic", "ismcts"):
        return w
    if w.startswith("ismcts:") and w[7:].isdigit() and 1 <= int(w[7:]) <= 20000:
        return w
    raise ConfigError(f"bad bot {word!r}: random, heuristic, ismcts or ismcts:ITERATIONS (1..20000)")


def is_search_bot(word: Optional[str]) -> bool:
    """Whether a seat's bot word (or level) runs the search (counts against the server's
    search cap)."""
    return isinstance(word, str) and level_word(word).startswith("ismcts")


def server_bot(word: str, seed: int, budget: float = MOVE_BUDGET):
    """The bot a table seat runs: ``ismcts`` words get ``time_limit=budget`` seconds as well
    as their iterations (whichever ends first), so no move holds a worker longer."""
    word = level_word(word)             # a level is its bot word (krazy_core.bots.levels)
    if is_search_bot(word):
        iters = int(word[7:]) if word.startswith("ismcts:") else None
        return ISMCTSBot(iterations=iters, time_limit=budget if iters else min(budget, 0.2), seed=seed)
    return make_bot(word, seed=seed)


def _seat_secrets(seat: Dict[str, Any]) -> Dict[str, Any]:
    """A stored seat with its secrets as hashes (a file written before they were hashed
    held the plain token: it is hashed as it loads)."""
    s = dict(seat)
    if s.get("token"):
        s["token_hash"] = secret_hash(str(s["token"]))
    s.pop("token", None)
    s.setdefault("token_hash", None)
    s.setdefault("invite_hash", None)
    return s


class Table:
    """One table: its game state (the committed one), seats, the action log, who watches.

    ``seats``: ``[{"kind": "human"|"bot", "bot": word|None, "name", "token_hash",
    "invite_hash"}]`` (hex SHA-256 of the secrets; the secrets themselves are only ever in
    the create and claim answers). ``meta``: ``{"practice", "hotseat", "owner"}`` (the client
    address that created it)."""

    def __init__(self, tid: str, game_id: str, num_players: int, options: Dict[str, Any], seed: int,
                 seats: List[Dict[str, Any]], think: float, meta: Optional[Dict[str, Any]] = None):
        self.id = tid
        self.game = krazy_core.make(game_id, num_players=num_players, **options)
        self.options = options
        self.seed = seed
        self.seats = [_seat_secrets(s) for s in seats]
        if len(self.seats) != self.game.num_players:
            raise KrazyError(f"table {tid}: {len(self.seats)} seats for {self.game.num_players} players")
        self.think = think
        meta = meta or {}
        self.practice = bool(meta.get("practice"))
        self.hotseat = bool(meta.get("hotseat"))
        self.owner = str(meta.get("owner") or "")
        self.state = self.game.new_initial_state(seed=seed)
        self.log: List[tuple] = []           # (seat, action, fingerprint)
        self.updated = time.time()           # the last action (unix seconds): expiry
        self.conns: set = set()              # connections watching this table (join/leave)
        self.seat_conns = [0] * len(self.seats)   # connections per seat
        self._seat_info: Optional[List[Dict[str, Any]]] = None
        self._seat_gen = 0                   # bumped when the seat list changes
        self._cache: Dict[tuple, tuple] = {}  # (seat, first_event) -> (text, events) this version
        self._cache_key: tuple = (-1, -1)
        self.bot_task: Optional[asyncio.Task] = None
        self._bots: Dict[int, Any] = {}
        self._lock: Optional[asyncio.Lock] = None
        self.busy: set = set()               # "hint", "laydown": one of each in flight
        self.fresh_secrets: Dict[str, Dict[int, str]] = {}   # set by build_table, popped by the server

    @property
    def lock(self) -> asyncio.Lock:
        """Held while a change of this table is applied on a copy and committed."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    # ---------------------------------------------------------------- info
    @property
    def version(self) -> int:
        """The number of actions applied: what an action must answer."""
        return len(self.log)

    @property
    def meta(self) -> Dict[str, Any]:
        return {"practice": self.practice, "hotseat": self.hotseat, "owner": self.owner}

    def record(self) -> Dict[str, Any]:
        return {"id": self.id, "game": self.game.game_id, "num_players": self.game.num_players,
                "options": self.options, "seed": self.seed, "seats": self.seats, "think": self.think,
                "meta": self.meta}

    def seat_info(self) -> List[Dict[str, Any]]:
        """Who sits where and who is connected (built again only when a seat's connected
        flag changes: every update carries it)."""
        if self._seat_info is None:
            self._seat_info = [{"seat": i, "kind": s["kind"], "bot": s.get("bot"), "name": s["name"],
                                "connected": s["kind"] == "bot" or self.seat_conns[i] > 0}
                               for i, s in enumerate(self.seats)]
        return self._seat_info

    def join(self, conn) -> bool:
        """A connection starts watching this table. Returns whether the seat list changed
        (a seat's first connection; spectators are counted, not announced)."""
        self.conns.add(conn)
        if conn.seat is None:
            return False
        self.seat_conns[conn.seat] += 1
        if self.seat_conns[conn.seat] == 1:
            self._seat_changed()
            return True
        return False

    def leave(self, conn) -> bool:
        """A connection stops watching this table (closed or dropped). Returns whether the
        seat list changed (a seat's last connection)."""
        if conn not in self.conns:
            return False
        self.conns.discard(conn)
        if conn.seat is None:
            return False
        self.seat_conns[conn.seat] -= 1
        if self.seat_conns[conn.seat] == 0:
            self._seat_changed()
            return True
        return False

    def _seat_changed(self) -> None:
        self._seat_info = None
        self._seat_gen += 1

    @property
    def spectators(self) -> int:
        return sum(1 for c in self.conns if c.seat is None)

    def public(self) -> Dict[str, Any]:
        """The lobby's facts of a table; the seed only for a practice table or a game that
        is over."""
        over = self.state.is_terminal()
        out = {"table": self.id, "game": self.game.game_id, "num_players": self.game.num_players,
               "version": self.version, "terminal": over,
               "to_move": self.state.current_player(), "seats": self.seat_info(),
               "options": self.options, "practice": self.practice, "hotseat": self.hotseat,
               "spectators": self.spectators}
        if self.practice or over:
            out["seed"] = self.seed
        return out

    def seat_of_token(self, token: Optional[str]) -> Optional[int]:
        """The seat whose secret ``token`` is; ``None`` when it is nobody's."""
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        h = secret_hash(token).encode()
        found = None
        for i, s in enumerate(self.seats):
            t = s.get("token_hash")
            if t and hmac.compare_digest(t.encode(), h):
                found = i
        return found

    def seat_of_invite(self, code: Any) -> Optional[int]:
        """The seat whose unclaimed invite ``code`` is; ``None`` when it is nobody's."""
        if not isinstance(code, str) or not code or len(code) > 200:
            return None
        h = secret_hash(code).encode()
        found = None
        for i, s in enumerate(self.seats):
            t = s.get("invite_hash")
            if t and hmac.compare_digest(t.encode(), h):
                found = i
        return found

    # ---------------------------------------------------------------- messages
    def message_for(self, seat: Optional[int], first_event: int = 0) -> Dict[str, Any]:
        """The ``update`` message of one seat (``None``: a spectator): schemas/protocol.json."""
        s = self.state
        v = protocol.seat_view(s, seat, first_event, self.names_for(seat))
        obs = public_view(s) if seat is None else v["observation"]
        return {"type": "update", "table": self.id, "version": self.version, "seat": seat,
                "observation": obs, "events": v["events"], "first_event": first_event,
                "actions": v["actions"], "prompt": v["prompt"], "prompt_rules": v["prompt_rules"],
                "facts": v["facts"],
                "card_reasons": v["card_reasons"], "to_move": s.current_player(), "terminal": s.is_terminal(),
                "returns": s.returns() if s.is_terminal() else None, "seats": self.seat_info()}

    def names_for(self, seat: Optional[int]) -> List[str]:
        """The seats' names as ``seat`` reads them in the narrated events and prompts (its own
        marked ``(you)``, as the terminal marks a lone human)."""
        return [f"{x['name']} (you)" if i == seat else x["name"] for i, x in enumerate(self.seats)]

    def update_text(self, seat: Optional[int], first_event: int = 0) -> tuple:
        """``(text, number of events in it)`` of :meth:`message_for`; a spectator's (and a
        whole log's) built once per table version, seat list and ``(seat, first_event)``: N
        spectators of one version cost one build and one encoding."""
        if seat is not None and first_event:      # one connection's own: nothing to share
            msg = self.message_for(seat, first_event)
            return dumps(msg), len(msg["events"])
        key = (self.version, self._seat_gen)
        if key != self._cache_key:
            self._cache.clear()
            self._cache_key = key
        hit = self._cache.get((seat, first_event))
        if hit is None:
            msg = self.message_for(seat, first_event)
            hit = (dumps(msg), len(msg["events"]))
            if len(self._cache) < 64:
                self._cache[(seat, first_event)] = hit
        return hit

    def hello_for(self, seat: Optional[int]) -> Dict[str, Any]:
        return {"type": "hello", "table": self.id, "game": self.game.game_id, "name": self.game.name,
                "seat": seat,
                "num_players": self.game.num_players, "seats": self.seat_info(),
                "practice": self.practice, "hotseat": self.hotseat,
                "fixed_hand": bool(self.game.spec.fixed_hand)}

    # ---------------------------------------------------------------- moves
    def apply(self, seat: int, action: int) -> tuple:
        """Apply ``action`` for ``seat`` to the table's state (replay and tests; the server
        uses :meth:`applied` then :meth:`swap`): raises ``IllegalActionError`` (state
        unchanged) when it is not that seat's turn or not legal. Returns the log row."""
        state, rows = self.applied(seat, [action], self.state)
        self.log.extend(rows)
        return rows[0]

    def applied(self, seat: int, actions: List[int], state=None) -> tuple:
        """``(state, rows)``: ``actions`` of ``seat`` applied one after another to a copy of
        the table's state (``state``: to this one in place), with the log rows to commit.
        Raises ``IllegalActionError`` when one is refused; the table is unchanged either way
        until :meth:`swap`."""
        st = self.state.clone() if state is None else state
        rows = []
        for a in actions:
            if st.is_terminal():
                raise IllegalActionError("the game is over")
            if st.current_player() != seat:
                raise IllegalActionError(f"it is seat {st.current_player() + 1}'s turn, not seat "
                                         f"{seat + 1}'s (seats from 1)")
            st.apply_action(int(a))
            rows.append((seat, int(a), fingerprint(st)))
        return st, rows

    def swap(self, state, rows: List[tuple]) -> None:
        """Make ``state`` (from :meth:`applied`, its rows committed) the table's state."""
        self.state = state
        self.log.extend(rows)
        self.updated = time.time()

    def replay(self, log: List[tuple]) -> None:
        """Rebuild from the seed and ``log``; raises ``KrazyError`` when an action is illegal
        or a fingerprint differs (the log does not belong to this deal)."""
        for n, (seat, action, fp) in enumerate(log):
            try:
                self.apply(seat, action)
            except KrazyError as e:
                raise KrazyError(f"table {self.id}: action {n} does not replay: {e}") from None
            if self.log[-1][2] != fp:
                raise KrazyError(f"table {self.id}: state after action {n} differs from the stored one")

    def _laydown_words(self, s, name):
        f = getattr(s.game.spec.words, name, None)
        if f is None:
            raise IllegalActionError(f"whole-meld lay-downs are not a move of {s.game.name}")
        return f

    def laydown_check(self, seat: int, melds: Any, state=None) -> List[List[int]]:
        """The cheap checks of a whole-meld lay-down, run on the event loop before any search
        (the game's ``words.laydown_check``, on ``state``, default the table's). Returns the
        melds; raises ``IllegalActionError`` saying why (also in a game without the move)."""
        s = self.state if state is None else state
        return self._laydown_words(s, "laydown_check")(s, seat, melds)

    def laydown_plan(self, seat: int, melds: List[List[int]], state=None, budget: float = LAYDOWN_BUDGET) -> List[int]:
        """The actions that go down with exactly these whole melds (the game's
        ``words.laydown_plan``: a search of at most ``LAYDOWN_NODES`` states and ``budget``
        seconds over clones of ``state``, default the table's; the server passes a copy and
        runs this off the event loop). Raises ``IllegalActionError`` when no order of moves
        lays them or the search ran out of its budget."""
        s = self.state if state is None else state
        return self._laydown_words(s, "laydown_plan")(s, seat, melds, budget, LAYDOWN_NODES)

    def bot_seat(self) -> Optional[int]:
        p = self.state.current_player()
        if self.state.is_terminal() or p < 0 or self.seats[p]["kind"] != "bot":
            return None
        return p

    def bot_move(self, seat: int, state, budget: float = MOVE_BUDGET) -> int:
        """Runs in a worker thread: the bot's move on a clone (the search releases the GIL;
        a search bot stops after ``budget`` seconds)."""
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = server_bot(self.seats[seat]["bot"], self.seed * 8 + seat, budget)
        return bot.step(state)

    def search_seats(self) -> int:
        """Seats of this table whose bot searches (while the game is not over)."""
        if self.state.is_terminal():
            return 0
        return sum(1 for s in self.seats if s["kind"] == "bot" and is_search_bot(s.get("bot")))





def new_token() -> str:
    return secrets.token_urlsafe(18)


def new_table_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def build_table(req: Dict[str, Any], seed: Optional[int] = None, *, owner: str = "") -> Table:
    """A new table from a lobby request ``{"game", "seats": [{"kind": "human"|"bot",
    "bot": word, "name"}], "options": {}, "think"?, "practice"?, "seed"?, "hotseat"?}``.

    A ``seed`` is taken only with ``"practice": true`` (every seat is told the table is a
    practice one: whoever chose the seed can know every hand). Secrets: with ``"hotseat":
    true`` (shown to every seat) every human seat gets a token, all for the creator's
    device; otherwise the first human seat gets the creator's token and every other human
    seat an invite code, whose token is minted when the invite is claimed. The plain secrets
    are in ``table.fresh_secrets`` (``{"tokens": {seat: token}, "invites": {seat: code}}``)
    for the create answer only; the table keeps their SHA-256. Raises ``ConfigError``."""
    if not isinstance(req, dict):
        raise ConfigError("the request must be a JSON object")
    game_id = req.get("game")
    if game_id not in krazy_core.available_games():
        raise ConfigError(f"game must be one of {', '.join(krazy_core.available_games())}")
    seats_in = req.get("seats")
    if not isinstance(seats_in, list) or not 2 <= len(seats_in) <= 8:
        raise ConfigError("seats must be a list of 2..8 seats")
    options = req.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ConfigError(f"options must be an object (name: value), not {type(options).__name__}")
    if len(options) > MAX_OPTIONS:
        raise ConfigError(f"options has {len(options)} names; at most {MAX_OPTIONS} (see GET /api/games "
                          f"for this game's options)")
    for k, v in options.items():
        check_text(k, "an option name")
        if isinstance(v, str):
            check_text(v, f"option {k}")
        elif not (v is None or isinstance(v, (bool, int, float))):
            raise ConfigError(f"option {k} must be a number, a boolean or a string")
    options = {str(k): v for k, v in options.items() if k != "num_players"}
    krazy_core.make(game_id, num_players=len(seats_in), **options)   # ConfigError when bad
    flags = {}
    for key in ("practice", "hotseat"):
        flags[key] = req.get(key, False)
        if type(flags[key]) is not bool:
            raise ConfigError(f"{key} must be true or false")
    seats = []
    tokens: Dict[int, str] = {}
    invites: Dict[int, str] = {}
    for i, s in enumerate(seats_in):
        if not isinstance(s, dict):
            raise ConfigError(f"seats[{i}] (seat {i + 1}): a seat is an object such as "
                              f'{{"kind": "human"}} or {{"kind": "bot", "bot": "hard"}}, got {str(s)[:40]!r}')
        if s.get("kind") not in ("human", "bot"):
            raise ConfigError(f"seats[{i}] (seat {i + 1}): kind must be human or bot")
        name = s.get("name") or (f"Player {i + 1}" if s["kind"] == "human" else f"Bot {i + 1}")
        try:
            check_text(name, "name")
            if not name.strip():
                raise ConfigError("name must have a letter or digit in it, not only spaces")
        except ConfigError as e:
            raise ConfigError(f"seats[{i}] (seat {i + 1}): {e}") from None
        if s["kind"] == "bot":
            seats.append({"kind": "bot", "bot": check_bot(s.get("bot", "heuristic")), "name": name,
                          "token_hash": None, "invite_hash": None})
        elif flags["hotseat"] or not tokens:
            tokens[i] = new_token()
            seats.append({"kind": "human", "bot": None, "name": name, "token_hash": secret_hash(tokens[i]),
                          "invite_hash": None})
        else:
            invites[i] = new_token()
            seats.append({"kind": "human", "bot": None, "name": name, "token_hash": None,
                          "invite_hash": secret_hash(invites[i])})
    think = req.get("think", 0.6)
    if type(think) not in (int, float) or not 0 <= think <= MAX_THINK:
        raise ConfigError(f"think must be 0..{MAX_THINK} seconds")
    if seed is None:
        seed = req.get("seed")
        if seed is not None and not flags["practice"]:
            raise ConfigError("a seed is for practice tables only: send \"practice\": true as well (every "
                              "seat is told; whoever knows the seed knows every hand)")
    if seed is None:
        seed = secrets.randbits(48)
    if type(seed) is not int or not 0 <= seed < 2 ** 63:
        raise ConfigError("seed must be an int in [0, 2**63)")
    t = Table(new_table_id(), game_id, len(seats), options, seed, seats, float(think),
              {**flags, "owner": owner})
    t.fresh_secrets = {"tokens": tokens, "invites": invites}
    return t
