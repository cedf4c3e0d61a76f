"""The ASGI app of ``krazy serve`` (Starlette): HTTP lobby routes, one WebSocket per seat.

Routes:
- ``GET /`` the browser table; ``GET /static/...`` its files
- ``GET /api/games`` games, player ranges, options, bot words
- ``GET /api/games/{id}/rules`` the game's numbered rules as data (``id``, ``text``, under
  their ``section``) and the whole Markdown text
- ``POST /api/tables`` create a table (body: ``tables.build_table``'s request, sent as
  ``Content-Type: application/json``; a request with an ``Origin`` other than this server's
  is refused, 403); answers the table id and, per human seat, the creator's token (its own
  seat, or every seat of a ``hotseat`` table) or an invite link (only ever to the creator)
- ``POST /api/tables/{id}/claim`` ``{"invite": CODE}``: the invited seat's token, minted
  now (once per invite)
- ``GET /api/tables?offset=0&limit=50`` the open tables (not over), newest first, paged;
  ``GET /api/tables/{id}`` one table's public facts (no tokens)
- ``WS /ws/{id}``: the first message ``{"type": "join", "token": T}`` makes the connection
  that seat's (``{"type": "join"}``: a spectator). ``?token=T`` in the URL still works for
  one release (deprecated: a proxy logs URLs); a connection that sends nothing within
  ``JOIN_WAIT`` seconds is a spectator.

WebSocket messages are JSON (``schemas/protocol.json``). Client: ``join``, ``{"type":
"action", "action": ID, "version": V}``, ``{"type": "laydown", "melds": [[cards]...],
"version": V}``, ``{"type": "hint", "version": V}``, ``{"type": "sync", "since"?: N}`` (at most
one a second), ``{"type": "ping"}``. Server: ``hello``, ``update`` (after every change, to
every connection, each its own view), ``seats`` (a seat connected or left; spectators are
counted in the lobby, not announced), ``error`` (``code``: ``bad_json``, ``too_large``,
``bad_message``, ``rate_limited``, ``stale``, ``illegal``, ``not_your_seat``,
``spectator``, ``busy``, ``not_recorded``, ``too_many_connections``, ``expired``), ``hint``,
``pong``. An error never stops the table or the server; a connection that keeps flooding is
closed (code 1008), one that does not read what it is sent is closed (4008).

Limits (:class:`Limits`, ``create_app(limits=...)``): messages per second per connection,
per seat and per client address; connections per address, per table and per token; open
and live tables per address, live tables per server, search-bot seats per server and per
address. Nothing slow runs on the event loop: bot moves, hints and lay-down searches run in
worker threads (:class:`Scheduler`: searches round robin over the client addresses that own
the tables, a search move stops after ``Limits.move_budget`` seconds; random and heuristic
bots have a thread of their own), and every send goes through a bounded queue per connection
with a send timeout. Every change is applied to a copy of the table's state, committed to
SQLite, and only then made the table's state and sent: a failed write changes nothing any
client sees (the mover hears ``not_recorded``).

Expiry: a finished table is deleted ``Limits.finished_ttl`` seconds (default 1 hour) after
its last action, an unfinished one after ``Limits.idle_ttl`` seconds (default 7 days)
without an action; checked every ``Limits.expire_every`` seconds and at start."""
import asyncio
import contextlib
import json
import logging
import os
import re
import time
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, Callable, Deque, Dict, Optional

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import krazy_core
from krazy_core import protocol
from krazy_core.bots.levels import LEVEL_NAMES, level_choices
from krazy_core.errors import ConfigError, IllegalActionError, KrazyError
from krazy_core.game import get_spec
from krazy_core.server.guards import (JOIN_WAIT, MAX_BODY, MAX_MESSAGE, MAX_STRIKES, Bucket, Limits,
                                      SecurityHeaders, _address, _install_log_filter, json_response,
                                      safe_dumps, same_origin)
from krazy_core.server.db import Store, secret_hash
from krazy_core.server.tables import Table, build_table, dumps, is_search_bot, new_token
from krazy_core.search.bot import ISMCTSBot

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
log = logging.getLogger("krazy_core.server")


class Scheduler:
    """Worker threads for bot moves, hints and lay-down searches, shared fairly.

    Search jobs (search-bot moves, hints) wait in one queue per owner (the client address
    that created the table, or that asked for the hint) and start round robin over the
    owners, ``workers`` at a time: one client's many searching tables take one owner's
    turn, not every worker. Quick jobs (random and heuristic bots, a few ms) have a thread
    of their own and never wait behind a search; lay-down searches have another."""

    def __init__(self, workers: int = 2):
        self.workers = max(1, int(workers))
        self.pool = ThreadPoolExecutor(self.workers, thread_name_prefix="krazy-search")
        self.quick = ThreadPoolExecutor(1, thread_name_prefix="krazy-quick")
        self.laydowns = ThreadPoolExecutor(1, thread_name_prefix="krazy-laydown")
        self.running = 0
        self.waiting: "OrderedDict[str, Deque[tuple]]" = OrderedDict()
        self.started: Dict[str, int] = {}    # jobs started per owner (tests, benches)

    async def run(self, owner: str, fn: Callable[[], Any], lane: str = "search") -> Any:
        """``fn()`` in a worker thread of ``lane`` (``search``, ``quick``, ``laydown``)."""
        loop = asyncio.get_running_loop()
        if lane == "quick":
            return await loop.run_in_executor(self.quick, fn)
        if lane == "laydown":
            return await loop.run_in_executor(self.laydowns, fn)
        fut = loop.create_future()
        self.waiting.setdefault(owner, deque()).append((fn, fut))
        self._pump(loop)
        return await fut

    def _pump(self, loop) -> None:
        while self.running < self.workers and self.waiting:
            owner, q = next(iter(self.waiting.items()))
            fn, fut = q.popleft()
            if q:
                self.waiting.move_to_end(owner)      # this owner's next job waits its turn
            else:
                del self.waiting[owner]
            if fut.done():                           # its waiter went away
                continue
            self.running += 1
            self.started[owner] = self.started.get(owner, 0) + 1
            cf = loop.run_in_executor(self.pool, fn)
            cf.add_done_callback(partial(self._done, loop, fut))

    def _done(self, loop, fut, cf) -> None:
        self.running -= 1
        if not fut.done():
            if cf.cancelled():
                fut.cancel()
            elif cf.exception() is not None:
                fut.set_exception(cf.exception())
            else:
                fut.set_result(cf.result())
        self._pump(loop)

    def shutdown(self) -> None:
        for p in (self.pool, self.quick, self.laydowns):
            p.shutdown(wait=False, cancel_futures=True)


class Conn:
    """One WebSocket: its table, its seat (``None``: spectator), its client address, its
    rate bucket, and its outbound queue: :meth:`push` never waits; a writer task sends in
    order, and a reader that lets ``Limits.queue`` messages pile up or keeps one send
    waiting ``Limits.send_timeout`` seconds is closed (4008)."""

    def __init__(self, server: "Server", ws: WebSocket, table: Table, seat: Optional[int], addr: str):
        lim = server.limits
        self.server = server
        self.ws = ws
        self.table = table
        self.seat = seat
        self.addr = addr
        self.events_sent = 0
        self.bucket = Bucket(lim.rate, lim.burst)
        self.strikes = 0
        self.sent = 0
        self.version_sent = -1          # the version of the last update sent here
        self.last_sync = -1e9
        self.closed = False
        self.why_closed: Optional[str] = None
        self.q: Deque[str] = deque()
        self.sending_since: Optional[float] = None     # loop time the send in progress began
        self._waiter: Optional[asyncio.Future] = None   # the idle writer waits on it
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def allow(self) -> bool:
        """One message's worth of the connection's, the seat's and the address's buckets."""
        now = time.monotonic()
        ok = self.bucket.take(now) and self.server.address_bucket(self.addr).take(now)
        if ok and self.seat is not None:
            ok = self.server.seat_bucket(self.table, self.seat).take(now)
        if not ok:
            self.strikes += 1
        return ok

    def push(self, text: str) -> None:
        """Queue one message (never waits)."""
        if self.closed:
            return
        if len(self.q) >= self.server.limits.queue:
            self.close(4008, "too slow: the messages for this connection piled up")
            return
        self.q.append(text)
        w = self._waiter
        if w is not None and not w.done():
            w.set_result(None)

    def send(self, msg: Dict[str, Any]) -> None:
        self.push(safe_dumps(msg))

    def send_update(self, force: bool = False) -> None:
        """Queue this connection's ``update`` of the table as it is now. A broadcast that
        finds the connection already told of this version sends nothing (two actions
        committed in one transaction are one update); ``force`` sends it anyway (join,
        sync, stale)."""
        t = self.table
        if not force and self.version_sent == t.version:
            return
        self.version_sent = t.version
        text, n = t.update_text(self.seat, self.events_sent)
        self.events_sent += n
        self.push(text)

    async def _write(self) -> None:
        # no wait_for per send (a task and a timer each: a quarter of the server's CPU per
        # action at 1,000 seats); the server's watchdog closes a send stuck past the timeout
        loop = asyncio.get_running_loop()
        while not self.closed:
            if not self.q:
                self._waiter = loop.create_future()
                await self._waiter
                self._waiter = None
                continue
            text = self.q.popleft()
            self.sending_since = loop.time()
            try:
                await self.ws.send_text(text)
                self.sent += 1
            except asyncio.CancelledError:
                raise
            except Exception:   # a closed socket: its reader ends the connection
                self.sending_since = None
                self.close(None, None)
                return
            self.sending_since = None

    def stuck(self, now: float) -> bool:
        """Whether one send has waited longer than ``Limits.send_timeout`` (the watchdog's
        question)."""
        return self.sending_since is not None and now - self.sending_since > self.server.limits.send_timeout

    def close(self, code: Optional[int], why: Optional[str]) -> None:
        """Stop sending, leave the table, and close the socket in the background (a close
        that cannot be written is abandoned after 2 s)."""
        if self.closed:
            return
        self.closed = True
        self.why_closed = why
        self.q.clear()
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)
        self.server.left(self)
        if self.sending_since is not None:           # stuck in a send: stop waiting for it
            self.writer.cancel()
        if code is not None:
            async def bye():
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.ws.close(code, (why or "")[:120]), 2.0)
            t = asyncio.get_running_loop().create_task(bye())
            self.server.background.add(t)
            t.add_done_callback(self.server.background.discard)


class CommitError(KrazyError):
    """The database did not take a change (disk full, I/O error): nothing was applied."""


class Server:
    def __init__(self, db_path: str = ":memory:", bot_think_scale: float = 1.0,
                 limits: Optional[Limits] = None):
        self.limits = limits or Limits()
        self.store = Store(db_path)             # StoreError: a file it cannot use
        self.tables: Dict[str, Table] = {}
        self.think_scale = bot_think_scale
        self.loaded = 0
        self.sched = Scheduler(self.limits.workers)
        self._pending: list = []               # (table id, first n, rows) not yet committed
        self._flushed: Optional[asyncio.Future] = None
        self.broken: Dict[str, str] = {}     # table id -> why it is not served
        self.addr_conns: Dict[str, int] = {}
        self._addr_buckets: Dict[str, Bucket] = {}
        self._create_buckets: Dict[str, Bucket] = {}
        self._seat_buckets: Dict[tuple, Bucket] = {}
        self._seats_dirty: set = set()
        self.background: set = set()
        self.commit_failures = 0
        self._touched: set = set()             # tables that moved since save_times()
        for rec in self.store.load_all():
            if "error" in rec:
                self.broken[rec["id"]] = rec["error"]
                continue
            try:
                t = Table(rec["id"], rec["game"], rec["num_players"], rec["options"], rec["seed"],
                          rec["seats"], rec["think"], rec.get("meta"))
                t.replay(rec["log"])
            except Exception as e:
                # a log that does not replay (edited, or written by an engine whose rules
                # have changed), or a row that does not make a table, is left in the file
                # untouched and not served; the other tables are
                self.broken[rec["id"]] = (str(e) if isinstance(e, KrazyError) else f"{type(e).__name__}: {e}")[:300]
                continue
            # a time ahead of this clock (the clock was set back since) counts as now
            t.updated = min(rec["updated"] or time.time(), time.time())
            self.tables[t.id] = t
            self.loaded += 1
        self.expire()

    # ------------------------------------------------------------------ limits
    def address_bucket(self, addr: str) -> Bucket:
        b = self._addr_buckets.get(addr)
        if b is None:
            b = self._addr_buckets[addr] = Bucket(self.limits.address_rate, self.limits.address_burst)
        return b

    def seat_bucket(self, t: Table, seat: int) -> Bucket:
        b = self._seat_buckets.get((t.id, seat))
        if b is None:
            b = self._seat_buckets[(t.id, seat)] = Bucket(self.limits.seat_rate, self.limits.seat_burst)
        return b

    def search_seats(self, owner: Optional[str] = None) -> int:
        return sum(t.search_seats() for t in self.tables.values() if owner is None or t.owner == owner)

    # ------------------------------------------------------------------ tables
    def create(self, req: Dict[str, Any], address: Optional[str] = None) -> Table:
        """A new table (``build_table``), stored. ``address`` (the client's, from the HTTP
        route) is its owner, held to the per-address caps. Raises ``ConfigError`` (a bad
        request, or a cap: ``e.status`` 429 then)."""
        lim = self.limits
        if len(self.tables) >= lim.tables:
            raise _busy(f"this server has as many tables as it takes ({lim.tables}); finished tables are "
                        f"deleted {lim.finished_ttl / 3600:g} h after their last move")
        if address is not None:
            mine = [t for t in self.tables.values() if t.owner == address]
            if len(mine) >= lim.tables_per_address:
                raise _busy(f"your address has {len(mine)} tables here, the most it may have")
            if sum(1 for t in mine if not t.state.is_terminal()) >= lim.open_tables_per_address:
                raise _busy(f"your address has {lim.open_tables_per_address} unfinished tables here, the "
                            f"most it may have; finish or leave one first")
            b = self._create_buckets.get(address)
            if b is None:
                b = self._create_buckets[address] = Bucket(lim.creates_rate, lim.creates_burst)
            if not b.take():
                raise _busy("too many tables created from your address just now; wait a little")
        t = build_table(req, owner=address or "")
        wanted = t.search_seats()
        if wanted:
            if self.search_seats() + wanted > lim.search_seats:
                raise _busy(f"this server runs at most {lim.search_seats} searching bot seats (ismcts) at "
                            f"once; choose random or heuristic bots, or wait for a game to end")
            if address is not None and self.search_seats(address) + wanted > lim.search_seats_per_address:
                raise _busy(f"your address may run at most {lim.search_seats_per_address} searching bot "
                            f"seats (ismcts) at once")
        self.store.add_table(t.record())
        self.tables[t.id] = t
        return t

    def claim(self, t: Table, code: Any) -> tuple:
        """``(seat, token)``: the seat of invite ``code``, its token minted now (the invite
        is spent). Raises ``ConfigError`` when the code is no open invite of ``t``."""
        seat = t.seat_of_invite(code)
        if seat is None:
            raise ConfigError("that invite is not valid here, or it was claimed already")
        token = new_token()
        seats = [dict(s) for s in t.seats]
        seats[seat].update(token_hash=secret_hash(token), invite_hash=None)
        self.store.set_seats(t.id, seats)       # raises: nothing changed
        t.seats = seats
        return seat, token

    def expire(self, now: Optional[float] = None) -> list:
        """Delete the tables past their time (module docstring); returns their ids."""
        now = time.time() if now is None else now
        lim = self.limits
        gone = [t for t in self.tables.values()
                if now - t.updated >= (lim.finished_ttl if t.state.is_terminal() else lim.idle_ttl)]
        if not gone:
            return []
        try:
            self.store.delete_tables([t.id for t in gone])
        except Exception as e:
            log.error("krazy serve: expired tables not deleted: %s", e)
            return []
        for t in gone:
            self.tables.pop(t.id, None)
            if t.bot_task is not None:
                t.bot_task.cancel()
            for c in list(t.conns):
                c.send({"type": "error", "code": "expired", "reason": "this table has expired"})
                c.close(4410, "table expired")
            for k in [k for k in self._seat_buckets if k[0] == t.id]:
                del self._seat_buckets[k]
        for d in (self._addr_buckets, self._create_buckets):
            full = [a for a, b in d.items() if a not in self.addr_conns and b.full()]
            for a in full:
                del d[a]
        return [t.id for t in gone]

    async def _expire_loop(self) -> None:
        while True:
            await asyncio.sleep(self.limits.expire_every)
            self.save_times()
            self.expire()

    def save_times(self) -> None:
        """Write the last-move times of the tables that moved since the last call (once per
        expiry sweep, not per commit: a crash loses at most a sweep's worth of idle time)."""
        touched, self._touched = self._touched, set()
        rows = [(self.tables[i].updated, i) for i in touched if i in self.tables]
        try:
            self.store.set_updated(rows)
        except Exception as e:
            log.error("krazy serve: last-move times not saved: %s", e)

    async def _watch_sends(self) -> None:
        """Every half timeout: close the connections whose send has waited past
        ``Limits.send_timeout`` (a reader that does not read)."""
        loop = asyncio.get_running_loop()
        timeout = self.limits.send_timeout
        while True:
            await asyncio.sleep(max(0.05, timeout / 2))
            now = loop.time()
            for c in [c for t in self.tables.values() for c in t.conns if c.stuck(now)]:
                c.close(4008, f"too slow: one message waited {timeout:g} s to be sent")

    def broadcast(self, t: Table) -> None:
        for c in list(t.conns):
            c.send_update()

    def left(self, c: Conn) -> None:
        if c.table.leave(c):
            self.seats_changed(c.table)
        n = self.addr_conns.get(c.addr, 0) - 1
        if n > 0:
            self.addr_conns[c.addr] = n
        else:
            self.addr_conns.pop(c.addr, None)

    def seats_changed(self, t: Table) -> None:
        """A seat connected or left: one ``seats`` message per table per event-loop turn."""
        if not self._seats_dirty:
            asyncio.get_running_loop().call_soon(self._send_seats)
        self._seats_dirty.add(t)

    def _send_seats(self) -> None:
        dirty, self._seats_dirty = self._seats_dirty, set()
        for t in dirty:
            text = dumps({"type": "seats", "seats": t.seat_info()})
            for c in list(t.conns):
                c.push(text)

    async def persist(self, t: Table, first_n: int, rows) -> None:
        """Commit ``rows`` (the table's next actions from ``first_n``) to SQLite before anyone
        is told of them (a ``kill -9`` never loses an action a client saw). Every action of
        one turn of the event loop goes in one transaction: the commit is scheduled with
        ``call_soon`` and the callers wait for it. Raises ``CommitError``."""
        self._pending.append((t.id, first_n, rows))
        if self._flushed is None:
            loop = asyncio.get_running_loop()
            self._flushed = loop.create_future()
            loop.call_soon(self._flush)
        await asyncio.shield(self._flushed)

    def _flush(self) -> None:
        batches, fut = self._pending, self._flushed
        self._pending, self._flushed = [], None
        assert fut is not None              # persist() made it before scheduling this call
        try:
            self.store.add_batches(batches)
        except BaseException as e:          # the disk failed: every waiting action hears it
            self.commit_failures += 1
            log.error("krazy serve: %d action(s) not recorded: %s: %s", sum(len(b[2]) for b in batches),
                      type(e).__name__, str(e)[:200])
            fut.set_exception(CommitError(f"{type(e).__name__}: {str(e)[:200]}"))
            fut.exception()                 # retrieved here: no "never retrieved" warning
            return
        fut.set_result(None)

    async def commit(self, t: Table, seat: int, actions) -> None:
        """Apply ``actions`` of ``seat`` on a copy, commit them, then make the copy the
        table's state and tell everyone. Call with ``t.lock`` held. Raises
        ``IllegalActionError`` or ``CommitError``, the table unchanged."""
        state, rows = t.applied(seat, actions)
        await self.persist(t, t.version, rows)
        t.swap(state, rows)
        self._touched.add(t.id)
        self.broadcast(t)
        self.kick_bots(t)

    def kick_bots(self, t: Table) -> None:
        if t.bot_seat() is not None and (t.bot_task is None or t.bot_task.done()) and t.id in self.tables:
            t.bot_task = asyncio.get_running_loop().create_task(self._bots(t))

    async def _bots(self, t: Table) -> None:
        retry = 0.0
        while t.id in self.tables:
            seat = t.bot_seat()
            if seat is None:
                return
            version = t.version
            await asyncio.sleep(retry or t.think * self.think_scale)
            if t.version != version or t.bot_seat() != seat:
                continue
            word = t.seats[seat]["bot"]
            fn = partial(t.bot_move, seat, t.state.clone(), self.limits.move_budget)
            try:
                action = await self.sched.run(t.owner or t.id, fn, "search" if is_search_bot(word) else "quick")
            except asyncio.CancelledError:
                raise
            except Exception:   # a bot that fails plays a random legal move (never stops the table)
                action = t.state.random_action()
            async with t.lock:
                if t.version != version or t.bot_seat() != seat:
                    continue
                try:
                    await self.commit(t, seat, [action])
                    retry = 0.0
                except CommitError:     # the disk failed: the bot tries again, later
                    retry = min(30.0, max(0.5, retry * 2))
                except IllegalActionError:
                    retry = 0.5

    def start_all_bots(self) -> None:
        for t in self.tables.values():
            self.kick_bots(t)

    # ------------------------------------------------------------------ a socket
    async def handle(self, c: Conn, raw: Any) -> Optional[Dict[str, Any]]:
        """One client message; returns an error message to send back, or ``None``."""
        t = c.table
        if not isinstance(raw, str):
            return {"type": "error", "code": "bad_message", "reason": "messages are JSON text"}
        if len(raw.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
            return {"type": "error", "code": "too_large", "reason": f"a message is at most {MAX_MESSAGE} bytes"}
        if not c.allow():
            return {"type": "error", "code": "rate_limited",
                    "reason": f"at most {self.limits.rate:.0f} messages a second (fewer from one address)"}
        try:
            msg = json.loads(raw)
        except RecursionError:
            return {"type": "error", "code": "bad_json", "reason": "JSON nested too deeply (a message is a flat object)"}
        except ValueError as e:
            return {"type": "error", "code": "bad_json", "reason": f"not valid JSON ({str(e)[:80]})"}
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            return {"type": "error", "code": "bad_message", "reason": "a message is an object with a type"}
        kind = msg["type"]
        if kind == "ping":
            return {"type": "pong"}
        if kind == "join":
            return {"type": "error", "code": "bad_message", "reason": "join is the first message only"}
        if kind == "sync":
            now = time.monotonic()
            if now - c.last_sync < self.limits.sync_interval:
                return {"type": "error", "code": "rate_limited",
                        "reason": f"at most one sync every {self.limits.sync_interval:g} s"}
            c.last_sync = now
            since = msg.get("since")
            c.events_sent = since if type(since) is int and 0 <= since <= t.state.num_events else 0
            c.send(t.hello_for(c.seat))
            c.send_update(force=True)
            return None
        if kind not in ("action", "laydown", "hint"):
            return {"type": "error", "code": "bad_message", "reason": f"unknown message type {kind[:40]!r}"}
        if c.seat is None:
            return {"type": "error", "code": "spectator", "reason": "a spectator cannot act; join a seat with its token"}
        version = msg.get("version")
        if type(version) is not int:
            return {"type": "error", "code": "bad_message", "reason": "version must be an int"}
        if kind == "action" and type(msg.get("action")) is not int:
            # what is wrong with the message first, whatever the table's version
            return {"type": "error", "code": "bad_message", "reason": "action must be an int id"}
        if version != t.version:
            c.send_update(force=True)
            return _stale(t, version)
        if kind == "hint":
            return await self.hint(c)
        if t.state.current_player() != c.seat or t.state.is_terminal():
            return {"type": "error", "code": "illegal", "version": t.version,
                    "reason": "the game is over" if t.state.is_terminal() else
                    f"it is {t.seats[t.state.current_player()]['name']}'s turn (seat "
                    f"{t.state.current_player() + 1})"}     # seats from 1, as the lobby and the table
        try:
            if kind == "action":
                a = msg.get("action")
                if type(a) is not int:
                    return {"type": "error", "code": "bad_message", "reason": "action must be an int id"}
                plan = [a]
            else:
                plan = await self.laydown(c, msg.get("melds"))
                if isinstance(plan, dict):
                    return plan
            async with t.lock:
                if t.version != version:
                    return _stale(t, version)
                await self.commit(t, c.seat, plan)
        except (IllegalActionError, CommitError, ValueError, TypeError) as e:
            if isinstance(e, CommitError):
                return {"type": "error", "code": "not_recorded", "version": t.version,
                        "reason": "the server could not record your move (a storage error); it was not "
                                  "made and nothing changed: send it again"}
            reason = str(e)
            if kind == "action" and isinstance(e, IllegalActionError) and type(msg.get("action")) is int:
                # the player's words with the rule (State.explain), not the engine's message
                reason = t.state.explain(msg["action"]) or reason
            return {"type": "error", "code": "illegal", "version": t.version, "reason": reason[:300]}
        return None

    async def laydown(self, c: Conn, melds: Any):
        """The plan of a whole-meld lay-down: cheap checks here, the search in the lay-down
        thread (one per table at a time, ``Limits.laydown_budget`` seconds). Returns the
        actions, or an error message; raises ``IllegalActionError``."""
        t = c.table
        if c.seat is None:                              # handle() refused spectators already
            raise IllegalActionError("a spectator cannot lay down")
        melds = t.laydown_check(c.seat, melds)          # cheap: held, meld shapes, count
        if "laydown" in t.busy:
            return {"type": "error", "code": "busy", "reason": "a lay-down of this table is being placed"}
        t.busy.add("laydown")
        try:
            fn = partial(t.laydown_plan, c.seat, melds, t.state.clone(), self.limits.laydown_budget)
            return await self.sched.run(c.addr, fn, "laydown")
        finally:
            t.busy.discard("laydown")

    async def hint(self, c: Conn) -> Dict[str, Any]:
        t = c.table
        if t.state.current_player() != c.seat or t.state.is_terminal():
            return {"type": "error", "code": "illegal", "reason": "a hint is for the seat to move"}
        if "hint" in t.busy:
            return {"type": "error", "code": "busy", "reason": "a hint for this table is being searched"}
        version = t.version
        view = t.state.clone()
        iters, budget = self.limits.hint_iterations, self.limits.hint_budget

        def think():
            try:
                return ISMCTSBot(iterations=iters, time_limit=budget, seed=version).step(view)
            except Exception:
                return view.heuristic_action(seed=version)
        t.busy.add("hint")
        try:
            a = await self.sched.run(c.addr, think)
        finally:
            t.busy.discard("hint")
        if t.version != version:
            return {"type": "error", "code": "stale", "version": t.version, "reason": "the table moved on"}
        return {"type": "hint", "version": version, "action": protocol.describe_action(t.state, a)}


def _busy(msg: str) -> ConfigError:
    e = ConfigError(msg)
    e.status = 429              # type: ignore[attr-defined]
    return e


def _stale(t: Table, version: Any) -> Dict[str, Any]:
    return {"type": "error", "code": "stale", "version": t.version,
            "reason": f"the table is at version {t.version}, your message answers {version}"}


def _games() -> Dict[str, Any]:
    out = []
    for gid in krazy_core.available_games():
        spec = get_spec(gid)
        out.append({"id": gid, "name": spec.name, "min_players": spec.min_players,
                    "max_players": spec.max_players, "default_players": krazy_core.make(gid).num_players,
                    "options": [{"name": o.name, "default": o.default, "doc": o.doc, "rule": o.rule}
                                for o in spec.options]})
    # the levels first (one vocabulary with the terminal and make_bot), then the bot words
    return {"games": out, "bots": list(LEVEL_NAMES) + ["random", "heuristic", "ismcts:200", "ismcts:1000",
                                                        "ismcts:5000"],
            "levels": level_choices()}


_RULE_ID = re.compile(r"^- \*\*([A-Z]{2}-\d+[a-z]?)")


def _rules(gid: str) -> Dict[str, Any]:
    """A game's numbered rules as data: each rule's id and text (``spec.rule``), under the
    heading it stands in, in the order of ``spec.rules_text()``."""
    spec = get_spec(gid)
    text = spec.rules_text()
    rules, section = [], ""
    for line in text.splitlines():
        if line.startswith("#"):
            section = line.lstrip("#").strip()
            continue
        m = _RULE_ID.match(line)
        if m:
            rules.append({"id": m.group(1), "section": section, "text": spec.rule(m.group(1))})
    return {"game": gid, "name": spec.name, "rules": rules, "text": text}


def create_app(db_path: str = ":memory:", bot_think_scale: float = 1.0,
               limits: Optional[Limits] = None) -> Starlette:
    """The app over one SQLite file; tables in it are loaded (replayed and checked) now and
    their bots restart with the app. A table whose log does not replay (an action refused or
    a fingerprint that differs) or whose row cannot be read is not served: it stays in the
    file as it is, and ``app.state.server.broken`` maps its id to the reason. Raises
    ``StoreError`` (one line) when the file is no table database. ``bot_think_scale``
    multiplies every table's think time (tests use 0); ``limits``: :class:`Limits` (the
    expiry times among them)."""
    server = Server(db_path, bot_think_scale, limits)
    lim = server.limits
    _install_log_filter()

    async def index(request):
        return FileResponse(os.path.join(STATIC, "index.html"), headers={"Cache-Control": "no-cache"})

    async def games(request):
        return json_response(_games())

    async def rules(request):
        gid = request.path_params["gid"]
        if gid not in krazy_core.available_games():
            return json_response({"error": "no such game"}, 404)
        return json_response(_rules(gid))

    async def read_json(request):
        """The request's JSON body, or an error response."""
        if not same_origin(request.headers):
            return json_response({"error": "refused: this request comes from another site's page (its "
                                           "Origin is not this server)"}, 403)
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            return json_response({"error": "send the request as JSON (Content-Type: application/json)"}, 415)
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return json_response({"error": f"the body is at most {MAX_BODY} bytes"}, 413)
        try:
            return json.loads(body)
        except RecursionError:
            return json_response({"error": "JSON nested too deeply"}, 400)
        except ValueError as e:
            return json_response({"error": f"not valid JSON ({str(e)[:80]})"}, 400)

    async def create(request):
        req = await read_json(request)
        if isinstance(req, Response):
            return req
        try:
            t = server.create(req, _address(request))
        except KrazyError as e:
            return json_response({"error": str(e)[:300]}, getattr(e, "status", 400))
        except Exception as e:      # the file did not take the table (disk full...)
            log.error("krazy serve: a table was not stored: %s: %s", type(e).__name__, str(e)[:200])
            return json_response({"error": f"the table could not be stored ({type(e).__name__}); try again"}, 500)
        secrets_ = t.fresh_secrets
        t.fresh_secrets = {}
        base = str(request.base_url).rstrip("/")
        seats = []
        for i, s in enumerate(t.seats):
            if i in secrets_["tokens"]:
                tok = secrets_["tokens"][i]
                seats.append({"seat": i, "name": s["name"], "token": tok, "url": f"{base}/#table={t.id}&token={tok}"})
            elif i in secrets_["invites"]:
                code = secrets_["invites"][i]
                seats.append({"seat": i, "name": s["name"], "invite": code,
                              "url": f"{base}/#table={t.id}&invite={code}"})
        server.kick_bots(t)
        return json_response({**t.public(), "table": t.id, "seats": seats, "spectate": f"{base}/#table={t.id}"})

    async def claim(request):
        req = await read_json(request)
        if isinstance(req, Response):
            return req
        t = server.tables.get(request.path_params["tid"])
        if t is None:
            return json_response({"error": "no such table"}, 404)
        if not server.address_bucket(_address(request)).take():
            return json_response({"error": "too many requests from your address just now"}, 429)
        try:
            seat, token = server.claim(t, req.get("invite") if isinstance(req, dict) else None)
        except KrazyError as e:
            return json_response({"error": str(e)}, 403)
        except Exception as e:
            return json_response({"error": f"the claim could not be recorded ({type(e).__name__}); try again"}, 500)
        return json_response({"table": t.id, "seat": seat, "name": t.seats[seat]["name"], "token": token})

    async def list_tables(request):
        if not server.address_bucket(_address(request)).take():      # O(tables) a request
            return json_response({"error": "too many requests from your address just now"}, 429)
        try:
            offset = int(request.query_params.get("offset", 0))
            limit = int(request.query_params.get("limit", 50))
            if offset < 0 or not 1 <= limit <= 100:
                raise ValueError
        except ValueError:
            return json_response({"error": "offset is an int >= 0 and limit an int 1..100"}, 400)
        open_ = [t for t in reversed(list(server.tables.values())) if not t.state.is_terminal()]
        return json_response({"tables": [t.public() for t in open_[offset:offset + limit]],
                              "offset": offset, "limit": limit, "total": len(open_)})

    async def one_table(request):
        t = server.tables.get(request.path_params["tid"])
        if t is None:
            return json_response({"error": "no such table"}, 404)
        return json_response(t.public())

    async def refuse(ws, code, reason, close=4403):
        with contextlib.suppress(Exception):          # the client may be gone already
            await ws.send_text(safe_dumps({"type": "error", "code": code, "reason": reason}))
            await ws.close(close)

    async def ws_route(ws: WebSocket):
        if not same_origin(ws.headers):
            await ws.close(4403)            # before accept: an HTTP 403 to the handshake
            return
        t = server.tables.get(ws.path_params["tid"])
        addr = _address(ws)
        await ws.accept()
        if t is None:
            return await refuse(ws, "no_table", "no such table", 4404)
        if server.addr_conns.get(addr, 0) >= lim.conns_per_address:
            return await refuse(ws, "too_many_connections",
                                f"at most {lim.conns_per_address} connections from one address", 4429)
        if len(t.conns) >= lim.conns_per_table:
            return await refuse(ws, "too_many_connections",
                                f"at most {lim.conns_per_table} connections to one table", 4429)
        server.addr_conns[addr] = server.addr_conns.get(addr, 0) + 1
        c = None
        try:
            token = ws.query_params.get("token")      # deprecated: the first message carries it
            first = None
            if token is None:
                try:
                    m = await asyncio.wait_for(ws.receive(), JOIN_WAIT)
                except asyncio.TimeoutError:
                    m = {"type": "websocket.receive", "text": None}
                if m["type"] == "websocket.disconnect":
                    return
                first = m.get("text") if m.get("text") is not None else m.get("bytes")
                try:
                    j = json.loads(first) if isinstance(first, str) and len(first) <= MAX_MESSAGE else None
                except (ValueError, RecursionError):
                    j = None
                if isinstance(j, dict) and j.get("type") == "join":
                    token, first = j.get("token"), None
            seat = t.seat_of_token(token) if token is not None else None
            if token is not None and seat is None:
                return await refuse(ws, "not_your_seat", "that token is no seat's here")
            if seat is not None and t.seat_conns[seat] >= lim.conns_per_token:
                return await refuse(ws, "too_many_connections",
                                    f"at most {lim.conns_per_token} connections per seat", 4429)
            c = Conn(server, ws, t, seat, addr)
            if t.join(c):
                server.seats_changed(t)
            c.send(t.hello_for(seat))
            c.send_update(force=True)
            server.kick_bots(t)
            if first is not None:
                err = await server.handle(c, first)
                if err is not None:
                    c.send(err)
            while not c.closed:
                m = await ws.receive()
                if m["type"] == "websocket.disconnect":
                    break
                raw = m.get("text") if m.get("text") is not None else m.get("bytes")
                try:
                    err = await server.handle(c, raw)
                except Exception as e:   # never let one message stop the table or the server
                    log.error("krazy serve: a message failed: %s: %s", type(e).__name__, str(e)[:200])
                    err = {"type": "error", "code": "server", "reason": type(e).__name__}
                if err is not None:
                    c.send(err)
                if c.strikes > MAX_STRIKES:
                    why = "too many refused messages (flooding): closed"
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(ws.send_text(json.dumps(
                            {"type": "error", "code": "rate_limited", "reason": why})), 1.0)
                    c.close(None, "flooding")
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(ws.close(1008, why), 2.0)
                    break
        except WebSocketDisconnect:
            pass
        except Exception as e:      # a socket gone mid-send: one line, never a traceback
            log.info("krazy serve: a connection ended: %s: %s", type(e).__name__, str(e)[:200])
        finally:
            if c is None:
                n = server.addr_conns.get(addr, 1) - 1
                if n > 0:
                    server.addr_conns[addr] = n
                else:
                    server.addr_conns.pop(addr, None)
            else:
                c.close(None, None)
                c.writer.cancel()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        server.start_all_bots()
        loop = asyncio.get_running_loop()
        tasks = [loop.create_task(server._expire_loop()), loop.create_task(server._watch_sends())]
        yield
        for task in tasks:
            task.cancel()
        server.save_times()
        for t in server.tables.values():
            if t.bot_task is not None:
                t.bot_task.cancel()
        server.sched.shutdown()

    app = Starlette(routes=[
        Route("/", index),
        Route("/api/games", games),
        Route("/api/games/{gid}/rules", rules),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{tid}", one_table),
        Route("/api/tables/{tid}/claim", claim, methods=["POST"]),
        WebSocketRoute("/ws/{tid}", ws_route),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], lifespan=lifespan, middleware=[Middleware(SecurityHeaders)])
    app.state.server = server
    return app
