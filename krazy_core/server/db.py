"""SQLite persistence of tables (standard library ``sqlite3``, WAL journal).

A table is its row (game, players, options, seed, seats with the SHA-256 of their tokens and
invites, think time, flags, the time of its last action, saved once an expiry sweep) and its
action log: one row per applied action with the seat that made it and a short fingerprint of
the full state after it. A restart — even after ``kill -9`` — rebuilds every table by
replaying the log from the seed and checks each fingerprint (:meth:`Store.load_all`). WAL with ``synchronous=NORMAL``
keeps every committed action across a crash of the process.

Only a file that does not exist yet (or is empty) gets the schema. A file that is not an
SQLite database, a directory, or a database without the ``tables`` and ``actions`` tables
and their columns raises :class:`StoreError` with a one-line reason (nothing is created in
it); a row that cannot be read (bad JSON in ``seats``, say) is reported by ``load_all`` as
that table's error, and the other tables load. Secrets are never stored: a seat's token and
an invite are kept as the hex SHA-256 of the secret (:func:`secret_hash`)."""
import hashlib
import json
import os
import sqlite3
import time
from typing import Any, Dict, Iterable, List

from krazy_core.errors import KrazyError

TABLES_COLUMNS = ("id", "game", "num_players", "options", "seed", "seats", "think", "created")
ACTIONS_COLUMNS = ("table_id", "n", "seat", "action", "fingerprint")

SCHEMA = """
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    num_players INTEGER NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    think REAL NOT NULL,
    created REAL NOT NULL,
    meta TEXT NOT NULL DEFAULT '{}',
    updated REAL NOT NULL DEFAULT 0
);
CREATE TABLE actions (
    table_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""


class StoreError(KrazyError, ValueError):
    """The database file cannot be used (not a database, a directory, a missing table or
    column); the message is one line naming the file and the reason."""


def secret_hash(secret: str) -> str:
    """The hex SHA-256 of a token or invite code (what the file keeps instead of it)."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def default_path() -> str:
    """``$KRAZY_DB``, else ``$XDG_DATA_HOME/krazy_core/tables.sqlite3`` (``~/.local/share``)."""
    if os.environ.get("KRAZY_DB"):
        return os.environ["KRAZY_DB"]
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "krazy_core", "tables.sqlite3")


class Store:
    """One SQLite file (``":memory:"`` for tests). Used from one thread (the event loop).
    Raises :class:`StoreError` when the file is no usable table database."""

    def __init__(self, path: str):
        self.path = path
        fresh = path == ":memory:"
        if not fresh:
            if os.path.isdir(path):
                raise StoreError(f"{path}: is a directory, not a database file")
            try:
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            except OSError as e:            # a file where a folder should be, no such mount
                raise StoreError(f"{path}: its folder cannot be made ({e.strerror or e})") from None
            fresh = not os.path.exists(path) or os.path.getsize(path) == 0
        try:
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            if fresh:
                self.db.executescript(SCHEMA)
            else:
                self._check_schema()
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{path}: not a usable SQLite database ({e})") from None

    def _check_schema(self) -> None:
        """Refuse a file without our tables (none is created in an existing file); add the
        columns a database of an earlier version lacks (``meta``, ``updated``)."""
        def columns(name):
            return [r[1] for r in self.db.execute(f"PRAGMA table_info({name})")]
        for name, want in (("tables", TABLES_COLUMNS), ("actions", ACTIONS_COLUMNS)):
            have = columns(name)
            if not have:
                raise StoreError(f"{self.path}: the database has no {name!r} table "
                                 f"(not a krazy_core table file, or damaged); it is left as it is")
            missing = [c for c in want if c not in have]
            if missing:
                raise StoreError(f"{self.path}: the {name!r} table lacks the column(s) "
                                 f"{', '.join(missing)} (another schema); it is left as it is")
        have = columns("tables")
        if "meta" not in have:
            self.db.execute("ALTER TABLE tables ADD COLUMN meta TEXT NOT NULL DEFAULT '{}'")
        if "updated" not in have:       # the expiry clock of an older file's tables starts now
            self.db.execute("ALTER TABLE tables ADD COLUMN updated REAL NOT NULL DEFAULT 0")
            self.db.execute("UPDATE tables SET updated=?", (time.time(),))

    def add_table(self, t: Dict[str, Any]) -> None:
        now = time.time()
        self.db.execute("INSERT INTO tables (id, game, num_players, options, seed, seats, think, "
                        "created, meta, updated) VALUES (?,?,?,?,?,?,?,?,?,?)",
                        (t["id"], t["game"], t["num_players"], json.dumps(t["options"]), t["seed"],
                         json.dumps(t["seats"]), t["think"], now, json.dumps(t.get("meta", {})), now))

    def set_seats(self, table_id: str, seats: List[Dict[str, Any]]) -> None:
        """Rewrite a table's seats (an invite claimed: its token's hash stored)."""
        self.db.execute("UPDATE tables SET seats=? WHERE id=?", (json.dumps(seats), table_id))

    def add_actions(self, table_id: str, first_n: int, rows: List[tuple]) -> None:
        """``rows`` = [(seat, action, fingerprint), ...] numbered from ``first_n``; one
        transaction."""
        self.add_batches([(table_id, first_n, rows)])

    def add_batches(self, batches: List[tuple]) -> None:
        """Several tables' new rows, ``[(table_id, first_n, rows), ...]``, in one transaction
        (the server commits every action of one event-loop turn together). Raises
        ``sqlite3.Error`` (``OSError`` for a full disk) with nothing written."""
        self.db.execute("BEGIN")
        try:
            self.db.executemany("INSERT INTO actions VALUES (?,?,?,?,?)",
                                [(table_id, first_n + i, s, a, f)
                                 for table_id, first_n, rows in batches
                                 for i, (s, a, f) in enumerate(rows)])
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def set_updated(self, rows: List[tuple]) -> None:
        """``[(unix seconds, table_id), ...]``: the tables' last-move times (expiry)."""
        if rows:
            self.db.execute("BEGIN")
            try:
                self.db.executemany("UPDATE tables SET updated=? WHERE id=?", rows)
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def delete_tables(self, ids: Iterable[str]) -> None:
        """Remove tables and their logs (expired tables), in one transaction."""
        rows = [(i,) for i in ids]
        if not rows:
            return
        self.db.execute("BEGIN")
        try:
            self.db.executemany("DELETE FROM actions WHERE table_id=?", rows)
            self.db.executemany("DELETE FROM tables WHERE id=?", rows)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def load_all(self) -> List[Dict[str, Any]]:
        """Every table with its log: ``[{..row.., "log": [(seat, action, fingerprint)],
        "updated": unix seconds}]``; a row that cannot be read is ``{"id", "error"}`` (one
        line) and the others load."""
        out = []
        try:
            rows = self.db.execute("SELECT id, game, num_players, options, seed, seats, think, meta, "
                                   "created, updated FROM tables ORDER BY created").fetchall()
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path}: the tables cannot be read ({e})") from None
        for row in rows:
            tid = row[0]
            try:
                _, game, n, opts, seed, seats, think, meta, created, updated = row
                log = self.db.execute("SELECT seat, action, fingerprint FROM actions WHERE table_id=? "
                                      "ORDER BY n", (tid,)).fetchall()
                rec = {"id": str(tid), "game": game, "num_players": n, "options": json.loads(opts),
                       "seed": seed, "seats": json.loads(seats), "think": think,
                       "meta": json.loads(meta or "{}"), "updated": max(created or 0, updated or 0),
                       "log": log}
                if not (isinstance(rec["options"], dict) and isinstance(rec["seats"], list)
                        and isinstance(rec["meta"], dict)):
                    raise ValueError("options, seats or meta of the wrong JSON type")
            except (ValueError, TypeError, sqlite3.DatabaseError) as e:
                out.append({"id": str(tid), "error": f"row unreadable: {type(e).__name__}: {str(e)[:200]}"})
                continue
            out.append(rec)
        return out

    def close(self) -> None:
        self.db.close()
