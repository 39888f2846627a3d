"""The dashboard's connections send without Nagle's algorithm.

uvicorn writes a response's headers and its body in two writes; with Nagle's algorithm on, the
body waits for the client's ACK of the headers, which the client's TCP delays (RFC 1122,
4.2.3.2): about 40 ms on every keep-alive response, measured on the dashboard's API. asyncio
sets ``TCP_NODELAY`` on an accepted connection only when its socket's ``proto`` is TCP, and the
connection takes its listener's: the socket :func:`bind` makes must say so.
"""

from __future__ import annotations

import asyncio
import socket
import threading

from pytest_pacts.web.server import bind


def test_a_connection_to_the_bound_socket_has_nagle_off() -> None:
    listener = bind("127.0.0.1", 0)
    port = listener.getsockname()[1]
    seen: list[int] = []

    class Probe(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            accepted = transport.get_extra_info("socket")
            seen.append(accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    async def main() -> None:
        server = await asyncio.get_running_loop().create_server(Probe, sock=listener)
        async with server:
            _, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 5)
            for _ in range(100):
                if seen:
                    break
                await asyncio.sleep(0.01)
            writer.close()

    # in a thread of its own: the worker's thread may be running Playwright's event loop
    ran = threading.Thread(target=asyncio.run, args=(main(),))
    ran.start()
    ran.join(timeout=10)
    assert not ran.is_alive(), "the probe server did not finish"
    assert seen and seen[0] != 0, "the accepted connection keeps Nagle's algorithm on"
