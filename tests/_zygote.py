"""The server of ``tests/forked_sessions.py``: an interpreter that has imported what every
pytest session imports, and forks a child for each session it is asked to run.

Run as a script by the client (``python tests/_zygote.py FD``), never imported by the
tests: it talks over the socket ``FD`` it inherited. Each request is one JSON line (an id,
the arguments after ``python -m pytest``, the working folder, the environment) with the
session's stdin, stdout and stderr passed as file descriptors (``SCM_RIGHTS``); the answer
is ``{"id", "pid"}`` once the child runs, then ``{"id", "exit"}`` when it has ended.

What a child does differs from ``python -m pytest`` started afresh only in what is already
imported (see ``_preload``); the rest is made the same before pytest starts: the working
folder, the environment, ``sys.path`` (the folder, then ``PYTHONPATH``, then the
interpreter's own), new text streams over the given descriptors, ``__main__`` run by
:mod:`runpy` as ``-m`` does, and at the end what the interpreter does on exit (waiting for
threads, ``atexit`` functions, a garbage collection, flushing the streams).
"""

from __future__ import annotations

import array
import atexit
import contextlib
import gc
import importlib
import io
import json
import os
import runpy
import selectors
import signal
import socket
import sys
import tempfile
import threading
import traceback
from importlib.metadata import entry_points

_MAX_FDS = 3


# What the installed plugins import that pytest does not rewrite (see ``_preload``).
_DEPENDENCIES = ("playwright.sync_api", "slugify", "jinja2", "execnet", "pydantic")
# What running a requirement needs (the plugin imports it on the first run).
_RUN_TIME = (
    "pytest_pacts.application",
    "pytest_pacts.engine.api",
    "pytest_pacts.pytest_plugin.execution",
    "pytest_pacts.cli.main",
)


def _rewritten_by_pytest() -> set[str]:
    """The top-level modules of the distributions that register ``pytest11`` plugins:
    pytest imports them through its assertion rewriter, and warns when one was imported
    already (``PytestAssertRewriteWarning``), so they are left to each session."""
    from importlib.metadata import distributions

    from _pytest.config import _iter_rewritable_modules

    names: set[str] = set()
    for dist in distributions():
        if any(point.group == "pytest11" for point in dist.entry_points):
            names.update(_iter_rewritable_modules([str(f) for f in dist.files or []]))
    return names


def _preload() -> None:
    """Import what a pytest session of this suite imports before its first test: pytest's
    own plugins, the installed plugins that pytest does not rewrite (this package's), what
    the others import, and what running a requirement needs (the engine, the application
    services, Playwright's sync API). Nothing a session only imports on demand (openpyxl,
    the report writers' optional parts) is imported here, so that what the suite asserts
    about lazy imports holds in a child as in a fresh process; those checks run in fresh
    interpreters anyway (``tests/pytest_plugin/test_lazy_imports.py``)."""
    import _pytest.config

    for name in _pytest.config.default_plugins:
        with contextlib.suppress(ImportError):
            importlib.import_module(f"_pytest.{name}")
    rewritten = _rewritten_by_pytest()
    plugins = [point.value.partition(":")[0] for point in entry_points(group="pytest11")]
    for name in (*_DEPENDENCIES, *[p for p in plugins if p.split(".")[0] not in rewritten]):
        importlib.import_module(name)
    for name in _RUN_TIME:
        importlib.import_module(name)
    early = sorted(rewritten & set(sys.modules))
    if early:
        raise SystemExit(f"_zygote: imported what pytest rewrites: {early}")


def _base_path() -> list[str]:
    """The interpreter's own ``sys.path``: without this script's folder and without what
    this process's ``PYTHONPATH`` added (each child puts its own in front)."""
    own = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return [p for p in sys.path[1:] if p not in own]


def _streams() -> None:
    """New ``sys.stdin``/``stdout``/``stderr`` over descriptors 0-2, as a fresh interpreter
    makes them for files and pipes (block-buffered, the locale's encoding)."""
    encoding = os.environ.get("PYTHONIOENCODING", "").partition(":")[0] or "utf-8"

    def text(fd: int, mode: str, errors: str) -> io.TextIOWrapper:
        raw = io.FileIO(fd, mode, closefd=False)
        buffered: io.BufferedReader | io.BufferedWriter = (
            io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw)
        )
        return io.TextIOWrapper(buffered, encoding=encoding, errors=errors)

    for name, stream in (
        ("stdin", text(0, "r", "strict")),
        ("stdout", text(1, "w", "strict")),
        ("stderr", text(2, "w", "backslashreplace")),
    ):
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _child(request: dict[str, object], fds: list[int], base_path: list[str]) -> None:
    """In the forked child: become ``python -m MODULE ARGS`` (pytest unless the request
    names another module) in the request's folder, with its environment and streams, run it
    and exit as the interpreter would. Never returns."""
    code: object = 1
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        cwd = str(request["cwd"])
        env = dict(request["env"])  # type: ignore[call-overload]
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        extra = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
        sys.path[:] = [os.getcwd(), *extra, *base_path]
        importlib.invalidate_caches()
        tempfile.tempdir = None
        _streams()
        module = str(request.get("module", "pytest"))
        sys.argv = [module, *map(str, request["args"])]  # type: ignore[call-overload]
        try:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as stop:
            code = stop.code
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        status = 1
        try:
            status = _exit_code(code)
            threading._shutdown()  # type: ignore[attr-defined]
            atexit._run_exitfuncs()
            gc.collect()
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            traceback.print_exc()
        os._exit(status)


def main(fd: int) -> None:
    _preload()
    base_path = _base_path()
    channel = socket.socket(fileno=fd)
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    children: dict[int, object] = {}
    pending = b""
    selector = selectors.DefaultSelector()
    selector.register(channel, selectors.EVENT_READ, "channel")
    selector.register(wake_read, selectors.EVENT_READ, "wake")

    def send(message: dict[str, object]) -> None:
        channel.sendall(json.dumps(message).encode() + b"\n")

    while True:
        for key, _ in selector.select():
            if key.data == "wake":
                os.read(wake_read, 512)
            else:
                fds_array = array.array("i")
                data, ancdata, _, _ = channel.recvmsg(
                    1 << 20, socket.CMSG_SPACE(_MAX_FDS * fds_array.itemsize)
                )
                if not data:
                    return  # the client went away: so do we (children run on)
                received: list[int] = []
                for level, kind, payload in ancdata:
                    if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                        received.extend(array.array("i", payload[: len(payload) // 4 * 4]))
                pending += data
                while b"\n" not in pending:
                    more = channel.recv(1 << 20)
                    if not more:
                        return
                    pending += more
                line, _, pending = pending.partition(b"\n")
                request = json.loads(line)
                pid = os.fork()
                if pid == 0:
                    selector.close()
                    channel.close()
                    os.close(wake_read)
                    os.close(wake_write)
                    _child(request, received, base_path)
                for received_fd in received:
                    os.close(received_fd)
                children[pid] = request["id"]
                send({"id": request["id"], "pid": pid})
        while children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            ident = children.pop(pid, None)
            if ident is not None:
                send({"id": ident, "exit": os.waitstatus_to_exitcode(status)})


if __name__ == "__main__":
    main(int(sys.argv[1]))
