"""SQLite persistence of tables (standard library ``sqlite3``, WAL journal).

A table is its row (game, players, options, seed, seats with their tokens, think time)
and its action log: one row per applied action with the seat that made it and a short
fingerprint of the full state after it. A restart — even after ``kill -9`` — rebuilds every
table by replaying the log from the seed and checks each fingerprint
(:meth:`Store.load_all`). WAL with ``synchronous=NORMAL`` keeps every committed action
across a crash of the process."""
import json
import os
import sqlite3
import time
from typing import Any, Dict, List

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    num_players INTEGER NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    think REAL NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""


def default_path() -> str:
    """``$KRAZY_DB``, else ``$XDG_DATA_HOME/krazy_core/tables.sqlite3`` (``~/.local/share``)."""
    if os.environ.get("KRAZY_DB"):
        return os.environ["KRAZY_DB"]
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "krazy_core", "tables.sqlite3")


class Store:
    """One SQLite file (``":memory:"`` for tests). Used from one thread (the event loop)."""

    def __init__(self, path: str):
        self.path = path
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def add_table(self, t: Dict[str, Any]) -> None:
        self.db.execute("INSERT INTO tables VALUES (?,?,?,?,?,?,?,?)",
                        (t["id"], t["game"], t["num_players"], json.dumps(t["options"]), t["seed"],
                         json.dumps(t["seats"]), t["think"], time.time()))

    def add_actions(self, table_id: str, first_n: int, rows: List[tuple]) -> None:
        """``rows`` = [(seat, action, fingerprint), ...] numbered from ``first_n``; one
        transaction."""
        self.add_batches([(table_id, first_n, rows)])

    def add_batches(self, batches: List[tuple]) -> None:
        """Several tables' new rows, ``[(table_id, first_n, rows), ...]``, in one transaction
        (the server commits every action of one event-loop turn together)."""
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

    def load_all(self) -> List[Dict[str, Any]]:
        """Every table with its log: ``[{..row.., "log": [(seat, action, fingerprint)]}]``."""
        out = []
        for row in self.db.execute("SELECT id, game, num_players, options, seed, seats, think "
                                   "FROM tables ORDER BY created"):
            tid, game, n, opts, seed, seats, think = row
            log = self.db.execute("SELECT seat, action, fingerprint FROM actions WHERE table_id=? "
                                  "ORDER BY n", (tid,)).fetchall()
            out.append({"id": tid, "game": game, "num_players": n, "options": json.loads(opts),
                        "seed": seed, "seats": json.loads(seats), "think": think, "log": log})
        return out

    def close(self) -> None:
        self.db.close()
