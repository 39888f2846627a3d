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
does), and ``subprocess.run`` sends ``python -m pytest`` and ``python -m pytest_pacts.cli``
(captured, or to this process's streams); each only when the environment's ``PYTHON*``
and locale variables are those the server started with. Anything else, and any failure
to reach the server, starts a fresh interpreter as before. ``PACTS_TEST_FRESH_SESSIONS=1``
turns the server off for a run.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

import pytest

from tests._zygote import Link
from tests._zygote import python_env as _python_env

_SERVER = Path(__file__).with_name("_zygote.py")
_ORIGINAL_POPEN = pytest.Pytester.popen


class _Server:
    """One worker's connection to its server, started on first use: the requests and
    answers go over a :class:`~tests._zygote.Link`, as a forked child's own do."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._link: Link | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._python_env: dict[str, str] = {}
        self.broken = False

    def _start(self) -> Link:
        ours, theirs = socket.socketpair()
        self._python_env = _python_env(dict(os.environ))
        self._process = subprocess.Popen(
            [sys.executable, str(_SERVER), str(theirs.fileno())],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
        )
        theirs.close()
        self._link = Link(ours)
        return self._link

    def start(
        self, module: str, args: list[str], env: dict[str, str], fds: list[int], cwd: str
    ) -> tuple[int, int] | None:
        """The request's id and the pid of a child running ``python -m MODULE ARGS``, or
        None if it cannot run there (the caller then starts a fresh interpreter)."""
        with self._lock:
            if self.broken:
                return None
            if self._link is not None and _python_env(env) != self._python_env:
                return None
            try:
                link = self._link or self._start()
            except OSError:
                self.broken = True
                return None
            if _python_env(env) != self._python_env:
                return None
        started = link.start({"module": module, "args": args, "cwd": cwd, "env": env}, fds)
        if started is None:
            self.broken = True
        return started

    def wait(self, ident: int, pid: int, timeout: float | None) -> int:
        assert self._link is not None
        try:
            code = self._link.exit_code(ident, timeout)
        except ConnectionError:
            self.broken = True
            raise
        if code is None:
            raise subprocess.TimeoutExpired(f"pytest (pid {pid})", timeout or 0)
        return code

    def close(self) -> None:
        if self._link is not None:
            self._link.close()
        if self._process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._process.wait(timeout=10)


class ForkedSession:
    """What ``Pytester.run`` uses of a :class:`subprocess.Popen`."""

    stdin: IO[bytes] | None = None

    def __init__(self, server: _Server, ident: int, pid: int) -> None:
        self._server = server
        self._ident = ident
        self.pid = pid
        self.returncode: int | None = None

    @property
    def pid_args(self) -> str:
        return f"forked session (pid {self.pid})"

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
                    "pytest", rest, env, [stdin_fd, stdout.fileno(), stderr.fileno()], os.getcwd()
                )
            finally:
                os.close(stdin_fd)
            if started is not None:
                return ForkedSession(_SERVER_OF_WORKER, *started)
    return _ORIGINAL_POPEN(self, cmdargs, stdout, stderr, stdin, **kw)


def popen(
    cmdargs: list[str], *, cwd: str | os.PathLike[str], env: dict[str, str], stdout: IO[Any]
) -> ForkedSession | None:
    """``python -m pytest ...`` with stdout and stderr to the file ``stdout`` and nothing on
    stdin, forked from the worker's server: for code the tests run that starts its pytest
    sessions with ``subprocess.Popen`` itself (a benchmark's runners). None when it cannot
    run there; the caller then starts it as before."""
    args = [os.fspath(arg) for arg in cmdargs]
    if args[:3] != [sys.executable, "-m", "pytest"] or _SERVER_OF_WORKER.broken:
        return None
    if os.environ.get("PACTS_TEST_FRESH_SESSIONS") == "1":
        return None
    stdin_fd = _stdin_fd(pytest.Pytester.CLOSE_STDIN)
    assert stdin_fd is not None
    stdout.flush()
    try:
        started = _SERVER_OF_WORKER.start(
            "pytest", args[3:], env, [stdin_fd, stdout.fileno(), stdout.fileno()], os.fspath(cwd)
        )
    finally:
        os.close(stdin_fd)
    return ForkedSession(_SERVER_OF_WORKER, *started) if started is not None else None


_ORIGINAL_RUN = subprocess.run
# ``python -m MODULE`` commands the tests run with ``subprocess.run`` that fork instead
_MODULES = ("pytest", "pytest_pacts.cli")
_RUN_OPTIONS = {"cwd", "env", "capture_output", "text", "timeout", "input", "check"}
_RUN_OPTIONS |= {"stdout", "stderr", "encoding", "errors", "universal_newlines"}


def _forked_run(args: list[str], options: dict[str, Any]) -> Any:
    """``subprocess.run(args, **options)`` in a child of the server, or None when that
    cannot be done the same way (the caller then runs it as before)."""
    capture = bool(options.get("capture_output"))
    stdout, stderr = options.get("stdout"), options.get("stderr")
    if capture and (stdout is not None or stderr is not None):
        return None
    if capture:
        stdout = stderr = subprocess.PIPE
    if not all(x in (None, subprocess.PIPE, subprocess.DEVNULL) for x in (stdout, stderr)):
        return None
    text = bool(options.get("text") or options.get("universal_newlines"))
    text = text or options.get("encoding") is not None or options.get("errors") is not None
    given = options.get("input")
    if isinstance(given, str):
        given = given.encode(options.get("encoding") or "utf-8")
    stdin_fd = _stdin_fd(pytest.Pytester.CLOSE_STDIN if given is None else given)
    if stdin_fd is None:
        return None
    env = dict(os.environ if options.get("env") is None else options["env"])
    cwd = os.fspath(options.get("cwd") or os.getcwd())
    ends: dict[str, tuple[int, int]] = {}
    fds = [stdin_fd]
    for name, how in (("stdout", stdout), ("stderr", stderr)):
        if how == subprocess.PIPE:
            ends[name] = os.pipe()
            fds.append(ends[name][1])
        else:  # None: the caller's own stream, as a fresh process inherits it
            inherited = 1 if name == "stdout" else 2
            fds.append(os.open(os.devnull, os.O_WRONLY) if how == subprocess.DEVNULL else inherited)
    try:
        started = _SERVER_OF_WORKER.start(args[2], args[3:], env, fds, cwd)
    finally:
        for fd in fds[:1]:
            os.close(fd)
        for name, how in (("stdout", stdout), ("stderr", stderr)):
            if how == subprocess.DEVNULL:
                os.close(fds[1 if name == "stdout" else 2])
        for _, write in ends.values():
            os.close(write)
    if started is None:
        for read, _ in ends.values():
            os.close(read)
        return None
    session = ForkedSession(_SERVER_OF_WORKER, *started)
    timeout = options.get("timeout")
    output = _read_all({name: read for name, (read, _) in ends.items()}, timeout, session)
    code = session.wait(timeout=timeout)

    def decoded(data: bytes | None) -> Any:
        if data is None or not text:
            return data
        encoding, errors = options.get("encoding") or "utf-8", options.get("errors") or "strict"
        return data.decode(encoding, errors).replace("\r\n", "\n").replace("\r", "\n")

    done = subprocess.CompletedProcess(
        args, code, decoded(output.get("stdout")), decoded(output.get("stderr"))
    )
    if options.get("check"):
        done.check_returncode()
    return done


def _read_all(
    reads: dict[str, int], timeout: float | None, session: ForkedSession
) -> dict[str, bytes]:
    """Everything written to the pipes until every writer closed them (as ``communicate``)."""
    import selectors
    import time

    chunks: dict[str, list[bytes]] = {name: [] for name in reads}
    deadline = None if timeout is None else time.monotonic() + timeout
    with selectors.DefaultSelector() as selector:
        for name, fd in reads.items():
            selector.register(fd, selectors.EVENT_READ, name)
        try:
            while selector.get_map():
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    session.kill()
                    session.wait()
                    raise subprocess.TimeoutExpired(session.pid_args, timeout or 0)
                for key, _ in selector.select(left):
                    data = os.read(key.fd, 65536)
                    if data:
                        chunks[key.data].append(data)
                    else:
                        selector.unregister(key.fd)
                        os.close(key.fd)
        finally:
            for key in list(selector.get_map().values()):
                os.close(key.fd)
    return {name: b"".join(parts) for name, parts in chunks.items()}


def _run(*popenargs: Any, **options: Any) -> Any:
    args = popenargs[0] if popenargs else options.get("args")
    if (
        len(popenargs) <= 1
        and isinstance(args, (list, tuple))
        and len(args) >= 3
        and [os.fspath(a) for a in args[:2]] == [sys.executable, "-m"]
        and args[2] in _MODULES
        and set(options) - {"args"} <= _RUN_OPTIONS
        and not _SERVER_OF_WORKER.broken
    ):
        done = _forked_run([os.fspath(a) for a in args], options)
        if done is not None:
            return done
    return _ORIGINAL_RUN(*popenargs, **options)


def install() -> None:
    """Route ``runpytest_subprocess`` through the worker's server (see the module's text)."""
    if os.environ.get("PACTS_TEST_FRESH_SESSIONS") == "1":
        return
    pytest.Pytester.popen = _popen  # type: ignore[method-assign]
    subprocess.run = _run


def uninstall() -> None:
    pytest.Pytester.popen = _ORIGINAL_POPEN  # type: ignore[method-assign]
    subprocess.run = _ORIGINAL_RUN
    _SERVER_OF_WORKER.close()
