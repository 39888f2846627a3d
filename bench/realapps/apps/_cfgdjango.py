"""The start-up pretix and pretalx share: two Django apps by the same makers, each configured by
one INI file named in an environment variable (``PRETIX_CONFIG_FILE``,
``PRETALX_CONFIG_FILE``), each run as ``python -m APP`` from its own virtual environment.

An empty database is migrated once per version into the cache (minutes: hundreds of
migrations), under a lock; every start copies it, writes the configuration with a free port
on 127.0.0.1, seeds it with the app module's script, serves ``runserver`` and asks for the
pages whose style sheets are compiled on first request, so that a flow's first page does not
wait for that."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from realapps.harness import Served, cache_root, free_port, serve


@dataclass(frozen=True)
class ConfiguredDjango:
    """``module`` (the package run as ``python -m``), its configuration's text (formatted with
    ``url`` and ``data``), the script that fills the database, the path that answers once it
    is ready, and the paths asked for once before a flow starts."""

    module: str
    config: str
    seed: str
    ready: str
    warm: Sequence[str]

    def _env(self, workdir: Path, config: Path) -> dict[str, str]:
        return {"HOME": str(workdir), f"{self.module.upper()}_CONFIG_FILE": str(config)}

    def run(self, venv: Path, args: list[str], workdir: Path, config: Path, timeout: float) -> None:
        env = {**os.environ, **self._env(workdir, config),
               "DJANGO_SETTINGS_MODULE": f"{self.module}.settings"}  # fmt: skip
        with (workdir / "setup.log").open("ab") as out:
            subprocess.run([str(venv / "bin" / "python"), *args], cwd=workdir, env=env,
                           stdout=out, stderr=subprocess.STDOUT, check=True,
                           timeout=timeout)  # fmt: skip

    def template(self, version: str, venv: Path) -> Path:
        """An empty, migrated database of ``version`` in the cache (made once: minutes)."""
        folder = cache_root() / f"{self.module}-{version}-db"
        db = folder / "data" / "db.sqlite3"
        stamp = folder / ".pacts-migrated"
        if stamp.exists() and db.exists():
            return db
        with open(cache_root() / f"{self.module}-{version}-db.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if stamp.exists() and db.exists():  # made while this one waited
                return db
            shutil.rmtree(folder, ignore_errors=True)
            (folder / "data").mkdir(parents=True)
            config = folder / f"{self.module}.cfg"
            config.write_text(self.config.format(url="http://127.0.0.1:9", data=folder / "data"))
            migrate = ["-m", self.module, "migrate", "--noinput"]
            self.run(venv, migrate, folder, config, timeout=2400)
            stamp.touch()
        return db

    def start(self, version: str, venv: Path, workdir: Path) -> Served:
        template = self.template(version, venv)
        data = workdir / "data"
        data.mkdir()
        shutil.copyfile(template, data / "db.sqlite3")
        port = free_port()
        config = workdir / f"{self.module}.cfg"
        config.write_text(self.config.format(url=f"http://127.0.0.1:{port}", data=data))
        (workdir / "seed.py").write_text(self.seed)
        self.run(venv, [str(workdir / "seed.py")], workdir, config, timeout=600)
        command = [str(venv / "bin" / "python"), "-m", self.module, "runserver",
                   f"127.0.0.1:{port}", "--noreload"]  # fmt: skip
        return serve(
            command, port=port, cwd=workdir, workdir=workdir, ready=self.ready,
            env=self._env(workdir, config), timeout_s=600, then=self._warm,
        )  # fmt: skip

    def _warm(self, base_url: str) -> None:
        for path in self.warm:
            with urllib.request.urlopen(base_url + path, timeout=600) as answer:
                answer.read()
