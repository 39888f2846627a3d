"""Whole pytest sessions run by ``pytester`` start from a warm interpreter (docs/testing.md).

The suite runs a few hundred pytest sessions in subprocesses (``runpytest_subprocess``),
and before its first test each one spent about a second of CPU importing pytest, the
installed plugins, Playwright and the engine. Here each xdist worker starts one server
(``tests/_zygote.py``) that has imported them once; a session is then a child forked from
it, in the session's own folder, environment and streams, running ``python -m pytest``'s
code. It is still a process of its own with its own exit code, stdout and stderr files,
and pytest configures it from scratch; only the imports are done already.

``Pytester.popen`` sends a command there when it is ``python -m pytest`` writing to files
with nothing to read from stdin but bytes given at once (what ``runpytest_subprocess``
does), and when the environment's ``PYTHON*`` variables are those the server started
with. Anything else, and any failure to reach the server, starts a fresh interpreter as
before. ``PACTS_TEST_FRESH_SESSIONS=1`` turns the server off for a run.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

import pytest

_SERVER = Path(__file__).with_name("_zygote.py")
_ORIGINAL_POPEN = pytest.Pytester.popen


def _python_env(env: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k.startswith("PYTHON") and k != "PYTHONPATH"}


class _Server:
    """One worker's connection to its server, started on first use."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._channel: socket.socket | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._python_env: dict[str, str] = {}
        self._exits: dict[int, int] = {}
        self._pending = b""
        self._next = 0
        self.broken = False

    def _start(self) -> socket.socket:
        ours, theirs = socket.socketpair()
        self._python_env = _python_env(dict(os.environ))
        self._process = subprocess.Popen(
            [sys.executable, str(_SERVER), str(theirs.fileno())],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
        )
        theirs.close()
        self._channel = ours
        return ours

    def _read(self) -> dict[str, Any]:
        assert self._channel is not None
        while b"\n" not in self._pending:
            data = self._channel.recv(65536)
            if not data:
                self.broken = True
                raise ConnectionError("the session server went away")
            self._pending += data
        line, _, self._pending = self._pending.partition(b"\n")
        return dict(json.loads(line))

    def start(self, args: list[str], env: dict[str, str], fds: list[int]) -> tuple[int, int] | None:
        """The request's id and the pid of a child running ``python -m pytest ARGS``, or
        None if it cannot run there (the caller then starts a fresh interpreter)."""
        with self._lock:
            if self.broken:
                return None
            if self._channel is not None and _python_env(env) != self._python_env:
                return None
            try:
                channel = self._channel or self._start()
                if _python_env(env) != self._python_env:
                    return None
                self._next += 1
                ident = self._next
                request = {"id": ident, "args": args, "cwd": os.getcwd(), "env": env}
                channel.sendmsg([json.dumps(request).encode() + b"\n"], [
                    (socket.SOL_SOCKET, socket.SCM_RIGHTS, bytes(_fd_array(fds)))
                ])  # fmt: skip
                while True:
                    message = self._read()
                    if "exit" in message:
                        self._exits[int(message["id"])] = int(message["exit"])
                    elif message["id"] == ident:
                        return ident, int(message["pid"])
            except OSError:
                self.broken = True
                return None

    def wait(self, ident: int, pid: int, timeout: float | None) -> int:
        with self._lock:
            assert self._channel is not None
            self._channel.settimeout(timeout)
            try:
                while ident not in self._exits:
                    message = self._read()
                    if "exit" in message:
                        self._exits[int(message["id"])] = int(message["exit"])
            except TimeoutError:
                raise subprocess.TimeoutExpired(f"pytest (pid {pid})", timeout or 0) from None
            finally:
                self._channel.settimeout(None)
            return self._exits.pop(ident)

    def close(self) -> None:
        if self._channel is not None:
            self._channel.close()
        if self._process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._process.wait(timeout=10)


def _fd_array(fds: list[int]) -> bytes:
    import array

    return array.array("i", fds).tobytes()


class ForkedSession:
    """What ``Pytester.run`` uses of a :class:`subprocess.Popen`."""

    stdin: IO[bytes] | None = None

    def __init__(self, server: _Server, ident: int, pid: int) -> None:
        self._server = server
        self._ident = ident
        self.pid = pid
        self.returncode: int | None = None

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self.returncode = self._server.wait(self._ident, self.pid, timeout)
        return self.returncode

    def poll(self) -> int | None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            return self.wait(timeout=0.001)
        return None

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


_SERVER_OF_WORKER = _Server()


def _stdin_fd(stdin: object) -> int | None:
    """A descriptor for the child's stdin: the read end of a pipe holding the bytes given
    (or nothing), closed for writing, as ``Pytester.popen`` gives a fresh process."""
    if stdin is pytest.Pytester.CLOSE_STDIN:
        data = b""
    elif isinstance(stdin, bytes) and len(stdin) < 60_000:
        data = stdin
    else:
        return None
    read, write = os.pipe()
    os.write(write, data)
    os.close(write)
    return read


def _popen(
    self: pytest.Pytester,
    cmdargs: Any,
    stdout: Any = subprocess.PIPE,
    stderr: Any = subprocess.PIPE,
    stdin: Any = pytest.Pytester.CLOSE_STDIN,
    **kw: Any,
) -> Any:
    args = [os.fspath(arg) for arg in cmdargs]
    is_pytest = args[:2] == [sys.executable, "-mpytest"] or args[:3] == [
        sys.executable,
        "-m",
        "pytest",
    ]
    files = all(hasattr(stream, "fileno") for stream in (stdout, stderr))
    if is_pytest and files and set(kw) <= {"close_fds"} and not _SERVER_OF_WORKER.broken:
        rest = args[2:] if args[1] == "-mpytest" else args[3:]
        env = os.environ.copy()
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [os.getcwd(), env.get("PYTHONPATH", "")]))
        stdin_fd = _stdin_fd(stdin)
        if stdin_fd is not None:
            stdout.flush()
            stderr.flush()
            try:
                started = _SERVER_OF_WORKER.start(
                    rest, env, [stdin_fd, stdout.fileno(), stderr.fileno()]
                )
            finally:
                os.close(stdin_fd)
            if started is not None:
                return ForkedSession(_SERVER_OF_WORKER, *started)
    return _ORIGINAL_POPEN(self, cmdargs, stdout, stderr, stdin, **kw)


def install() -> None:
    """Route ``runpytest_subprocess`` through the worker's server (see the module's text)."""
    if os.environ.get("PACTS_TEST_FRESH_SESSIONS") == "1":
        return
    pytest.Pytester.popen = _popen  # type: ignore[method-assign]


def uninstall() -> None:
    pytest.Pytester.popen = _ORIGINAL_POPEN  # type: ignore[method-assign]
    _SERVER_OF_WORKER.close()
