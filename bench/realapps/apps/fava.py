"""Fava: the web interface of the Beancount plain-text accounting tool (reports with charts
and account trees, a journal, filters by time, account and tag, a query page, a source
editor, a form to add a transaction), serving a household's ledger.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 1.24.4 shows, and committed before any engine run on it. Both versions are PyPI's
``fava`` package (1.24.4 on Beancount 2, 1.30.16 on Beancount 3); the drift between them is
Fava's own front end: the chart's "At Cost" and "Monthly" selects become buttons with
drop-down menus, the report's tables are re-laid out, the filter fields, the journal's
toggles and the add-transaction form are re-drawn.

Every start writes a fresh copy of the ledger (a Beancount file: accounts, a salary, rent,
groceries, a balance assertion) into the work folder and serves it with Fava's own server
on 127.0.0.1; an added transaction is saved into that copy only.
"""

from __future__ import annotations

from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("1.24.4", "1.30.16")

# The versions pip resolved on Python 3.11 when the corpus entry was written, pinned so that a
# new release of a dependency cannot change what is served.
PINS: dict[str, tuple[str, ...]] = {
    "1.24.4": (
        "fava==1.24.4",
        "beancount==2.3.6",
        "Flask==2.3.3",
        "Werkzeug==2.3.8",
        "flask-babel==3.1.0",
        "cheroot==9.0.0",
        "Jinja2==3.1.6",
        "markdown2==2.5.5",
        "simplejson==3.20.2",
        "ply==3.11",
        "babel==2.19.0",
    ),
    "1.30.16": (
        "fava==1.30.16",
        "beancount==3.2.3",
        "beanquery==0.2.0",
        "beangulp==0.2.0",
        "Flask==3.1.3",
        "Werkzeug==3.1.9",
        "flask-babel==4.0.0",
        "cheroot==11.1.2",
        "watchfiles==1.3.0",
        "Jinja2==3.1.6",
        "simplejson==3.20.2",
        "ply==3.11",
        "babel==2.19.0",
    ),
}

LEDGER = """\
option "title" "Household budget"
option "operating_currency" "EUR"

2026-01-01 open Assets:Bank:Checking EUR
2026-01-01 open Assets:Bank:Savings EUR
2026-01-01 open Liabilities:CreditCard EUR
2026-01-01 open Income:Salary EUR
2026-01-01 open Expenses:Groceries EUR
2026-01-01 open Expenses:Rent EUR
2026-01-01 open Expenses:Transport EUR
2026-01-01 open Expenses:Restaurants EUR
2026-01-01 open Equity:Opening-Balances EUR

2026-01-01 * "Opening balance"
  Assets:Bank:Checking  2500.00 EUR
  Equity:Opening-Balances

2026-09-30 * "ACME Corp" "September salary"
  Assets:Bank:Checking  3200.00 EUR
  Income:Salary

2026-10-01 * "Landlord" "October rent"
  Expenses:Rent  1100.00 EUR
  Assets:Bank:Checking

2026-10-04 * "Fresh Market" "Weekly groceries" #food
  Expenses:Groceries  84.20 EUR
  Liabilities:CreditCard

2026-10-09 * "City Transit" "Monthly pass"
  Expenses:Transport  49.00 EUR
  Assets:Bank:Checking

2026-10-15 * "Trattoria Roma" "Dinner with friends" #food
  Expenses:Restaurants  62.50 EUR
  Liabilities:CreditCard

2026-10-20 * "Transfer to savings"
  Assets:Bank:Savings  500.00 EUR
  Assets:Bank:Checking

2026-10-31 * "ACME Corp" "October salary"
  Assets:Bank:Checking  3200.00 EUR
  Income:Salary

2026-11-01 * "Landlord" "November rent"
  Expenses:Rent  1100.00 EUR
  Assets:Bank:Checking

2026-11-06 * "Fresh Market" "Weekly groceries" #food
  Expenses:Groceries  91.75 EUR
  Liabilities:CreditCard

2026-11-10 balance Assets:Bank:Savings 500.00 EUR
"""


def _install(version: str) -> Path:
    return ensure_venv(f"fava-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    ledger = workdir / "household.beancount"
    ledger.write_text(LEDGER)
    port = free_port()
    argv = [str(venv / "bin" / "fava"), "--host", "127.0.0.1", "--port", str(port), str(ledger)]
    return serve(argv, port=port, cwd=workdir, workdir=workdir, timeout_s=120)


APP = AppSpec(
    name="fava",
    kind="accounting reports (Fava for Beancount: charts, account trees, journal, filters)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
