"""Plans built before, kept as plain data so an unchanged requirement file is collected
without planning it again, and without pydantic.

IDEs run ``pytest --collect-only`` all the time. Planning a file validates it against the
schema and builds its requirement models (pydantic); importing pydantic and building those
models costs more than the rest of the plugin's collection. A collection served from here
reads each file's plans as the JSON the models dump (:class:`PlainPlan`), builds its items
from that, and imports neither the loader, the readers nor pydantic; a requirement's
:class:`~pytest_pacts.models.Plan` is built from its data when the requirement runs
(:attr:`PlainPlan.plan`). A file that does not plan is never kept: its errors are found,
and worded, afresh each time.

- An entry is named by a hash of the file's bytes and of everything else its plans are
  built from (:class:`PlanInputs`: how errors name the file, its folder, the secret vars,
  the read limits, the shared blocks files' bytes) and of the planner's own code (its
  modules' sizes and times: a changed rule is a different entry, also in a checkout).
- The environment is recorded, not hashed: planning asks only whether a ``{{env.X}}``
  without a default is set, so the entry keeps which names were asked and whether each
  was set, and is used only while each still is (or still is not). A planning that reads
  an environment value or lists the environment is not kept.
- The image targets' files must exist for a file to plan (``plan_checks.in_folder``): the
  entry keeps their paths and is used only while each still exists.
- Every entry is sealed (``cache_files.seal``) with a key drawn from the file's bytes: a
  plan keeps the values the file writes (vars, defaults), which may be secret.
- Entries are written and pruned as the document cache's are (``cache_files.py``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_pacts._version import __version__
from pytest_pacts.models.text import render_source, zero_based_line
from pytest_pacts.planner.cache_files import read_entry, seal, write_entry
from pytest_pacts.planner.readers.limits import ReadLimits

if TYPE_CHECKING:
    from pytest_pacts.models import Plan

#: Bump when the entry's layout changes (the plans' own layout is the models', whose code
#: is part of every entry's name).
FORMAT_VERSION = 1
_SUFFIX = ".plans"
#: What a plan depends on besides the planner's modules: the models it is built into.
_CODE = ("models/requirement.py", "models/text.py", "settings.py")

JsonDict = dict[str, Any]


@dataclass(frozen=True)
class PlanInputs:
    """What a file's plans are built from besides its bytes and the environment."""

    display: str  # how locations name the file
    folder: str  # the absolute folder of the file (image targets are relative to it)
    secret_vars: frozenset[str]
    limits: ReadLimits
    max_file_bytes: int
    check_env: bool
    blocks: tuple[str, ...]  # a digest of each shared blocks file (``blocks_digest``)


def blocks_digest(path: Path) -> str:
    """What the plan cache knows of a shared blocks file: its path and bytes (or that it
    cannot be read, which planning then reports)."""
    digest = hashlib.sha256(os.fsencode(path) + b"\0")
    try:
        digest.update(path.read_bytes())
    except OSError as exc:
        digest.update(f"unreadable: {type(exc).__name__}".encode())
    return digest.hexdigest()


class PlainPlan:
    """A plan as plain data (``Plan.model_dump(mode="json")`` without the fields left at
    their defaults, and the requirement's steps only when they are not the plan's) and what
    collection reads from it; :attr:`plan` builds the :class:`~pytest_pacts.models.Plan`
    on first use."""

    __slots__ = ("_plan", "data", "folder")

    def __init__(self, data: JsonDict, folder: str | None, plan: Plan | None = None) -> None:
        self.data = data
        self.folder = folder  # not in the dump (``Requirement.folder`` is excluded)
        self._plan = plan

    @classmethod
    def of(cls, plan: Plan) -> PlainPlan:
        data = plan.model_dump(mode="json", exclude_defaults=True)
        if data["requirement"]["steps"] == data["steps"]:
            del data["requirement"]["steps"]  # the loader's plans: kept once (half the entry)
        return cls(data, plan.requirement.folder, plan)

    @property
    def plan(self) -> Plan:
        """The plan as the models build it (pydantic is imported here, when a test runs)."""
        if self._plan is None:
            from pytest_pacts.models import Plan

            data = dict(self.data)
            requirement = {"steps": data["steps"], **data["requirement"]}
            data["requirement"] = {**requirement, "folder": self.folder}
            self._plan = Plan.model_validate(data)
        return self._plan

    @property
    def requirement(self) -> JsonDict:
        requirement: JsonDict = self.data["requirement"]
        return requirement

    @property
    def req_id(self) -> str:
        return str(self.requirement["req_id"])

    @property
    def title(self) -> str | None:
        title = self.requirement.get("title")
        return None if title is None else str(title)

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(self.requirement.get("tags") or ())

    @property
    def context(self) -> JsonDict:
        context: JsonDict = self.requirement.get("context") or {}
        return context

    @property
    def plan_hash(self) -> str:
        return str(self.data["plan_hash"])

    @property
    def steps(self) -> list[JsonDict]:
        steps: list[JsonDict] = self.data["steps"]
        return steps

    def source(self) -> str:
        """Where the requirement was written (``file:sheet:row:col``, ``file:line:col``)."""
        return render_source(**self.requirement["source"])

    @property
    def line(self) -> int:
        """The 0-based line pytest's ``reportinfo`` wants (sheet rows count as lines)."""
        source = self.requirement["source"]
        return zero_based_line(source.get("sheet"), source.get("row"), source.get("line"))


class _WatchedEnv(Mapping[str, str]):
    """The environment as planning sees it, noting what it asks: which names are set (all
    a plan depends on), or a value or the whole (then the plans are not kept)."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self._env = env
        self.asked: dict[str, bool] = {}
        self.values_read = False

    def __contains__(self, name: object) -> bool:
        present = name in self._env
        if isinstance(name, str):
            self.asked[name] = present
        else:
            self.values_read = True
        return present

    def __getitem__(self, name: str) -> str:
        self.values_read = True
        return self._env[name]

    def __iter__(self) -> Iterator[str]:
        self.values_read = True
        return iter(self._env)

    def __len__(self) -> int:
        self.values_read = True
        return len(self._env)


@cache
def _code_stamp() -> str:
    """The planner's code as it is now: each module's path, size and time (a stat each)."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(__version__.encode())
    planner = [p for folder in ("planner", "planner/readers") for p in _modules(package / folder)]
    for path in sorted([*planner, *(package / name for name in _CODE)]):
        try:
            stat = path.stat()
        except OSError:
            continue
        digest.update(f"{path.name}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return digest.hexdigest()


def _modules(folder: Path) -> list[Path]:
    try:
        return [Path(e.path) for e in os.scandir(folder) if e.name.endswith((".py", ".json"))]
    except OSError:
        return []


def entry_key(content: bytes, inputs: PlanInputs) -> str:
    """The name of the entry for a file's ``content`` planned with ``inputs``."""
    header = json.dumps(
        [
            FORMAT_VERSION,
            _code_stamp(),
            inputs.display,
            inputs.folder,
            sorted(inputs.secret_vars),
            dataclasses.astuple(inputs.limits),
            inputs.max_file_bytes,
            inputs.check_env,
            list(inputs.blocks),
        ]
    ).encode()
    digest = hashlib.sha256(header)
    digest.update(b"\0")
    digest.update(content)
    return digest.hexdigest()


def _seal_key(content: bytes, key: str) -> bytes:
    """The key an entry is sealed with: the file's bytes in another domain than the
    entry's name, so neither the entry nor its name gives it."""
    digest = hashlib.sha256(b"pytest-pacts plan seal\0" + key.encode() + b"\0")
    digest.update(content)
    return digest.digest()


def plain_plans(
    path: Path,
    inputs: PlanInputs,
    env: Mapping[str, str],
    cache_dir: Path | None,
    plan: Callable[[Mapping[str, str]], Sequence[Plan]],
) -> tuple[PlainPlan, ...]:
    """The plans of ``path``: from ``cache_dir`` when the file was planned before with the
    same inputs and what planning asked of ``env`` is unchanged (see the module
    documentation), else ``plan(env)`` (which raises as the loader does), kept for the next
    time. ``cache_dir=None`` plans every time."""
    try:
        too_big = path.stat().st_size > inputs.max_file_bytes
    except OSError:
        too_big = True  # planning words it
    if cache_dir is None or too_big:
        return tuple(PlainPlan.of(p) for p in plan(env))
    content = path.read_bytes()
    key = entry_key(content, inputs)
    entry = cache_dir / f"{key}{_SUFFIX}"
    secret = _seal_key(content, key)
    kept = _load(entry, secret, env, inputs.folder)
    if kept is not None:
        return kept
    watched = _WatchedEnv(env)
    plans = tuple(PlainPlan.of(p) for p in plan(watched))
    images = sorted(
        {
            step.target.image
            for p in plans
            for step in p.plan.steps
            if step.target is not None and step.target.image
        }
    )
    if not watched.values_read:
        try:
            unchanged = path.read_bytes() == content  # changed while it was planned: not kept
        except OSError:
            unchanged = False
        if unchanged:
            payload = {
                "format": FORMAT_VERSION,
                "env": watched.asked,
                "images": images,
                "plans": [p.data for p in plans],
            }
            text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
            write_entry(entry, seal(text.encode("utf-8"), secret), (_SUFFIX,))
    return plans


def _load(
    entry: Path, secret: bytes, env: Mapping[str, str], folder: str
) -> tuple[PlainPlan, ...] | None:
    """The plans kept in ``entry``, or ``None`` when there is none usable (missing,
    damaged, or the environment or an image target's file has changed since)."""
    content = read_entry(entry)
    if content is None:
        return None
    try:
        payload = json.loads(seal(content, secret))
        if not isinstance(payload, dict) or payload.get("format") != FORMAT_VERSION:
            return None
        asked, images, plans = payload["env"], payload["images"], payload["plans"]
        if any((name in env) != bool(present) for name, present in asked.items()):
            return None
        if not all((Path(folder) / str(image)).is_file() for image in images):
            return None
        if not all(isinstance(p, dict) and isinstance(p.get("requirement"), dict) for p in plans):
            return None
        return tuple(PlainPlan(p, folder) for p in plans)
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return None
