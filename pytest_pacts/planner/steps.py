"""Parsing the text of one step: targets, actions, expected outcomes, pipe strings.

These are pure functions raising :class:`StepSyntaxError` with a message for a person; the
readers attach the location.
"""

from __future__ import annotations

import difflib
import re
import unicodedata

from pytest_pacts.errors import PactsError
from pytest_pacts.models import Action, Capture, Expectation, ExpectationKind, ResponseRef, Target
from pytest_pacts.planner import patterns

# Characters a person cannot see but a matcher would: zero-width spaces and joiners used
# outside emoji, bidi controls ("Trojan source"), BOM, soft hyphen.
_INVISIBLE = {
    "\u200b": "ZERO WIDTH SPACE",
    "\u200c": "ZERO WIDTH NON-JOINER",
    "\u2060": "WORD JOINER",
    "\ufeff": "ZERO WIDTH NO-BREAK SPACE (BOM)",
    "\u00ad": "SOFT HYPHEN",
    **{chr(c): unicodedata.name(chr(c)) for c in range(0x202A, 0x202F)},
    **{chr(c): unicodedata.name(chr(c)) for c in range(0x2066, 0x206A)},
    "\u200e": "LEFT-TO-RIGHT MARK",
    "\u200f": "RIGHT-TO-LEFT MARK",
}
_SPACES = re.compile(r"\s+")


class StepSyntaxError(ValueError, PactsError):
    """Text that is not a valid step part. ``expected`` says what would be."""

    def __init__(self, message: str, expected: str | None = None, field: str = "") -> None:
        super().__init__(message)
        self.expected = expected
        self.field = field  # the step field at fault, when the caller parsed several


def clean_name(text: str, what: str) -> str:
    """NFC-normalise, trim and fold inner whitespace; reject invisible characters."""
    if text.isascii() and text.isprintable():
        # the common case: nothing invisible or unnormalised can be in printable ASCII
        return " ".join(text.split())
    text = unicodedata.normalize("NFC", text)
    for i, ch in enumerate(text):
        if ch in _INVISIBLE:
            raise StepSyntaxError(
                f"{what} {text!r} contains an invisible character U+{ord(ch):04X} "
                f"({_INVISIBLE[ch]}) at position {i + 1}",
                "visible characters only; delete the hidden character",
            )
        if unicodedata.category(ch) == "Cc" and ch not in "\t\n\r":
            raise StepSyntaxError(
                f"{what} {text!r} contains a control character U+{ord(ch):04X}",
                "printable text",
            )
    return _SPACES.sub(" ", text).strip()


_ORDINAL_RE = re.compile(r"^(?P<name>.*?)(?P<escape>\\?)\[(?P<n>[^\[\]]*)\]$")
_ORDINAL_SYNTAX = "Element[N]@Region with N a whole number from 1, e.g. Delete[2]@Cart"


def parse_target(text: str) -> Target:
    """``Username@LoginForm`` → Target; ``Login`` → Target without region.

    The last ``@`` splits element from region so an element name may contain ``@``
    (``Email @ work@Profile``); an e-mail-like element with no region is written
    ``name@`` (trailing ``@``: no region). A trailing ``[N]`` on the element part is an
    ordinal: the N-th (from 1, in reading order inside the region) of identical elements,
    ``Delete[2]@Cart``; ``\\[`` keeps a bracket that ends a name literal (``Notes \\[draft]``).
    """
    raw = clean_name(text, "element")
    if not raw:
        raise StepSyntaxError("the element is empty", "Element or Element@Region")
    element, sep, region = raw.rpartition("@")
    if not sep:
        element, region = raw, ""
    element, region = element.strip(), region.strip()
    if not element:
        raise StepSyntaxError(f"{text!r} has a region but no element", "Element@Region")
    element, ordinal = _ordinal(element)
    return Target(element=element, region=region or None, ordinal=ordinal)


def _ordinal(element: str) -> tuple[str, int | None]:
    """``Delete[2]`` → ("Delete", 2); ``Notes \\[draft]`` → ("Notes [draft]", None)."""
    match = _ORDINAL_RE.match(element)
    if match is None:
        return element, None
    name, number = match.group("name").strip(), match.group("n").strip()
    if match.group("escape"):
        return f"{match.group('name')}[{match.group('n')}]", None
    if not name:
        raise StepSyntaxError(f"{element!r} has an ordinal but no element", _ORDINAL_SYNTAX)
    if not number.isdecimal():
        raise StepSyntaxError(
            f"the ordinal [{number}] of {name!r} is not a whole number "
            "(write \\[ for a bracket that is part of the name)",
            _ORDINAL_SYNTAX,
        )
    if int(number) < 1:
        raise StepSyntaxError(
            f"the ordinal [{number}] of {name!r} counts from 1 (the first is [1])", _ORDINAL_SYNTAX
        )
    return name, int(number)


def parse_action(text: str) -> Action:
    """Case-insensitive action name; unknown names suggest the closest one."""
    name = text.strip().lower()
    try:
        return Action(name)
    except ValueError:
        names = [a.value for a in Action]
        close = difflib.get_close_matches(name, names, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise StepSyntaxError(
            f"unknown action {text.strip()!r}{hint}", "one of " + ", ".join(names)
        ) from None


_COUNT_RE = re.compile(r"^(?P<target>.+?)\s*=\s*(?P<n>\d+)$")


def parse_expectation(text: str) -> Expectation:
    """``navigates_to:Products`` → Expectation(kind=NAVIGATES_TO, text="Products")."""
    raw = text.strip()
    name, sep, arg = raw.partition(":")
    key = name.strip().lower()
    try:
        kind = ExpectationKind(key)
    except ValueError:
        names = [k.value for k in ExpectationKind]
        close = difflib.get_close_matches(key, names, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise StepSyntaxError(
            f"unknown expected outcome {raw!r}{hint}",
            "one of " + ", ".join(_usage(k) for k in ExpectationKind),
        ) from None
    arg = arg.strip()
    shape = kind.argument
    if shape == "response":
        return parse_response_expectation(arg, raw)
    if shape == "none":
        if sep and arg:
            raise StepSyntaxError(
                f"expected outcome {kind.value!r} takes no argument, got {arg!r}", _usage(kind)
            )
        return Expectation(kind=kind)
    if not arg and kind is ExpectationKind.VALUE and sep:
        return Expectation(kind=kind, text="")  # ``value:`` = the field is empty
    if not arg:
        raise StepSyntaxError(f"expected outcome {kind.value!r} needs an argument", _usage(kind))
    if shape == "text":
        return Expectation(kind=kind, text=clean_name(arg, "expected text"))
    if shape == "target":
        return Expectation(kind=kind, target=parse_target(arg))
    match = _COUNT_RE.match(arg)
    if not match:
        raise StepSyntaxError(f"ill-formed count {raw!r}", _usage(kind))
    return Expectation(
        kind=kind, target=parse_target(match.group("target")), count=int(match.group("n"))
    )


def _usage(kind: ExpectationKind) -> str:
    return {
        "none": kind.value,
        "text": f"{kind.value}:<text>",
        "target": f"{kind.value}:<Element@Region>",
        "count": f"{kind.value}:<Element@Region>=<N>",
        "response": f"{kind.value}:<url pattern> <json path> = <value>",
    }[kind.argument]


RESPONSE_PREFIX = "response:"
_RESPONSE_USAGE = "response:<url pattern> <json path> = <value>, e.g. response:/api/order order.id"
_PATH_TOKEN = re.compile(r"\.?([^.\[\]]+)|\[(\d+)\]")


def parse_json_path(path: str) -> tuple[str | int, ...]:
    """``order.id``, ``$.order.id``, ``items[0].name`` or ``items.0.name`` → the keys and
    list indexes to follow (digits alone are indexes into a list, or keys of an object)."""
    text = path.strip()
    if text.startswith("$"):
        text = text[1:]
    if not text or text == ".":
        raise StepSyntaxError(f"the JSON path {path!r} is empty", "a path such as order.id")
    parts: list[str | int] = []
    pos = 0
    while pos < len(text):
        match = _PATH_TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            raise StepSyntaxError(
                f"the JSON path {path!r} is ill-formed at {text[pos:]!r}",
                "keys separated by dots, list indexes as [0]: items[0].name",
            )
        key, index = match.groups()
        parts.append(int(index) if index is not None else key)
        pos = match.end()
    return tuple(parts)


def parse_response_ref(text: str) -> ResponseRef:
    """``/api/order order.id`` → ResponseRef(url="/api/order", path="order.id")."""
    url, _, path = text.strip().partition(" ")
    path = path.strip()
    if not url or not path:
        raise StepSyntaxError(
            f"{RESPONSE_PREFIX}{text.strip()} needs a URL pattern and a JSON path",
            _RESPONSE_USAGE,
        )
    if " " in path:
        raise StepSyntaxError(f"the JSON path {path!r} contains a space", "a path such as order.id")
    parse_json_path(path)
    return ResponseRef(url=url, path=path)


def parse_response_expectation(arg: str, raw: str) -> Expectation:
    """``/api/order order.status = confirmed`` (or without ``= value``: the value is there
    and not null or empty)."""
    ref_text, sep, value = arg.partition("=")
    if not ref_text.strip():
        raise StepSyntaxError(f"expected outcome {raw!r} names no response", _RESPONSE_USAGE)
    ref = parse_response_ref(ref_text)
    return Expectation(
        kind=ExpectationKind.RESPONSE, response=ref, text=value.strip() if sep else None
    )


_VAR_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")
_ATTRIBUTE = re.compile(r"^[^\s\"'>/=]+$")
_EXTRACT_USAGE = "var_name, then options: attribute=NAME; regex=PATTERN; secret"


# long because: the extract value's options parsed one by one, each with its message
def parse_capture(element: str | None, value: str) -> tuple[Capture, bool]:
    """An extract step's value ``order_id; attribute=href; regex=ORD-(\\d+); secret`` (``\\;``
    escapes a ``;`` in a regex). ``element`` ``response:<url> <path>`` takes the value from a
    JSON response. Returns the capture and whether it reads a response."""
    parts = [p.replace("\\;", ";").strip() for p in re.split(r"(?<!\\);", value)]
    var = parts[0]
    if not _VAR_NAME.match(var):
        raise StepSyntaxError(
            f"the extract step's value starts with {var!r}, not a var name", _EXTRACT_USAGE
        )
    options: dict[str, str | None] = {}
    for part in parts[1:]:
        if not part:
            continue
        name, sep, arg = part.partition("=")
        name = name.strip().lower()
        name = {"attr": "attribute", "re": "regex"}.get(name, name)
        if name not in ("attribute", "regex", "secret"):
            close = difflib.get_close_matches(name, ["attribute", "regex", "secret"], n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise StepSyntaxError(f"unknown extract option {part!r}{hint}", _EXTRACT_USAGE)
        if name in options:
            raise StepSyntaxError(f"extract option {name!r} is given twice", "each option once")
        options[name] = arg.strip() if sep else None
    attribute = options.get("attribute")
    if "attribute" in options and not (attribute and _ATTRIBUTE.match(attribute)):
        raise StepSyntaxError(
            f"attribute={attribute or ''} is not an attribute name", "attribute=href"
        )
    regex = options.get("regex")
    if "regex" in options:
        if not regex:
            raise StepSyntaxError("regex= is empty", "regex=ORD-(\\d+)")
        problem = patterns.check(regex)
        if problem is not None:
            raise StepSyntaxError(
                f"regex={regex} is not a valid regular expression: {problem}",
                "a Python regular expression; its first group is kept when it has one",
            ) from None
    secret_flag = options.get("secret")
    if "secret" in options and secret_flag not in (None, "true", "yes", "1"):
        raise StepSyntaxError(f"secret={secret_flag} is not a flag", "secret")
    response = None
    reads_response = element is not None and element.strip().lower().startswith(RESPONSE_PREFIX)
    if reads_response:
        assert element is not None
        try:
            response = parse_response_ref(element.strip()[len(RESPONSE_PREFIX) :])
        except StepSyntaxError as exc:
            raise StepSyntaxError(str(exc), exc.expected, "element") from None
        if attribute:
            raise StepSyntaxError(
                "attribute= takes an element's attribute; a response has none",
                "the JSON path after the URL pattern",
            )
    capture = Capture(
        var=var,
        attribute=attribute,
        regex=regex,
        secret="secret" in options,
        response=response,
    )
    return capture, reads_response


def split_pipe(text: str) -> list[str]:
    """``"Username@LoginForm | fill | standard_user | field_populated"`` → 4 fields.

    ``\\|`` escapes a literal pipe inside a field. ``use | Block | params`` is recognised by
    the caller.
    """
    fields: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1] == "|":
            current.append("|")
            i += 2
            continue
        if ch == "|":
            fields.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
        i += 1
    fields.append("".join(current).strip())
    if len(fields) > 4:
        raise StepSyntaxError(
            f"a step string has {len(fields)} fields",
            "at most 4: Element@Region | action | value | expected (escape a literal pipe as \\|)",
        )
    return fields + [""] * (4 - len(fields))


def parse_params(text: str) -> dict[str, str]:
    """Block parameters ``user=standard_user; password={{env.PASSWORD}}`` (``\\;`` escapes)."""
    params: dict[str, str] = {}
    parts = re.split(r"(?<!\\);", text)
    for part in parts:
        part = part.replace("\\;", ";").strip()
        if not part:
            continue
        name, sep, value = part.partition("=")
        name = name.strip()
        if not sep or not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name):
            raise StepSyntaxError(f"ill-formed block parameter {part!r}", "name=value; name=value")
        if name in params:
            raise StepSyntaxError(f"block parameter {name!r} is given twice", "each name once")
        params[name] = value.strip()
    return params
