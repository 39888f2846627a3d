"""Date and time inputs: the value a ``fill`` step gives, in HTML's format or refused."""

from __future__ import annotations

import re

# The value format of HTML's date and time inputs (the HTML standard, "input type=date" and
# the others; Playwright's fill takes exactly these).
DATE_FORMATS = {
    "date": (r"\d{4}-\d{2}-\d{2}", "YYYY-MM-DD"),
    "time": (r"\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?", "HH:MM or HH:MM:SS"),
    "datetime-local": (r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?", "YYYY-MM-DDTHH:MM"),
    "month": (r"\d{4}-\d{2}", "YYYY-MM"),
    "week": (r"\d{4}-W\d{2}", "YYYY-Www"),
}


def date_value(kind: str, value: str) -> tuple[str | None, str | None]:
    """The value to fill into a date/time input of type ``kind`` and ``None``, or ``None`` and
    why the value does not fit (a day-first or month-first date is never guessed)."""
    pattern, shape = DATE_FORMATS[kind]
    text = value.strip()
    if kind == "datetime-local" and re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?", text):
        text = text.replace(" ", "T")  # the same moment; only the separator differs
    if re.fullmatch(pattern, text):
        return text, None
    return None, (
        f"fill: a {kind} field takes its value as {shape} (HTML's format for "
        f"<input type={kind}>), not {value!r}"
    )
