"""``krazy serve``: an ASGI game server (Starlette on uvicorn, WebSockets) with SQLite
persistence and a browser table at ``/``. Needs the ``server`` extra
(``pip install 'krazy_core[server]'``).

- :mod:`krazy_core.server.store`   SQLite (WAL): tables, options, seed, the action log
- :mod:`krazy_core.server.tables`  a table: seats and tokens, per-seat messages, bots
- :mod:`krazy_core.server.app`     the HTTP routes and the WebSocket protocol
"""
