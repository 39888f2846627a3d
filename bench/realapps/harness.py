"""The real-app corpus harness: install third-party web apps from the package registries,
serve them on 127.0.0.1, and stop them again.

Every app of the corpus is one module in ``bench/realapps/apps/`` exporting ``APP``, an
:class:`AppSpec`. The harness knows nothing of any app; an app module knows nothing of the
runner. Installs go into a cache folder (``PACTS_REALAPPS_CACHE``, default
``~/.cache/pytest-pacts/realapps``), one virtual environment per app version, made once
and reused (a stamp file records what was installed, so a changed pin reinstalls).

Data flow::

    AppSpec.install(version)  -> venv in the cache (idempotent)
    AppSpec.start(version)    -> Served(base_url, process, workdir): seeded, answering HTTP
    flows/<app>.req.yaml      -> requirements written once from the oldest version's UI
    flows/<app>.auth.yaml     -> optional auth profiles: flows with `auth:` start signed in
    truth/<app>.yaml          -> per requirement, per step, per version: the right element
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
FLOWS = HERE / "flows"
TRUTH = HERE / "truth"


# Chromium resolves no host name but the loopback ones: a page's request for a CDN, a web-font
# host or an error reporter fails at once (``net::ERR_NAME_NOT_RESOLVED``) and no DNS query
# leaves the machine. The corpus runs offline, and some apps' pages ask outside hosts anyway
# (Kiwi TCMS's Markdown editor asks cdn.jsdelivr.net for a spelling dictionary). The rule maps
# IP literals too, so 127.0.0.1 is excepted by name.
LOOPBACK_ONLY = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"


def offline_launch_options() -> dict[str, object]:
    """``chromium.launch`` keyword arguments for the corpus's browsers: the package's own
    (:func:`pytest_pacts.browser.launch_options`) with :data:`LOOPBACK_ONLY` added."""
    from pytest_pacts.browser import launch_options

    options = dict(launch_options())
    args = options.get("args")
    options["args"] = [*(args if isinstance(args, list) else []), LOOPBACK_ONLY]
    return options


def cache_root() -> Path:
    root = Path(os.environ.get("PACTS_REALAPPS_CACHE", "~/.cache/pytest-pacts/realapps"))
    root = root.expanduser()
    root.mkdir(parents=True, exist_ok=True)
    return root


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ensure_venv(name: str, requirements: Sequence[str], python: str | None = None) -> Path:
    """A virtual environment ``<cache>/<name>`` with ``requirements`` installed (pip
    specifiers, pinned by the caller). Made once; reinstalled only when the list changes.

    Safe when several corpus runs ask for the same app at once: an exclusive lock on
    ``<cache>/<name>.lock`` serialises them (before, two runs rebuilt the same environment
    over each other and both were left broken). The stamp is written last, so a run killed
    half-way leaves an environment that the next run rebuilds."""
    import fcntl

    root = cache_root()
    venv = root / name
    stamp = venv / (".pacts-" + hashlib.sha256("\n".join(requirements).encode()).hexdigest()[:16])
    if stamp.exists() and venv_holds(venv, requirements):
        return venv
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stamp.exists() and venv_holds(venv, requirements):  # built while this one waited
            return venv
        if venv.exists():
            shutil.rmtree(venv)
        subprocess.run([python or sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", *requirements],
            check=True,
            timeout=1800,
        )
        stamp.touch()
    return venv


def serve(
    argv: Sequence[str],
    *,
    port: int,
    cwd: Path,
    workdir: Path,
    ready: str = "",
    env: Mapping[str, str] | None = None,
    timeout_s: float = 120.0,
    then: Callable[[str], object] | None = None,
) -> Served:
    """Start a server (:func:`spawn`) on 127.0.0.1:``port`` and return it once
    ``base_url + ready`` answers and ``then(base_url)`` (seeding through the app's own API)
    is done; a server that does not come up, or whose seeding fails, is stopped before the
    error goes on."""
    proc, log = spawn(argv, cwd=cwd, env=env)
    served = Served(base_url=f"http://127.0.0.1:{port}/", process=proc, workdir=workdir, log=log)
    try:
        wait_http(served.base_url + ready, timeout_s=timeout_s, proc=proc)
        if then is not None:
            then(served.base_url)
    except BaseException:
        served.stop()
        raise
    return served


def ensure_npm(name: str, package: str, marker: str, timeout: float = 900) -> Path:
    """A folder ``<cache>/<name>`` with npm's ``package`` (``name@version``) installed in
    its ``node_modules``; ``marker`` is a file under it (relative to the folder) that a
    whole install has. Made once, with a lock and a stamp written last, as
    :func:`ensure_venv` does."""
    import fcntl

    root = cache_root()
    folder = root / name
    stamp = folder / ".pacts-installed"
    if stamp.exists() and (folder / marker).exists():
        return folder
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stamp.exists() and (folder / marker).exists():  # installed while this one waited
            return folder
        with contextlib.suppress(FileNotFoundError):
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        (folder / "package.json").write_text('{"private": true}\n')
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--silent", package],
            cwd=folder,
            check=True,
            timeout=timeout,
        )
        stamp.touch()
    return folder


_PIN = re.compile(r"([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;,]+)")
_HOLDS = """
import importlib.metadata as m, sys
ok = sys.prefix != sys.base_prefix
for pin in sys.argv[1:]:
    name, _, version = pin.partition("==")
    try:
        ok = ok and m.version(name) == version
    except m.PackageNotFoundError:
        ok = False
raise SystemExit(0 if ok else 1)
"""


def venv_holds(venv: Path, requirements: Sequence[str]) -> bool:
    """Whether ``venv`` is still a virtual environment (its ``pyvenv.cfg`` there: without it
    its Python is the base interpreter, and imports come from the base's site-packages) with
    every ``name==version`` pin of ``requirements`` installed at that version.

    A stamp alone said "built" for an environment whose ``pyvenv.cfg`` had gone: MLflow
    2.22.5's then served the MLflow 2.4.2 installed in the base interpreter (docs/real-apps.md).
    """
    python = venv / "bin" / "python"
    if not (venv / "pyvenv.cfg").is_file() or not python.exists():
        return False
    pins = [f"{m[1]}=={m[2]}" for r in requirements if (m := _PIN.fullmatch(r.strip()))]
    try:
        done = subprocess.run(
            [str(python), "-c", _HOLDS, *pins], capture_output=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def wait_http(
    url: str, timeout_s: float = 60.0, proc: subprocess.Popen[bytes] | None = None
) -> None:
    """Wait until ``url`` answers any HTTP status (the server is up), or raise."""
    deadline = time.monotonic() + timeout_s
    last: Exception | None = None
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode} before answering {url}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError:
            return
        except (urllib.error.URLError, OSError) as exc:
            last = exc
            time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer within {timeout_s:.0f} s ({last})")


@dataclass
class Served:
    """A running app: its base URL (ends with ``/``), the process and its work folder."""

    base_url: str
    process: subprocess.Popen[bytes]
    workdir: Path
    log: Path

    def stop(self) -> None:
        stop_group(self.process)


def stop_group(process: subprocess.Popen[bytes]) -> None:
    """Stop a process started by :func:`spawn` and every process of its group (SIGTERM, then
    SIGKILL after 10 s)."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def spawn(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str] | None = None,
    log_name: str = "server.log",
) -> tuple[subprocess.Popen[bytes], Path]:
    """Start a process in its own process group, output appended to ``cwd/log_name``."""
    log = cwd / log_name
    out = log.open("ab")
    proc = subprocess.Popen(
        list(argv),
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdout=out,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    out.close()
    return proc, log


def write_project(root: Path, files: Mapping[str, str]) -> None:
    """Write a generated project (``files``: relative path -> source, dedented) under ``root``."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def project_hash(files: Mapping[str, str], env: Mapping[str, str]) -> str:
    """A short digest of a generated project and its environment: it names the template
    (migrated, seeded data) built from them, so a changed file or value builds a new one."""
    digest = hashlib.sha256()
    for rel, text in sorted(files.items()):
        digest.update(rel.encode() + b"\0" + text.encode() + b"\0")
    for key, value in sorted(env.items()):
        digest.update(f"{key}={value}\0".encode())
    return digest.hexdigest()[:12]


def django_template_db(
    venv: Path,
    files: Mapping[str, str],
    env: Mapping[str, str],
    run_env: Mapping[str, str],
    timeout_s: float,
) -> Path:
    """The migrated, seeded database of a generated Django project (``files``: its
    ``manage.py``, settings and ``seed.py``), built once in ``venv``'s folder and named by
    ``project_hash(files, env)``: ``manage.py migrate`` then ``seed.py``, each bounded by
    ``timeout_s``, run with ``run_env``, their output kept in ``template-build.log`` beside
    it (a failed build says so, and the log says why)."""
    db = venv / f"template-{project_hash(files, env)}.sqlite3"
    if db.exists():
        return db
    python = str(venv / "bin" / "python")
    log_path = venv / "template-build.log"
    with (
        tempfile.TemporaryDirectory(prefix="pacts-django-build-") as tmp,
        log_path.open("ab") as log,
    ):
        root = Path(tmp)
        write_project(root, files)
        for argv in (["manage.py", "migrate", "--noinput", "-v", "0"], ["seed.py"]):
            try:
                subprocess.run([python, *argv], cwd=root, env={**os.environ, **run_env},
                               check=True, timeout=timeout_s, stdout=log,
                               stderr=subprocess.STDOUT)  # fmt: skip
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
                raise RuntimeError(f"building {db.name} failed: {exc}; see {log_path}") from exc
        part = db.with_suffix(f".{os.getpid()}.part")
        shutil.copyfile(root / "db.sqlite3", part)
        os.replace(part, db)  # atomic: two starts building at once both end well
    return db


def serve_django(
    venv: Path, workdir: Path, env: Mapping[str, str], ready: str, timeout_s: float
) -> Served:
    """Serve the Django project in ``workdir`` with ``venv``'s ``manage.py runserver`` on a
    free loopback port; return once ``ready`` (a path under the base URL) answers."""
    port = free_port()
    argv = [
        str(venv / "bin" / "python"),
        "manage.py",
        "runserver",
        f"127.0.0.1:{port}",
        "--noreload",
    ]
    proc, log = spawn(argv, cwd=workdir, env=env)
    base_url = f"http://127.0.0.1:{port}/"
    served = Served(base_url=base_url, process=proc, workdir=workdir, log=log)
    try:
        wait_http(base_url + ready, timeout_s=timeout_s, proc=proc)
    except BaseException:
        served.stop()
        raise
    return served


def django_project_env(env: Mapping[str, str]) -> dict[str, str]:
    """What a generated Django project (``site_proj``) runs with: ``env`` plus its settings."""
    return {**env, "PYTHONDONTWRITEBYTECODE": "1", "DJANGO_SETTINGS_MODULE": "site_proj.settings"}


def start_django_project(
    venv: Path,
    workdir: Path,
    files: Mapping[str, str],
    env: Mapping[str, str],
    ready: str,
    *,
    build_s: float,
    serve_s: float,
) -> Served:
    """A generated Django project served from ``workdir``: its files written there, a copy
    of its template database (:func:`django_template_db`, built once within ``build_s``),
    then ``runserver`` until ``ready`` answers (:func:`serve_django`, within ``serve_s``)."""
    run_env = django_project_env(env)
    template = django_template_db(venv, files, env, run_env, timeout_s=build_s)
    write_project(workdir, files)
    shutil.copyfile(template, workdir / "db.sqlite3")
    return serve_django(venv, workdir, run_env, ready, timeout_s=serve_s)


@dataclass(frozen=True)
class AppSpec:
    """One app of the corpus.

    ``versions`` oldest first; the flows are written on ``versions[0]``.
    ``install(version)`` makes the app's venv (idempotent) and returns it.
    ``start(version, workdir)`` installs if needed, seeds a fresh copy of the app's data in
    ``workdir`` (a new temporary folder per start, so every run begins from the same data),
    starts the server on a free 127.0.0.1 port and returns once it answers.
    ``env`` holds values the flows read with ``{{env.NAME}}`` (for example a password).
    """

    name: str
    kind: str  # a few words: "admin CRUD (Django templates)", "React single-page app", ...
    versions: tuple[str, ...]
    install: Callable[[str], Path]
    start: Callable[[str, Path], Served]
    env: Mapping[str, str] = field(default_factory=dict)

    @property
    def flows(self) -> Path:
        return FLOWS / f"{self.name}.req.yaml"

    @property
    def truth(self) -> Path:
        return TRUTH / f"{self.name}.yaml"

    @property
    def auth(self) -> Path | None:
        """The app's auth profiles (``flows/<app>.auth.yaml``), when its flows use one."""
        path = FLOWS / f"{self.name}.auth.yaml"
        return path if path.is_file() else None

    @contextlib.contextmanager
    def serve(self, version: str) -> Iterator[Served]:
        """The app started in a new temporary work folder, stopped at the end; the folder is
        removed either way, also when the start fails (then the error carries the last lines
        of the server's log, which went with the folder)."""
        workdir = Path(tempfile.mkdtemp(prefix=f"pacts-{self.name}-{version}-"))
        try:
            try:
                served = self.start(version, workdir)
            except BaseException as exc:
                _note_log_tail(exc, workdir / "server.log")
                raise
            try:
                yield served
            finally:
                served.stop()
        finally:
            shutil.rmtree(workdir, ignore_errors=True)


def _note_log_tail(exc: BaseException, log: Path, lines: int = 20) -> None:
    """Add the last ``lines`` lines of ``log`` (when there is one) to ``exc``'s notes."""
    with contextlib.suppress(OSError):
        tail = log.read_bytes()[-8192:].decode(errors="replace").splitlines()[-lines:]
        if tail:
            exc.add_note(f"{log.name} (last lines):\n" + "\n".join(tail))


def load_apps(names: Sequence[str] | None = None) -> list[AppSpec]:
    """The corpus apps (``apps/*.py`` exporting ``APP``), optionally only ``names``, in the
    order given. A module is named after its app (``apps/<name>.py``), so with ``names`` only
    those modules are imported (another app's module, half written on another branch, cannot
    stop the run), and a name with no module on this branch is left out: the caller says so
    (``split.select``)."""
    import importlib

    sys.path.insert(0, str(HERE.parent))
    stems = sorted(p.stem for p in (HERE / "apps").glob("*.py") if not p.name.startswith("_"))
    if names is not None:
        stems = [n for n in dict.fromkeys(names) if n in stems]
    apps: list[AppSpec] = []
    for stem in stems:
        module = importlib.import_module(f"realapps.apps.{stem}")
        apps.append(module.APP)
    return apps
