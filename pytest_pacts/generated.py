"""Ids and class names a framework or a build tool generated: one definition.

Such a name identifies an element only until the next render or build: a counter given in
render order names another element once anything renders earlier (Ember's ``ember9``, React's
``useId`` ``:r1:``, jQuery UI's ``ui-id-3``, Angular Material's ``mat-input-0``), and a hash
changes with the stylesheet (emotion's ``css-1x2y3z``, styled-components' ``sc-bdVaJa``,
CSS Modules' ``App_main__01fkz``). So no rendered locator holds one, a heal prefers the
element's other locators, healing memory keeps none built on one, and governance flags a
locator that relies on one (``auto_generated_id_class``).

The in-page scan (``runtime/js/scan.js``, ``looksGenerated``) and governance
(:func:`looks_generated`) read the same pattern, :data:`GENERATED_NAME`: the installer hands
it to the page (``runtime/scripts.py``, ``modules_source``). A JavaScript ``RegExp`` and
Python's ``re`` (with ``re.ASCII``, as JavaScript's ``\\d`` and ``\\w`` are) read it alike.
"""

from __future__ import annotations

import re

_ALTERNATIVES = (
    # a run of three digits: a counter or a record's number (item-1048, input-1234)
    r"\d{3,}",
    # six hex digits, one of them a digit (a3f9c2e1); a run of a-f alone is an English word
    # as often as a hash (feedback, decade, defaced)
    r"(?=[0-9a-fA-F]{6})[a-fA-F]*\d",
    # React's useId (:r1:; React 19: «r1»)
    r"^[:«]",
    # emotion's key, styled-jsx, Ember's and Svelte's classes, Angular's animation classes
    r"^(?:css|jsx|ember|svelte|ng-tns)-",
    # styled-components' component ids (sc-bdVaJa, Title-sc-1q0jw6k-0)
    r"(?:^|-)sc-",
    # frameworks' counters: Ember, JSS, ExtJS, YUI, GWT, jQuery UI, Angular Material and CDK,
    # react-select, Headless UI, Radix, Downshift, MUI, emotion, Svelte
    r"^(?:ember|jss|ext-gen|ext-comp|yui_|gwt-uid|ui-id|mat-[a-z]+|cdk-[a-z-]+|react-select"
    r"|headlessui|radix|downshift|mui|css|emotion|svelte)[-_a-z]*\d",
    # JSS in development (makeStyles-root-12)
    r"^(?:makeStyles|withStyles|[A-Z][a-zA-Z]*)-[a-zA-Z]+-\d+$",
    # the hash CSS Modules end a name with ([name]_[local]__[hash]: App_main__01fkz); a BEM
    # element such as card__title stays
    r"_{2,3}(?=[\w-]*[A-Z\d])[\w-]{5}$",
)
GENERATED_NAME = "|".join(_ALTERNATIVES)
_GENERATED = re.compile(GENERATED_NAME, re.ASCII)


def looks_generated(name: str) -> bool:
    """True when an id or class name looks generated rather than written by a person."""
    return _GENERATED.search(name) is not None
