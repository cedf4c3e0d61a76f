"""Starting ``krazy serve``: check the port before printing the link, say who can open the
table (this computer only, or the addresses to open on another device), run uvicorn."""
import socket
from typing import Optional

import uvicorn

from krazy_core.server.app import create_app
from krazy_core.server.guards import Limits
from krazy_core.server.db import StoreError, default_path


def _check_port(host: str, port: int) -> None:
    """Exit 3 with the reason when ``host:port`` cannot be listened on (a busy port): uvicorn
    said so too, but after the "open http://..." line had sent the user to a dead link."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as e:
        print(f"krazy serve: cannot listen on {host}:{port}: {e}", flush=True)
        raise SystemExit(3) from None
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)      # as uvicorn binds
        try:
            s.bind(addr)
        except OSError as e:
            print(f"krazy serve: cannot listen on {host}:{port}: {e.strerror or e} "
                  f"(another server there? try --port {port + 1})", flush=True)
            raise SystemExit(3) from None


def _lan_addresses() -> list:
    """This machine's IPv4 addresses other devices on the network may reach (no packet is
    sent: a UDP socket "connected" to a public address names the outgoing interface)."""
    out = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))             # TEST-NET-1: never routed, nothing sent
            out.append(s.getsockname()[0])
    except OSError:
        pass
    return [a for a in out if not a.startswith("127.") and a != "0.0.0.0"]


def _network_note(host: str, port: int) -> list:
    """What ``krazy serve`` says about other devices: on 127.0.0.1 only this computer can
    open the table (and how to change that); on 0.0.0.0 the addresses to open elsewhere."""
    if host in ("127.0.0.1", "localhost", "::1"):
        return ["only this computer can open it; for phones and other computers on the same network, "
                "run krazy serve --host 0.0.0.0 and open the address it prints there"]
    if host in ("0.0.0.0", "::"):
        lan = _lan_addresses()
        if lan:
            return [f"on another device of this network: http://{a}:{port}/" for a in lan] + \
                   ["(anyone on this network can reach it; seat links hold each seat's key)"]
        return ["on another device of this network: http://<this computer's address>:" + str(port) + "/"]
    return [f"on another device: http://{host}:{port}/"]


def serve(host: str = "127.0.0.1", port: int = 8765, db: Optional[str] = None,
          limits: Optional[Limits] = None) -> None:
    """Run the server (``krazy serve``) until interrupted; prints the URL to open. A
    database file it cannot use ends it with one line and exit status 2. ``limits``:
    :class:`Limits` (expiry times, caps)."""
    path = db or default_path()
    try:
        app = create_app(path, limits=limits)
    except StoreError as e:
        print(f"krazy serve: cannot use {e}", flush=True)
        raise SystemExit(2) from None
    server = app.state.server
    print(f"krazy serve: tables in {path} ({server.loaded} loaded)")
    for tid, why in server.broken.items():
        print(f"krazy serve: table {tid} not loaded: {why}")
    _check_port(host, port)             # before the link: a busy port printed it, then failed
    print(f"open http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/ in a browser", flush=True)
    for line in _network_note(host, port):
        print(line, flush=True)
    # permessage-deflate off: compressing every update cost more CPU than building it (a
    # quarter of the event loop's time at 250 tables, benches/README.md); updates are a few kB
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=65536,
                ws_per_message_deflate=False)
