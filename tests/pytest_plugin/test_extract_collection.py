"""Vars stored by ``extract`` steps, as pytest collects them (a real session in a subprocess):
a use before the step that stores the var, or of a var nothing stores, is a located
collection error; extract then use collects and resolves."""

from __future__ import annotations

import pytest

OK_YAML = """
requirements:
  - req_id: REQ-ORDER-OK
    url: /checkout-complete.html
    steps:
      - "Order number | extract | order_id; regex=ORD-(\\\\d+)"
      - "response:/api/order order.receipt_token | extract | receipt; secret"
      - "| goto | /api/order?id={{vars.order_id}} | response:/api/order order.id = {{vars.order_id}}"
      - "| wait | | text_visible:{{vars.receipt}}"
"""


def test_a_var_used_before_it_is_extracted_is_a_located_collection_error(
    pytester: pytest.Pytester,
) -> None:
    from pytest_pacts.scaffold.workbook import SheetRequirement, WorkbookSpec, write_workbook

    write_workbook(
        pytester.path / "orders.xlsx",
        WorkbookSpec(
            requirements=[
                SheetRequirement(
                    "REQ-ORDER-001",
                    "/checkout-complete.html",
                    [
                        ("", "wait", "", "text_visible:{{vars.order_id}}"),
                        ("Order number", "extract", "order_id", ""),
                        ("", "goto", "/api/order?id={{vars.order_no}}", ""),
                    ],
                )
            ]
        ),
    )
    pytester.makefile(".req.yaml", ok=OK_YAML)
    result = pytester.runpytest_subprocess(
        ".", "--pacts-dry-run", "--pacts-discover=off", "--continue-on-collection-errors",
        "-q", "-p", "no:cacheprovider",
    )  # fmt: skip
    out = result.stdout.str()
    assert (
        "orders.xlsx:Requirements:2:H: {{vars.order_id}} cannot be resolved: the step that "
        "extracts 'order_id' comes later (orders.xlsx:Requirements:3:G); expected the step "
        "that extracts 'order_id' before this one (move it up)"
    ) in out, out
    assert (
        "orders.xlsx:Requirements:4:G: {{vars.order_no}} cannot be resolved: no var "
        "'order_no' is defined and no earlier step extracts it; expected a var 'order_no' in "
        "vars (or the Config sheet), or an earlier step that stores it: <Element> | extract | "
        "order_no"
    ) in out, out
    assert "Traceback" not in out
    # the file that extracts before it uses collects, and its values resolve
    result.assert_outcomes(passed=1, errors=1)
