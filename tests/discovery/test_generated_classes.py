"""Generated class names are never part of a rendered locator (docs/discovery.md, "Generated
class names").

A CSS-in-JS library or a CSS Modules build names an element's classes by a hash or a counter,
and the next build renames them: a locator that holds one breaks on the next release though
nothing a person sees changed. Seen in the corpus's saved pages: Dagster 1.6.14 and 1.10.21
(styled-components: ``sc-619b5575-0 hIafim``, letters only; 1.10.21's CSS Modules
``App_main__01fkz``), pgAdmin 4 7.8 and Verdaccio 5.0.4 (JSS in production: ``jss56``,
``jss2``), TensorBoard 2.10 and 2.19 (Angular's animation classes ``ng-tns-c65-1``); none of
the other apps' saved pages holds a class the rule takes that the rule before did not.
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.discovery import to_code, to_playwright
from pytest_pacts.runtime.scripts import module_function

from .helpers import chosen_id, find

SWITCH = '<svg width="36" height="24" aria-hidden="true"><rect width="36" height="22"/></svg>'


def _row(words: str, n: int, row_class: str, label_class: str) -> str:
    return (
        f'<div class="{row_class}"><div>{words}</div>'
        f'<label for="checkbox-{n}" class="{label_class}">'
        f'<input type="checkbox" id="checkbox-{n}">{SWITCH}</label></div>'
    )


def _settings(row: str, label: str) -> str:
    return (
        '<div role="dialog" aria-label="User settings">'
        + _row("Enable keyboard shortcuts", 8, row, label)
        + _row("Display resources in navigation sidebar", 9, row, label)
        + "</div>"
    )


def test_a_row_told_apart_only_by_a_hashed_class_is_not_rendered_by_it(tab: Page) -> None:
    """Dagster 1.6.14's settings dialog (REQ-DAGSTER-012): each switch sits in a row whose
    classes are styled-components' component id and the hash of its styles (``sc-619b5575-0
    hIafim``), the switch's own label empty. Discovery climbed to the row and rendered it as
    ``div.hIafim``, which 1.10.21 (new hashes) no longer has: the step failed. The hash, a
    class right after an ``sc-`` id, is no class to name the row by; the locator recorded
    still finds the switch once every hash has changed."""
    tab.set_content(_settings("sc-619b5575-0 hIafim", "sc-9c377e04-0 ijxTsl"))
    result = find(tab, "Display resources in navigation sidebar", "check")
    assert chosen_id(tab, result) == "checkbox-9"
    assert result.locator is not None
    code = to_code(result.locator)
    assert "hIafim" not in code and "ijxTsl" not in code, code
    tab.set_content(_settings("sc-aa87ce19-0 eA-Dxke", "sc-43a318f8-0 kolmnj"))
    assert to_playwright(tab, result.locator).evaluate("e => e.id") == "checkbox-9"


def test_which_classes_are_generated(tab: Page) -> None:
    """The schemes as their libraries write them (styled-components' ``generateAlphabeticName``
    and component ids, emotion's ``css-`` key, JSS's ``createGenerateClassName``, Next.js's
    CSS Modules ``[name]_[local]__[hash]``, Svelte's ``svelte-`` hash, Angular's
    ``ng-tns-c<component>-<n>``), against names people write, which stay."""
    rows = {
        "sc-619b5575-0 sc-501b3b57-4 hWGjzZ dnqkks bp4-popover2-target navbar": [
            "bp4-popover2-target",
            "navbar",
        ],
        "Title-sc-bdVaJa kXUa-dp btnPrimary": ["btnPrimary"],
        "css-1e6y48t-MuiButtonBase-root MuiButton-root Mui-focusVisible": [
            "MuiButton-root",
            "Mui-focusVisible",
        ],
        "makeStyles-root-12 jss56 App_main__01fkz card__title svelte-ucbydv": ["card__title"],
        "ng-tns-c65-1 mat-mdc-button col-md-6 hIafim": ["mat-mdc-button", "col-md-6", "hIafim"],
    }
    tab.set_content("".join(f'<p class="{c}"></p>' for c in rows))
    stable = module_function("scan", "stableClasses")
    got = [tab.evaluate(stable, [p]) for p in tab.locator("p").element_handles()]
    assert got == list(rows.values())
