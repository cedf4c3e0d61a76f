"""What guards ``krazy serve`` against a hostile or careless client: the caps and rates
(:class:`Limits`, the per-connection token :class:`Bucket`), the security headers on every
HTTP response, the same-origin check of a POST, JSON out without surprises
(:func:`safe_dumps`), and uvicorn's log kept to one line per bad frame."""
import json
import logging
import time
from dataclasses import dataclass, fields
from typing import Optional
from urllib.parse import urlsplit

from starlette.responses import Response

from krazy_core.errors import ConfigError
from krazy_core.server.tables import dumps


MAX_MESSAGE = 4096          # bytes of one client message
RATE = 20.0                 # messages per second a connection may send (sustained)
BURST = 40.0                # and in one burst
MAX_STRIKES = 50            # refused-for-rate messages before the connection is closed
MAX_BODY = 16384            # bytes of a POST body
MAX_TABLES = 5000           # live tables (expired ones are deleted and do not count)
JOIN_WAIT = 1.0             # seconds a connection without ?token= has to send its join
log = logging.getLogger("krazy_core.server")

SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
     b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


@dataclass
class Limits:
    """What one client may do, and what the server takes (``create_app(limits=...)``).
    Rates are messages per second with a burst; times are seconds."""
    rate: float = RATE                      # messages/s of one connection
    burst: float = BURST
    seat_rate: float = RATE                 # messages/s of one seat, all its connections
    seat_burst: float = BURST
    address_rate: float = 60.0              # messages/s of one client address, all its connections
    address_burst: float = 120.0
    sync_interval: float = 1.0              # s between two syncs of one connection
    conns_per_address: int = 64
    conns_per_table: int = 256
    conns_per_token: int = 4
    tables: int = MAX_TABLES                # live tables of the server
    tables_per_address: int = 100           # live tables created by one address
    open_tables_per_address: int = 20       # of those, not over
    creates_rate: float = 0.5               # tables/s one address may create (sustained)
    creates_burst: float = 20.0
    search_seats: int = 16                  # search-bot seats at unfinished tables, per server
    search_seats_per_address: int = 8
    move_budget: float = 2.0                # s of search per bot move
    hint_iterations: int = 300              # a hint's search
    hint_budget: float = 0.3                # s
    laydown_budget: float = 0.5             # s of lay-down search
    workers: int = 2                        # search threads
    queue: int = 256                        # messages waiting to be sent on one connection
    send_timeout: float = 10.0              # s one send may wait for a slow reader
    finished_ttl: float = 3600.0            # s after its last action a finished table is deleted
    idle_ttl: float = 7 * 86400.0           # s without an action before an unfinished one is
    expire_every: float = 60.0              # s between expiry sweeps

    def __post_init__(self):
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                raise ConfigError(f"limit {f.name} must be a number >= 0, got {v!r}")


class Bucket:
    """A token bucket: ``rate`` per second, at most ``burst`` saved."""
    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst, self.tokens, self.stamp = rate, burst, burst, time.monotonic()

    def take(self, now: Optional[float] = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def full(self) -> bool:
        """Whether it has refilled to its burst (nothing to remember about its client)."""
        return self.tokens + (time.monotonic() - self.stamp) * self.rate >= self.burst


def safe_dumps(obj) -> str:
    """JSON text that always encodes (a lone surrogate in an echoed input is escaped)."""
    try:
        return dumps(obj)
    except (TypeError, ValueError, UnicodeError):
        return json.dumps(obj, ensure_ascii=True, separators=(",", ":"))


def json_response(obj, status: int = 200) -> Response:
    return Response(safe_dumps(obj).encode("utf-8"), status, media_type="application/json")


class SecurityHeaders:
    """ASGI middleware: ``SECURITY_HEADERS`` on every HTTP response (a CSP with
    ``frame-ancestors 'none'``, ``nosniff``, ``no-referrer``)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = dict(message, headers=list(message.get("headers", [])) + SECURITY_HEADERS)
            await send(message)
        await self.app(scope, receive, send_with_headers)


class _OneLineUTF8(logging.Filter):
    """uvicorn logs an invalid UTF-8 text frame with a traceback: one line is enough."""

    def filter(self, record: logging.LogRecord) -> bool:
        if str(record.msg).startswith("Invalid UTF-8"):
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.msg = "a client sent a text frame that is not UTF-8: closed (1007)"
            return logging.getLogger("uvicorn.error").isEnabledFor(logging.INFO)
        return True


def _install_log_filter() -> None:
    lg = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _OneLineUTF8) for f in lg.filters):
        lg.addFilter(_OneLineUTF8())


def same_origin(headers) -> bool:
    """No ``Origin`` (not a browser), or an ``Origin`` whose host:port is the ``Host``."""
    origin = headers.get("origin")
    if origin is None:
        return True
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return bool(netloc) and netloc.lower() == (headers.get("host") or "").lower()


def _address(conn) -> str:
    return conn.client.host if conn.client else "unknown"
