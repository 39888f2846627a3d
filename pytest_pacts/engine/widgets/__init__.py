"""Widgets a person sets without thinking: custom dropdowns, sliders, spin buttons, dates.

**Dropdowns** (``select`` on anything but a native ``<select>`` that holds the option, see
``actions.py``) follow the WAI-ARIA APG combobox and listbox patterns
(https://www.w3.org/WAI/ARIA/apg/patterns/combobox/, .../patterns/listbox/), which the
component libraries' dropdowns implement (select2, react-select, MUI, baseweb, Headless UI):
the combobox is clicked open unless its list is shown; an editable one (an ``<input>``, or a
search field that takes the focus when the list opens) gets the option's name typed, as a
person filters; the list is the element the combobox names in ``aria-controls`` or
``aria-owns`` (often rendered in a portal at the end of ``<body>``), or, when it names none,
the one list of options shown on the page; the option is the one whose accessible name is the
value (exactly, then ignoring case). An option name that matches several options, a value that
matches none, or no list evident (none shown, or several and none named by the combobox) fails
before an option is clicked, saying what was found. Several values in one cell are separated by
:data:`SEPARATOR`, each chosen in turn (multi-select comboboxes and listboxes).

**Sliders and spin buttons** (``fill`` on an ``<input type=range>``, an ARIA ``slider`` or a
``spinbutton`` that is not a text field) are set as a person does with the keyboard (APG slider
and spinbutton patterns: Home/End for the minimum/maximum, the arrow keys by one step), or, for
a spin button that keys do not move, by its ``+``/``-`` buttons next to it; a bounded number of
steps, then a failure saying what the field holds.

Every call here runs inside the action's bounded call (``actions.perform``) and has its own
time limit from the step's deadline.

**Dates** (``fill`` on an ``<input type=date>`` and the other date and time types) take
HTML's value format (``dates.py``); a day-first or month-first date is refused, never guessed.

The parts: ``dropdowns.py`` (and its in-page code, ``dropdown_js.py``), ``steppers.py``,
``dates.py``; this module names what the engine uses.
"""

from __future__ import annotations

from pytest_pacts.engine.widgets.dates import DATE_FORMATS, date_value
from pytest_pacts.engine.widgets.dropdown_js import HAS_PROXY_JS, PROXY_PATH_JS, SHOWN_VALUE_JS
from pytest_pacts.engine.widgets.dropdowns import SEPARATOR, choose, split_choices
from pytest_pacts.engine.widgets.steppers import MAX_STEPS, field_kind, set_by_steps

__all__ = [
    "DATE_FORMATS",
    "HAS_PROXY_JS",
    "MAX_STEPS",
    "PROXY_PATH_JS",
    "SEPARATOR",
    "SHOWN_VALUE_JS",
    "choose",
    "date_value",
    "field_kind",
    "set_by_steps",
    "split_choices",
]
