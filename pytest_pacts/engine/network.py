"""The network parser: JSON values from the responses a page received during a run.

A requirement may store a value of a JSON response in a var (``response:/api/order order.id |
extract | order_id``) or check one (``response:/api/order order.status = confirmed``).
:class:`ResponseLog` listens to the page for the whole run, but only for the URLs the plan's
steps name (:func:`plan_patterns`): a run whose steps name no response attaches nothing. Each
matching response is read once, when it has finished (``requestfinished``), inside the size
bound (``max_body_bytes``); a larger body is recorded as too large, never read whole.

Bodies live in memory for the run only: nothing here is written to a report, a trace or the
store. What a person sees is the value at the path (masked by the caller when it is secret)
and, when a check fails, :func:`excerpt`: a short, truncated view of the body with every value
under a secret-looking key (``token``, ``password``, ...) shown as ``***``.

The API, for the executor: ``log = ResponseLog(page, patterns, max_body_bytes)``;
``mark = log.mark()`` before a step; ``log.matching(pattern, since=mark)`` for what arrived
since; ``log.detach()`` at the end. Pure helpers: :func:`url_matches`, :func:`value_at`,
:func:`shown`, :func:`excerpt`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fnmatch
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, Request

from pytest_pacts.models import Plan
from pytest_pacts.planner.steps import parse_json_path
from pytest_pacts.planner.templating import MASK, TEMPLATE_RE, is_secret_name, mask_secrets
from pytest_pacts.runtime import bounded

JsonValue = None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"]

DEFAULT_MAX_BODY_BYTES = 1024 * 1024
MAX_ENTRIES = 200  # matching responses remembered per run (the oldest go first)
#: The bodies a run keeps parsed, in total bytes as received: past it the oldest bodies are
#: dropped (their response is still listed, with a note). Parsed JSON takes many times its
#: size in memory (60 bodies of 1 MB took 1.4 GB when the log kept 200 of any size).
MAX_LOG_BYTES = 8 * 1024 * 1024
#: The deepest nesting of arrays and objects a body may have to be parsed.
MAX_JSON_DEPTH = 200
EXCERPT_CHARS = 300


def plan_patterns(plan: Plan) -> list[str]:
    """The URL patterns the plan's steps read responses from (``extract`` and ``response:``
    expectations). A template in a pattern matches anything until the step resolves it."""
    out: list[str] = []
    for step in plan.steps:
        if step.capture is not None and step.capture.response is not None:
            out.append(step.capture.response.url)
        if step.expected is not None and step.expected.response is not None:
            out.append(step.expected.response.url)
    return list(dict.fromkeys(TEMPLATE_RE.sub("*", p) for p in out))


def url_matches(pattern: str, url: str) -> bool:
    """A pattern with ``*`` is a glob over the whole URL (``**/api/order*``); otherwise it
    matches when it is part of the URL (``/api/order`` matches ``http://h/api/order?id=1``)."""
    if "*" in pattern:
        return fnmatch.fnmatchcase(url, pattern.replace("**", "*"))
    return pattern in url


@dataclass(frozen=True)
class CapturedResponse:
    """One finished response of a watched URL: its JSON (``data``), or why there is none
    (``problem``: too large, not JSON, unreadable)."""

    seq: int
    method: str
    url: str
    status: int
    size: int | None
    data: JsonValue = None
    problem: str | None = None

    def label(self) -> str:
        return f"{self.method} {without_query(self.url)} → {self.status}"


def without_query(url: str) -> str:
    """A URL as a text may show it: its query string (where tokens travel) left out."""
    base, sep, _query = url.partition("?")
    return base + ("?…" if sep else "")


@dataclass
class ResponseLog:
    """Reads and keeps the JSON of the responses whose URL matches one of ``patterns``."""

    page: Page
    patterns: Sequence[str]
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    entries: list[CapturedResponse] = field(default_factory=list)
    # other fetch/XHR responses that finished (method, URL without query, status; no body),
    # to name what did arrive when no response matches a pattern
    others: list[tuple[int, str]] = field(default_factory=list)
    _seq: int = 0
    _attached: bool = False

    def __post_init__(self) -> None:
        if self.patterns:
            self.page.on("requestfinished", self._on_finished)
            self._attached = True

    def detach(self) -> None:
        if self._attached:
            with contextlib.suppress(PlaywrightError, ValueError, KeyError):
                self.page.remove_listener("requestfinished", self._on_finished)
            self._attached = False

    def mark(self) -> int:
        """The position to ask :meth:`matching` from: what arrives after this call."""
        return self._seq

    def matching(self, pattern: str, since: int = 0) -> list[CapturedResponse]:
        """The watched responses after ``since`` whose URL matches ``pattern``, oldest first."""
        return [e for e in self.entries if e.seq > since and url_matches(pattern, e.url)]

    def others_since(self, since: int) -> list[str]:
        return [label for seq, label in self.others if seq >= since]

    def _on_finished(self, request: Request) -> None:
        try:
            url = request.url
            if not any(url_matches(p, url) for p in self.patterns):
                if request.resource_type in ("fetch", "xhr"):
                    self.others.append((self._seq, f"{request.method} {without_query(url)}"))
                    del self.others[:-20]
                return
            entry = self._read(request)
        except Exception:  # a listener must never raise into Playwright's dispatcher
            return
        self.entries.append(entry)
        del self.entries[:-MAX_ENTRIES]
        self._keep_within_budget()

    def _keep_within_budget(self) -> None:
        """Drop the oldest parsed bodies until those kept add up to at most
        :data:`MAX_LOG_BYTES`; a dropped one stays listed, saying why it has no body."""
        kept = sum(e.size or 0 for e in self.entries if e.problem is None)
        for i, old in enumerate(self.entries[:-1]):
            if kept <= MAX_LOG_BYTES:
                return
            if old.problem is not None:
                continue
            kept -= old.size or 0
            self.entries[i] = dataclasses.replace(
                old,
                data=None,
                problem=(
                    f"its body ({old.size} bytes) was dropped: the run keeps at most "
                    f"{MAX_LOG_BYTES // (1024 * 1024)} MiB of response bodies, the newest "
                    "first (check the value in a step right after the response arrives)"
                ),
            )

    def _read(self, request: Request) -> CapturedResponse:
        self._seq += 1
        seq = self._seq
        response = bounded.call(self.page, "reading a response", request.response)
        if response is None:
            return CapturedResponse(seq, request.method, request.url, 0, None, problem="no answer")
        status = response.status
        declared = response.headers.get("content-length", "")
        size = int(declared) if declared.isdigit() else None

        def entry(data: JsonValue = None, problem: str | None = None) -> CapturedResponse:
            return CapturedResponse(seq, request.method, request.url, status, size, data, problem)

        if size is not None and size > self.max_body_bytes:
            return entry(problem=self._too_large(size))
        try:
            body = bounded.call(self.page, "reading a response body", response.body)
        except PlaywrightError as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else "unreadable"
            return entry(problem=f"its body could not be read ({first})")
        size = len(body)
        if size > self.max_body_bytes:
            return entry(problem=self._too_large(size))
        too_deep = entry(
            problem=f"its JSON is too deep (nested more than {MAX_JSON_DEPTH} levels); "
            "it was not read"
        )
        try:
            data: JsonValue = json.loads(body)
        except RecursionError:  # Python's parser stops about 1,000 levels down
            return too_deep
        except ValueError:
            kind = response.headers.get("content-type", "no content type")
            return entry(problem=f"its body is not JSON ({kind}, {size} bytes)")
        if _deeper_than(data, MAX_JSON_DEPTH):
            return too_deep
        return CapturedResponse(seq, request.method, request.url, status, size, data)

    def _too_large(self, size: int) -> str:
        return (
            f"its body is {size} bytes, over the limit of {self.max_body_bytes} bytes "
            "(pacts_max_response_kb); it was not read"
        )


def _deeper_than(data: JsonValue, limit: int) -> bool:
    """Does ``data`` nest arrays and objects more than ``limit`` deep? (Iterative: the
    recursive helpers below, ``redact`` and ``value_at``, then never meet a deeper one.)"""
    stack: list[tuple[JsonValue, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        children = (
            node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        )
        for child in children:
            if isinstance(child, (dict, list)):
                if depth + 1 > limit:
                    return True
                stack.append((child, depth + 1))
    return False


_MISSING = object()


def value_at(data: JsonValue, path: str) -> tuple[bool, JsonValue]:
    """``(True, value)`` at ``path`` (``order.id``, ``items[0].name``) or ``(False, None)``."""
    node: object = data
    for part in parse_json_path(path):
        if isinstance(node, dict):
            node = node.get(str(part), _MISSING)
        elif isinstance(node, list) and isinstance(part, int) and -len(node) <= part < len(node):
            node = node[part]
        elif isinstance(node, list) and isinstance(part, str) and part.isdigit():
            index = int(part)
            node = node[index] if index < len(node) else _MISSING
        else:
            node = _MISSING
        if node is _MISSING:
            return False, None
    return True, node  # type: ignore[return-value]


def shown(value: JsonValue) -> str:
    """A JSON value as text to store or compare: strings as they are, others as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def redact(data: JsonValue, secret_vars: frozenset[str] = frozenset()) -> JsonValue:
    """``data`` with the value of every secret-looking key replaced by ``***``."""
    if isinstance(data, dict):
        return {
            k: MASK if is_secret_name(k, secret_vars) else redact(v, secret_vars)
            for k, v in data.items()
        }
    if isinstance(data, list):
        return [redact(v, secret_vars) for v in data]
    return data


def excerpt(
    data: JsonValue,
    secrets: Iterable[str] = (),
    secret_vars: frozenset[str] = frozenset(),
    limit: int = EXCERPT_CHARS,
) -> str:
    """A short view of a body for a failure text: secret-looking keys masked, the given
    secret values masked, cut at ``limit`` characters."""
    text = json.dumps(redact(data, secret_vars), ensure_ascii=False, separators=(",", ":"))
    for secret in secrets:
        if secret:
            text = text.replace(json.dumps(secret)[1:-1], MASK)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe_seen(entries: Sequence[CapturedResponse], limit: int = 4) -> str:
    """The responses that were seen, for "found ..." texts."""
    if not entries:
        return "none"
    more = f" and {len(entries) - limit} more" if len(entries) > limit else ""
    return ", ".join(e.label() for e in entries[-limit:]) + more


@dataclass(frozen=True)
class Lookup:
    """The value at a JSON path in the latest matching response that has it, or why none."""

    found: bool
    value: JsonValue = None
    entry: CapturedResponse | None = None
    why: str = ""


def lookup(
    log: ResponseLog | None,
    pattern: str,
    path: str,
    since: int,
    secret_vars: frozenset[str] = frozenset(),
) -> Lookup:
    """Look for ``path`` in the responses matching ``pattern`` that finished after ``since``,
    latest first."""
    if log is None:
        return Lookup(False, why="no response was watched")
    entries = log.matching(pattern, since)
    if not entries:
        others = log.others_since(since)
        seen = ", ".join(others[-4:]) if others else "none"
        return Lookup(
            False,
            why=f"no response from a URL matching {pattern!r} has finished "
            f"(other fetch/XHR requests meanwhile: {seen})",
        )
    problems: list[str] = []
    for entry in reversed(entries):
        if entry.problem is not None:
            problems.append(f"{entry.label()}: {entry.problem}")
            continue
        ok, value = value_at(entry.data, path)
        if ok:
            return Lookup(True, value, entry)
        problems.append(
            f"{entry.label()} has no {path} (body: {excerpt(entry.data, (), secret_vars)})"
        )
    return Lookup(False, entry=entries[-1], why="; ".join(problems[:3]))


def secret_path(path: str, secret_vars: frozenset[str] = frozenset()) -> bool:
    """Does the path end in a secret-looking key (``order.receipt_token``)?"""
    keys = [p for p in parse_json_path(path) if isinstance(p, str)]
    return bool(keys) and is_secret_name(keys[-1], secret_vars)


def mask_in(text: str, secrets: Iterable[str]) -> str:
    """``text`` with each secret value masked, in any letter case (``SecretMask``)."""
    return mask_secrets(text, secrets)
