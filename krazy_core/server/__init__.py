"""``krazy serve``: an ASGI game server (Starlette on uvicorn, WebSockets) with SQLite
persistence and a browser table at ``/``. Needs the ``server`` extra
(``pip install 'krazy_core[server]'``).

- :mod:`krazy_core.server.db`      SQLite (WAL): tables, options, seed, the action log, the
  SHA-256 of the seats' tokens and invites
- :mod:`krazy_core.server.tables`  a table: seats, per-seat messages, moves applied on a copy
- :mod:`krazy_core.server.guards`  the caps and rates (:class:`~krazy_core.server.guards.Limits`),
  security headers, the same-origin check
- :mod:`krazy_core.server.app`     the HTTP routes, the WebSocket protocol, the fair scheduler
  of bots and hints, expiry (finished tables deleted 1 hour after their last move,
  unfinished ones after 7 days without a move)
- :mod:`krazy_core.server.launch`  ``krazy serve``: the port check, the links, uvicorn
"""
