"""The normalised requirement: what every reader produces and every later stage consumes.

These models depend on nothing but pydantic. They are frozen: a plan never changes once
built, so it can be hashed (the plan hash) and shared between xdist workers.
Values are kept *unresolved* (templates such as ``{{env.PASSWORD}}`` stay as written);
resolution happens at the moment of use (issue 2, item 5).
"""

from __future__ import annotations

import enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from pytest_pacts.models.text import render_source, zero_based_line


class Action(enum.StrEnum):
    """The nine element actions plus ``goto``, ``wait``, ``extract`` and ``use``."""

    CLICK = "click"
    FILL = "fill"
    TYPE = "type"
    PRESS = "press"
    SELECT = "select"
    CHECK = "check"
    UNCHECK = "uncheck"
    HOVER = "hover"
    FOCUS = "focus"
    GOTO = "goto"
    WAIT = "wait"
    EXTRACT = "extract"
    USE = "use"

    @property
    def needs_element(self) -> bool:
        """True when the step cannot run without an ``Element@Region`` target."""
        return self in _ELEMENT_REQUIRED

    @property
    def needs_value(self) -> bool:
        """True when the step cannot run without a value."""
        return self in _VALUE_REQUIRED

    @property
    def observes(self) -> bool:
        """True for steps that act on nothing (``wait``, ``extract``): their element need
        only be there, unique and visible; it is looked for as a ``hover`` would."""
        return self in (Action.WAIT, Action.EXTRACT)

    @property
    def edits(self) -> bool:
        """True for actions that need an editable element (the gate checks it)."""
        return self in (Action.FILL, Action.TYPE)


_ELEMENT_REQUIRED = frozenset(
    {
        Action.CLICK,
        Action.FILL,
        Action.TYPE,
        Action.SELECT,
        Action.CHECK,
        Action.UNCHECK,
        Action.HOVER,
        Action.FOCUS,
        Action.EXTRACT,  # an element, or a response: in the Element column
    }
)
# ``press`` takes a key and an optional element (no element: the focused element / page).
_VALUE_REQUIRED = frozenset(
    {Action.FILL, Action.TYPE, Action.PRESS, Action.SELECT, Action.USE, Action.EXTRACT}
)


class ExpectationKind(enum.StrEnum):
    """Expected outcomes (docs/user-guide.md), checked after the step with auto-waiting."""

    FIELD_POPULATED = "field_populated"
    NAVIGATES_TO = "navigates_to"
    TEXT_VISIBLE = "text_visible"
    TEXT_HIDDEN = "text_hidden"
    URL_CONTAINS = "url_contains"
    TITLE_CONTAINS = "title_contains"
    ELEMENT_VISIBLE = "element_visible"
    ELEMENT_HIDDEN = "element_hidden"
    CHECKED = "checked"
    UNCHECKED = "unchecked"
    VALUE = "value"
    ENABLED = "enabled"
    DISABLED = "disabled"
    COUNT = "count"
    RESPONSE = "response"

    @property
    def argument(self) -> Literal["none", "text", "target", "count", "response"]:
        """What follows the colon: nothing, free text, an ``Element@Region``, both + N, or
        ``<url pattern> <json path> [= <value>]``."""
        return _EXPECTATION_ARGUMENT[self]


_EXPECTATION_ARGUMENT: dict[
    ExpectationKind, Literal["none", "text", "target", "count", "response"]
] = {
    ExpectationKind.FIELD_POPULATED: "none",
    ExpectationKind.NAVIGATES_TO: "text",
    ExpectationKind.TEXT_VISIBLE: "text",
    ExpectationKind.TEXT_HIDDEN: "text",
    ExpectationKind.URL_CONTAINS: "text",
    ExpectationKind.TITLE_CONTAINS: "text",
    ExpectationKind.ELEMENT_VISIBLE: "target",
    ExpectationKind.ELEMENT_HIDDEN: "target",
    ExpectationKind.CHECKED: "none",
    ExpectationKind.UNCHECKED: "none",
    ExpectationKind.VALUE: "text",
    ExpectationKind.ENABLED: "none",
    ExpectationKind.DISABLED: "none",
    ExpectationKind.COUNT: "count",
    ExpectationKind.RESPONSE: "response",
}


class OnFail(enum.StrEnum):
    """What a failing step does to the rest of the requirement."""

    ABORT = "abort"
    SKIP = "skip"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


IMAGE_PREFIX = "image:"
"""An element written ``image:<path to a PNG>`` is found by its picture (an image target)."""


class Target(_Frozen):
    """``Element@Region``: a human name for an element and an optional container name."""

    element: str
    region: str | None = None
    ordinal: int | None = Field(
        default=None,
        ge=1,
        description="Which of several identical elements, 1-based in reading order inside the "
        'region: ``Delete[2]@Cart`` (docs/reference.md, "Element names").',
    )

    @property
    def image(self) -> str | None:
        """The template path of an image target (``image:buttons/refresh.png``), else None."""
        if self.element[:6].lower() != IMAGE_PREFIX:
            return None
        return self.element[6:].strip() or None

    @property
    def key(self) -> str:
        """The canonical ``Element@Region`` text (the element key of healing memory)."""
        element = self.element
        if self.ordinal:
            element = f"{element}[{self.ordinal}]"
        elif element.endswith("]") and "[" in element:  # a name that ends in brackets
            at = element.rindex("[")
            element = f"{element[:at]}\\{element[at:]}"
        return f"{element}@{self.region}" if self.region else element

    def __str__(self) -> str:
        return self.key


class ResponseRef(_Frozen):
    """A value in a JSON response the page received: which response (``url``, a substring
    of its URL, or a glob with ``*``) and where in its body (``path``, e.g. ``order.id``)."""

    url: str
    path: str

    def __str__(self) -> str:
        return f"response:{self.url} {self.path}"


class Expectation(_Frozen):
    """A typed expected outcome, e.g. ``navigates_to:Products``.

    ``text`` is set for text-argument kinds, ``target`` for element kinds, ``target`` and
    ``count`` for ``count:<Element@Region>=<N>``; ``response`` (and ``text``, the value
    wanted, or ``None`` for "present") for ``response:<url> <path> = <value>``.
    """

    kind: ExpectationKind
    text: str | None = None
    target: Target | None = None
    count: int | None = None
    response: ResponseRef | None = None

    def __str__(self) -> str:
        arg = self.kind.argument
        if arg == "none":
            return self.kind.value
        if arg == "text":
            return f"{self.kind.value}:{self.text}"
        if arg == "target":
            return f"{self.kind.value}:{self.target}"
        if arg == "response":
            return f"{self.response}" + (f" = {self.text}" if self.text is not None else "")
        return f"{self.kind.value}:{self.target}={self.count}"


class Capture(_Frozen):
    """What an ``extract`` step stores in ``{{vars.<var>}}``: the text its element shows
    (a form field's value), or an ``attribute`` of it, or a value of a JSON ``response``;
    ``regex`` keeps the part it matches (its first group when it has one); ``secret`` masks
    the value everywhere it is shown."""

    var: str
    attribute: str | None = None
    regex: str | None = None
    secret: bool = False
    response: ResponseRef | None = None

    def describe(self, target: str) -> str:
        """``store "Order number" in {{vars.order_id}}`` (``target`` as a step names it)."""
        if self.response is not None:
            what = f"{self.response.path} of the response from {self.response.url}"
        elif self.attribute:
            what = f"the {self.attribute} attribute of {target}"
        else:
            what = target
        more = f" (the part matching {self.regex})" if self.regex else ""
        secret = " as a secret" if self.secret else ""
        return f"store {what}{more} in {{{{vars.{self.var}}}}}{secret}"


class SourceRef(_Frozen):
    """Where something was written: a file plus either a sheet/row/column or a line/column.

    ``row`` and ``line`` are 1-based, as a person counts them; ``column`` is an Excel letter
    for sheets and a 1-based number for text files.
    """

    path: str
    sheet: str | None = None
    row: int | None = None
    line: int | None = None
    column: str | None = None

    def render(self) -> str:
        """``path:sheet:row:col`` for sheets, ``path:line:col`` for text files."""
        return render_source(self.path, self.sheet, self.row, self.line, self.column)

    @property
    def zero_based_line(self) -> int:
        """The line pytest's ``reportinfo`` wants (0-based); sheet rows count as lines."""
        return zero_based_line(self.sheet, self.row, self.line)

    def __str__(self) -> str:
        return self.render()


# How each action reads in a sentence (errors, reports, the CLI).
_VERBS: dict[str, str] = {
    "click": "click {target}",
    "fill": "fill {target} with {value}",
    "type": "type {value} into {target}",
    "press": "press {value} on {target}",
    "select": "select {value} in {target}",
    "check": "check {target}",
    "uncheck": "uncheck {target}",
    "hover": "hover over {target}",
    "focus": "focus {target}",
    "goto": "go to {value}",
    "wait": "wait until {expected}",
    "extract": "store {target} in {value}",
    "use": "use block {value}",
}


class Step(_Frozen):
    """One normalised step. ``value`` holds the unresolved text (templates intact)."""

    index: int
    action: Action
    target: Target | None = None
    value: str | None = None
    expected: Expectation | None = None
    on_fail: OnFail = OnFail.ABORT
    source: SourceRef
    block: str | None = Field(default=None, description="The block this step was expanded from.")
    capture: Capture | None = Field(
        default=None, description="For extract steps: the var and how its value is taken."
    )

    def describe(self) -> str:
        """The step in words, for errors and reports (values are shown unresolved):
        ``fill "Username" in "LoginForm" with "standard_user", expect field_populated``."""
        target = "the page"
        if self.target is not None:
            target = f'"{self.target.element}"'
            if self.target.region:
                target += f' in "{self.target.region}"'
        value = f'"{self.value}"' if self.value is not None else "(no value)"
        expected = str(self.expected) if self.expected is not None else "(no expectation)"
        if self.capture is not None:
            text = self.capture.describe(target)
        else:
            text = _VERBS[self.action.value].format(target=target, value=value, expected=expected)
        if self.expected is not None and self.action is not Action.WAIT:
            text += f", expect {self.expected}"
        return text


class BlockDef(_Frozen):
    """A user-defined block: a named, parameterised list of raw steps."""

    name: str
    params: tuple[str, ...] = ()
    steps: tuple[Step, ...]
    source: SourceRef


class Requirement(_Frozen):
    """A requirement as written, before block expansion."""

    req_id: str
    url: str
    base_url: str | None = Field(
        default=None, description="The file's default base for a relative url (Config sheet)."
    )
    title: str | None = None
    tags: tuple[str, ...] = ()
    vars: dict[str, str] = Field(default_factory=dict)
    context: dict[str, JsonValue] = Field(default_factory=dict)
    auth: str | None = Field(
        default=None, description="The auth profile whose saved session the run starts with."
    )
    steps: tuple[Step, ...]
    source: SourceRef
    folder: str | None = Field(
        default=None,
        exclude=True,
        description="The absolute folder of the file it was read from, where the paths it "
        "names (image targets) are relative to; not part of the plan hash or its JSON.",
    )


class Plan(_Frozen):
    """A requirement after block expansion, with its stable plan hash.

    Steps are renumbered 0..n-1 in execution order; each keeps the source of the row that
    produced it (the ``use`` row for expanded block steps).
    """

    requirement: Requirement
    steps: tuple[Step, ...]
    plan_hash: str
    secret_vars: frozenset[str] = frozenset()

    @property
    def req_id(self) -> str:
        return self.requirement.req_id
