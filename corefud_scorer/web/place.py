"""Where the server listens, as the console and the page say it (no web
framework needed, so that ``serve`` can check its flags without one)."""

from __future__ import annotations

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def where(host: str, port: int) -> dict:
    """What the page and the console say about who can reach the server."""
    local = host in LOOPBACK or host.startswith("127.")
    shown = f"[{host}]" if ":" in host else host
    return {"host": host, "port": port, "url": f"http://{shown}:{port}/", "local_only": local,
            "note": (f"listening on {host}:{port}: only this machine can reach it (--host 0.0.0.0 to open it to the network)"
                     if local else f"listening on every interface, port {port}: other machines can reach it")}
