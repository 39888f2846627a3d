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
import subprocess
import sys
import tempfile
import threading
import traceback
import types
from importlib.metadata import entry_points
from typing import Any

_MAX_FDS = 3


# What the installed plugins import that pytest does not rewrite (see ``_preload``), and
# what pytest's own plugins import on configuring (``pdb`` for ``--pdb``'s class, ...).
_DEPENDENCIES = (
    "playwright.sync_api",
    "slugify",
    "jinja2",
    "execnet",
    "pydantic",
    "yaml",
    "sqlite3",
    "pdb",
    "http.client",
    "email.parser",
    "mimetypes",
)
# What running a requirement needs (the plugin imports it on the first run), and the
# packages whose every module a session with a run imports: the plugin's fixtures and
# hooks, the report writers (their optional libraries stay lazy: see ``_LAZY``).
_RUN_TIME = (
    "pytest_pacts.application",
    "pytest_pacts.engine.api",
    "pytest_pacts.pytest_plugin.execution",
    "pytest_pacts.cli.main",
    "pytest_pacts.auth.sessions",
    "pytest_pacts.browser",
    "pytest_pacts.planner.inline",
    "pytest_pacts.store.sqlite",
)
_RUN_TIME_PACKAGES = ("pytest_pacts.pytest_plugin", "pytest_pacts.reports")
# What a session imports only on demand: never imported here, so that a child imports them
# as a fresh process does (the suite checks some of these imports stay lazy).
_LAZY = ("openpyxl", "PIL", "psycopg", "numpy", "cv2")


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
    own plugins, the installed plugins (those pytest rewrites through its own rewriting
    hook, see ``_preload_rewritten``), what they import, and what running a requirement
    needs (the engine, the application services, the plugin's modules, the report
    writers, Playwright's sync API). Nothing a session only imports on demand (``_LAZY``)
    is imported here, so that what the suite asserts about lazy imports holds in a child as
    in a fresh process; those checks run in fresh interpreters anyway
    (``tests/pytest_plugin/test_lazy_imports.py``)."""
    import pkgutil

    import _pytest.config

    for name in _pytest.config.default_plugins:
        with contextlib.suppress(ImportError):
            importlib.import_module(f"_pytest.{name}")
    rewritten = _rewritten_by_pytest()
    plugins = [point.value.partition(":")[0] for point in entry_points(group="pytest11")]
    _preload_rewritten(rewritten, [p for p in plugins if p.split(".")[0] in rewritten])
    for name in (*_DEPENDENCIES, *[p for p in plugins if p.split(".")[0] not in rewritten]):
        importlib.import_module(name)
    for name in _RUN_TIME:
        importlib.import_module(name)
    for package in _RUN_TIME_PACKAGES:
        path = importlib.import_module(package).__path__
        for module in pkgutil.iter_modules(path, f"{package}."):
            importlib.import_module(module.name)
    from _pytest.assertion.rewrite import AssertionRewritingHook

    unrewritten = sorted(
        name
        for name in rewritten & set(sys.modules)
        if not isinstance(getattr(sys.modules[name], "__loader__", None), AssertionRewritingHook)
    )
    if unrewritten:
        raise SystemExit(f"_zygote: imported what pytest rewrites, unrewritten: {unrewritten}")
    eager = sorted(name for name in _LAZY if name in sys.modules)
    if eager:
        raise SystemExit(f"_zygote: imported what a session imports on demand: {eager}")
    # Everything imported so far lives as long as any child: out of the collector's reach,
    # each child's collections (pytest's at the session's end, the interpreter's at exit)
    # no longer walk it, and its pages stay shared with the server (no copy-on-write).
    gc.freeze()


def _preload_rewritten(names: set[str], plugins: list[str]) -> None:
    """Import the ``plugins`` of the distributions pytest rewrites (``names``: their
    top-level modules) the way a session does: through pytest's rewriting hook, with its
    cached rewritten bytecode. A session's own hook then takes them for its kind's work
    (``AssertionRewritingHook.mark_rewrite`` warns only about a module another loader
    imported)."""
    from _pytest.assertion import AssertionState
    from _pytest.assertion.rewrite import AssertionRewritingHook, assertstate_key
    from _pytest.stash import Stash
    from pluggy._tracing import TagTracer

    class _Defaults:
        """The little of a ``Config`` the hook reads, with pytest's defaults."""

        trace = TagTracer().get("config")
        stash = Stash()

        def getini(self, name: str) -> object:
            if name == "python_files":
                return ["test_*.py", "*_test.py"]
            if name == "enable_assertion_pass_hook":
                return False
            raise ValueError(name)

    config = _Defaults()
    config.stash[assertstate_key] = AssertionState(config, "rewrite")  # type: ignore[arg-type]
    hook = AssertionRewritingHook(config)  # type: ignore[arg-type]
    hook.mark_rewrite(*names)
    sys.meta_path.insert(0, hook)
    try:
        for plugin in plugins:
            importlib.import_module(plugin)
    finally:
        sys.meta_path.remove(hook)


def _base_path() -> list[str]:
    """The interpreter's own ``sys.path``: without this script's folder and without what
    this process's ``PYTHONPATH`` added (each child puts its own in front)."""
    own = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return [p for p in sys.path[1:] if p not in own]


def _streams(unbuffered: bool = False) -> None:
    """New ``sys.stdin``/``stdout``/``stderr`` over descriptors 0-2, as a fresh interpreter
    makes them for files and pipes (block-buffered, the locale's encoding; ``-u``: stdout
    and stderr written through)."""
    encoding = os.environ.get("PYTHONIOENCODING", "").partition(":")[0] or "utf-8"

    def text(fd: int, mode: str, errors: str) -> io.TextIOWrapper:
        raw = io.FileIO(fd, mode, closefd=False)
        buffered: io.BufferedReader | io.BufferedWriter = (
            io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw)
        )
        through = unbuffered and mode == "w"
        return io.TextIOWrapper(buffered, encoding=encoding, errors=errors, write_through=through)

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


def _child(
    request: dict[str, Any], fds: list[int], base_path: list[str], link: socket.socket
) -> None:
    """In the forked child: become ``python -m MODULE ARGS`` (pytest unless the request
    names another module), or ``python [-u] [-B] -c CODE`` for a request with ``code``, in
    the request's folder, with its environment and streams, run it and exit as the
    interpreter would. ``link``: the child's own connection to the server, through which
    the xdist workers it starts are forked too (``_LinkedPopen``). Never returns."""
    global _LINK
    code: object = 1
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        cwd = str(request["cwd"])
        env = dict(request["env"])
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        extra = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
        source = request.get("code")
        flags = set(request.get("flags", ()))
        sys.path[:] = ["" if source is not None else os.getcwd(), *extra, *base_path]
        importlib.invalidate_caches()
        tempfile.tempdir = None
        _streams(unbuffered="-u" in flags or bool(env.get("PYTHONUNBUFFERED")))
        _LINK = Link(link)
        subprocess.Popen = _LinkedPopen  # type: ignore[misc]
        try:
            if source is not None:
                sys.dont_write_bytecode = sys.dont_write_bytecode or "-B" in flags
                sys.argv = ["-c"]
                main = types.ModuleType("__main__")
                sys.modules["__main__"] = main
                exec(compile(str(source), "<string>", "exec"), main.__dict__)
            else:
                module = str(request.get("module", "pytest"))
                sys.argv = [module, *map(str, request["args"])]
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


# execnet's bootstrap of a ``popen`` gateway (``execnet.gateway_io.popen_args``): how xdist
# starts its workers, ``python -u [-B] -c BOOTSTRAP`` with stdin and stdout as pipes
_EXECNET_BOOTSTRAP = "import sys;exec(eval(sys.stdin.readline()))"
_LINK: Link | None = None


class Link:
    """A connection to the server that sends requests and reads their answers: a forked
    child's own (the xdist workers it starts) and the worker's (``tests/forked_sessions.py``)."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._lock = threading.Lock()
        self._pending = b""
        self._next = 0
        self._exits: dict[int, int] = {}

    def _read(self) -> dict[str, Any]:
        while b"\n" not in self._pending:
            data = self._sock.recv(65536)
            if not data:
                raise ConnectionError("the session server went away")
            self._pending += data
        line, _, self._pending = self._pending.partition(b"\n")
        return dict(json.loads(line))

    def start(self, request: dict[str, object], fds: list[int]) -> tuple[int, int] | None:
        """The id and pid of a child forked for ``request``, or None if the server cannot
        run it the same way (the caller then starts a fresh interpreter)."""
        with self._lock:
            self._next += 1
            ident = self._next
            try:
                self._sock.sendmsg(
                    [json.dumps({**request, "id": ident}).encode() + b"\n"],
                    [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds).tobytes())],
                )
                while True:
                    message = self._read()
                    if "exit" in message:
                        self._exits[int(message["id"])] = int(message["exit"])
                    elif message["id"] == ident:
                        pid = message.get("pid")
                        return None if pid is None else (ident, int(pid))
            except OSError:
                return None

    def exit_code(self, ident: int, timeout: float | None) -> int | None:
        """The child's exit code, waiting at most ``timeout`` seconds (None: as long as it
        runs); None if it is still running then."""
        with self._lock:
            self._sock.settimeout(timeout)
            try:
                while ident not in self._exits:
                    message = self._read()
                    if "exit" in message:
                        self._exits[int(message["id"])] = int(message["exit"])
            except TimeoutError:
                return None
            finally:
                self._sock.settimeout(None)
            return self._exits.pop(ident)

    def close(self) -> None:
        self._sock.close()


def _execnet_flags(args: object, rest: tuple[object, ...], kw: dict[str, Any]) -> set[str] | None:
    """The interpreter flags of an execnet ``popen`` gateway's command, else None."""
    if rest or not isinstance(args, list) or len(args) < 3:
        return None
    if [os.fspath(a) for a in args[:1] + args[-2:]] != [sys.executable, "-c", _EXECNET_BOOTSTRAP]:
        return None
    flags = set(args[1:-2])
    pipes = kw == {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE}
    return flags if pipes and flags <= {"-u", "-B"} else None


class _LinkedPopen(subprocess.Popen):  # type: ignore[type-arg]
    """``subprocess.Popen`` in a child: an xdist worker's interpreter is forked from the
    server too (its imports done), with the same pipes; anything else starts as usual."""

    def __init__(self, args: Any, *rest: Any, **kw: Any) -> None:
        self._linked: int | None = None
        flags = _execnet_flags(args, rest, kw)
        started = None
        if flags is not None and _LINK is not None:
            child_in, stdin = os.pipe()
            stdout, child_out = os.pipe()
            request: dict[str, object] = {
                "code": _EXECNET_BOOTSTRAP,
                "flags": sorted(flags),
                "cwd": os.getcwd(),
                "env": dict(os.environ),
            }
            try:
                started = _LINK.start(request, [child_in, child_out, 2])
            finally:
                os.close(child_in)
                os.close(child_out)
            if started is None:
                os.close(stdin)
                os.close(stdout)
        if started is None:
            super().__init__(args, *rest, **kw)
            return
        self._linked, self.pid = started
        self.args = args
        # buffered binary files over the pipes, as ``Popen`` makes them (closed by it)
        self.stdin = open(stdin, "wb", -1)  # noqa: SIM115
        self.stdout = open(stdout, "rb", -1)  # noqa: SIM115
        self.stderr = None
        self.returncode = None
        self.text_mode = False
        self._child_created = False  # not this process's child: nothing to reap at exit
        self._sigint_wait_secs = 0.25
        self._closed_child_pipe_fds = True
        self._communication_started = False
        self._input = None

    def _internal_poll(self, *args: Any, **kw: Any) -> int | None:
        if self._linked is None:
            polled: int | None = super()._internal_poll(*args, **kw)  # type: ignore[misc]
            return polled
        if self.returncode is None and _LINK is not None:
            self.returncode = _LINK.exit_code(self._linked, 0.001)
        return self.returncode

    def _wait(self, timeout: float | None) -> int:
        if self._linked is None:
            return super()._wait(timeout)  # type: ignore[misc,no-any-return]
        if self.returncode is None and _LINK is not None:
            self.returncode = _LINK.exit_code(self._linked, timeout)
            if self.returncode is None:
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
        assert self.returncode is not None
        return self.returncode


def python_env(env: dict[str, str]) -> dict[str, str]:
    """What an interpreter reads of its environment once, at start: the ``PYTHON*``
    variables (but ``PYTHONPATH``, which a child applies itself) and the locale (as
    ``tests/forked_sessions.py`` compares them)."""
    return {
        k: v
        for k, v in env.items()
        if (k.startswith("PYTHON") and k != "PYTHONPATH")
        or k in ("LANG", "LANGUAGE")
        or k.startswith("LC_")
    }


class _Channel:
    """A connection the server takes requests on: the worker's, or a child's link."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.pending = b""

    def send(self, message: dict[str, object]) -> None:
        with contextlib.suppress(OSError):  # a child gone meanwhile
            self.sock.sendall(json.dumps(message).encode() + b"\n")

    def receive(self) -> tuple[dict[str, Any], list[int]] | None:
        """The next request with the descriptors sent with it; None when the other end
        closed."""
        fds_array = array.array("i")
        data, ancdata, _, _ = self.sock.recvmsg(
            1 << 20, socket.CMSG_SPACE(_MAX_FDS * fds_array.itemsize)
        )
        if not data:
            return None
        received: list[int] = []
        for level, kind, payload in ancdata:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                received.extend(array.array("i", payload[: len(payload) // 4 * 4]))
        self.pending += data
        while b"\n" not in self.pending:
            more = self.sock.recv(1 << 20)
            if not more:
                return None
            self.pending += more
        line, _, self.pending = self.pending.partition(b"\n")
        return json.loads(line), received


def main(fd: int) -> None:
    _preload()
    base_path = _base_path()
    own_env = python_env(dict(os.environ))
    worker = _Channel(socket.socket(fileno=fd))
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    children: dict[int, tuple[_Channel, object]] = {}
    selector = selectors.DefaultSelector()
    selector.register(worker.sock, selectors.EVENT_READ, worker)
    selector.register(wake_read, selectors.EVENT_READ, None)

    while True:
        for key, _ in selector.select():
            channel = key.data
            if channel is None:
                os.read(wake_read, 512)
                continue
            received = channel.receive()
            if received is None:
                selector.unregister(channel.sock)
                channel.sock.close()
                if channel is worker:
                    return  # the client went away: so do we (children run on)
                continue
            request, fds = received
            if "code" in request and python_env(dict(request["env"])) != own_env:
                for received_fd in fds:
                    os.close(received_fd)
                channel.send({"id": request["id"], "pid": None})
                continue
            ours, theirs = socket.socketpair()
            pid = os.fork()
            if pid == 0:
                ours.close()
                selector.close()
                for other in (worker, *(c for c, _ in children.values())):
                    other.sock.close()
                os.close(wake_read)
                os.close(wake_write)
                _child(request, fds, base_path, theirs)
            theirs.close()
            for received_fd in fds:
                os.close(received_fd)
            link = _Channel(ours)
            selector.register(ours, selectors.EVENT_READ, link)
            children[pid] = (channel, request["id"])
            channel.send({"id": request["id"], "pid": pid})
        while children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            owner = children.pop(pid, None)
            if owner is not None:
                owner[0].send({"id": owner[1], "exit": os.waitstatus_to_exitcode(status)})


if __name__ == "__main__":
    main(int(sys.argv[1]))
