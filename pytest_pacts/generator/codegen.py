"""Steps and expectations as Playwright Python statements.

Each step becomes a comment (the step in words, its source row, the locator's strategy and
confidence), one statement for the action and ``expect(...)`` assertions for the expected
outcome. Locators are rendered by discovery's :func:`~pytest_pacts.discovery.to_code`,
values by :class:`~pytest_pacts.generator.literals.ValueRenderer`; both emit only literals.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from pytest_pacts.discovery import to_code
from pytest_pacts.engine.widgets import split_choices
from pytest_pacts.generator.literals import GenerationError, ValueRenderer, comment_text
from pytest_pacts.models import Action, Expectation, ExpectationKind, Plan, Step, Target
from pytest_pacts.models.locator import Locator
from pytest_pacts.models.outcome import DropdownUse


@dataclass(frozen=True)
class Locators:
    """What the generator knows of a plan's elements.

    ``steps``: the verified locator of each step's target, by step index (a run record's
    steps, or the POM cache); ``elements``: locators by element key (``Element@Region``),
    used for expectation targets and as a fallback for steps; ``dropdowns``: by step index,
    how a select step chose in a custom dropdown (a run record's, or the discovery walk's).
    """

    steps: Mapping[int, Locator] = field(default_factory=dict)
    elements: Mapping[str, Locator] = field(default_factory=dict)
    dropdowns: Mapping[int, DropdownUse] = field(default_factory=dict)

    def for_step(self, step: Step) -> Locator | None:
        found = self.steps.get(step.index)
        if found is None and step.target is not None:
            found = self.elements.get(step.target.key)
        return found


@dataclass
class StepCode:
    comments: list[str]
    lines: list[str]


@dataclass
class Codegen:
    plan: Plan
    locators: Locators
    values: ValueRenderer
    uses_re: bool = False
    strategies: set[str] = field(default_factory=set)

    def step(self, step: Step) -> StepCode:
        comments = [
            f"Step {step.index + 1}: {comment_text(step.describe())}",
            f"Source: {comment_text(step.source.render())}",
        ]
        lines: list[str] = []
        var = f"step{step.index + 1}"
        loc_expr: str | None = None
        root = "page"  # where text expectations look: the step's own frame, if any
        if step.target is not None and step.target.image is not None:
            raise GenerationError(
                f"{step.source.render()}: step {step.index + 1} ({step.describe()}) is an "
                "image target, found by its picture when the requirement runs; a plain "
                "Playwright test has no locator for it, so none is generated"
            )
        if step.target is not None:
            locator = self.locators.for_step(step)
            if locator is None:
                raise GenerationError(
                    f"{step.source.render()}: step {step.index + 1} ({step.describe()}) has "
                    "no verified locator; run the requirement (or `pacts generate "
                    "--discover`) first"
                )
            self.strategies.add(locator.strategy.value)
            comments.append(
                f"Locator: {locator.strategy.value}, confidence {locator.confidence:.2f}: "
                f"{comment_text(locator.describe())}"
            )
            code = to_code(locator)
            self.uses_re = self.uses_re or "re.compile(" in code
            lines.append(f"{var} = {code}")
            loc_expr = var
            root += "".join(f".frame_locator({sel!r})" for sel in locator.frame_path)
        navigates = step.expected is not None and step.expected.kind is ExpectationKind.NAVIGATES_TO
        if navigates:
            lines.append(f"url_before_{var} = page.url")
        lines.extend(self._action(step, loc_expr))
        if step.expected is not None:
            shown = self._shown_choice(step, loc_expr)
            if shown is not None:
                lines.extend(shown)
            else:
                lines.extend(self._expect(step.expected, loc_expr, f"url_before_{var}", root))
        elif step.action is Action.WAIT:
            lines.append('page.wait_for_load_state("load")')
        return StepCode(comments, lines)

    def _value(self, step: Step) -> str:
        return self.values.expr(step.value or "")

    def _action(self, step: Step, loc: str | None) -> list[str]:
        action = step.action
        if action is Action.GOTO:
            return [f"page.goto({self._value(step)})"]
        if action is Action.WAIT:
            # a wait that names an element waits for it to be visible, then for its outcome
            return [f"expect({loc}).to_be_visible()"] if loc is not None else []
        if action is Action.PRESS:
            return [f"{loc or 'page.keyboard'}.press({self._value(step)})"]
        if action is Action.EXTRACT:
            raise GenerationError(
                f"step {step.index + 1}: extract steps (vars stored during the run) are not "
                "generated as plain Playwright code yet"
            )
        if loc is None:
            raise GenerationError(f"step {step.index + 1}: {action.value} needs an element")
        method = {
            Action.CLICK: "click",
            Action.FILL: "fill",
            Action.TYPE: "press_sequentially",
            Action.SELECT: "select_option",
            Action.CHECK: "check",
            Action.UNCHECK: "uncheck",
            Action.HOVER: "hover",
            Action.FOCUS: "focus",
        }.get(action)
        if method is None:
            raise GenerationError(f"step {step.index + 1}: cannot generate {action.value!r}")
        if action is Action.SELECT:
            use = self._dropdown(step)
            if use is not None:
                return self._choose(step, loc, use)
        arg = self._value(step) if action in (Action.FILL, Action.TYPE, Action.SELECT) else ""
        return [f"{loc}.{method}({arg})"]

    def _dropdown(self, step: Step) -> DropdownUse | None:
        """How a select step chose in a custom dropdown, as the run (or the walk) did it.
        Nothing else tells: a native ``<select>`` has the role ``combobox`` or ``listbox``
        too (HTML-AAM), so a locator's role is no evidence, and ``select_option`` stays."""
        return self.locators.dropdowns.get(step.index)

    def _shown_choice(self, step: Step, loc: str | None) -> list[str] | None:
        """``value:`` after a select on a custom dropdown, read as a person reads it: the
        text a select-only combobox or a listbox shows; the field an editable combobox
        filled (its value); each chip of the values an editable multi-select chose (its
        field is emptied after each choice, the chips show them)."""
        exp = step.expected
        if step.action is not Action.SELECT or loc is None or exp is None:
            return None
        use = self._dropdown(step)
        if use is None or exp.kind is not ExpectationKind.VALUE or not exp.text:
            return None
        parts = split_choices(exp.text)
        if use.widget_path:  # a hidden select: its widget shows the choice
            return [f"expect({loc}_widget).to_contain_text({self._pattern(p)})" for p in parts]
        if not use.typed and not use.text_field:
            return [f"expect({loc}).to_contain_text({self._pattern(p)})" for p in parts]
        if len(parts) == 1:
            return None  # the field holds it: ``to_have_value``
        return [f"expect(page.get_by_text({p!r}, exact=True).first).to_be_visible()" for p in parts]

    def _choose(self, step: Step, loc: str, use: DropdownUse) -> list[str]:
        """What a person does in a custom dropdown (APG combobox/listbox patterns): open it,
        type the option's name when the run filtered the list that way, click the option by
        its role and name; each option of a multi-select cell in turn, then close the list."""
        parts = split_choices(step.value or "")
        lines: list[str] = []
        if use.widget_path:
            # a hidden native select: what a person opens is the widget standing in for it
            widget = f"{loc}.locator({'xpath=' + use.widget_path!r})"
            if use.widget_role:
                widget += f".get_by_role({use.widget_role!r})"
            lines.append(f"{loc}_widget = {widget}  # the widget drawn for the hidden select")
            loc = f"{loc}_widget"
        for i, part in enumerate(parts):
            opened = use.opened[i] if i < len(use.opened) else use.opened[-1:] == (True,)
            if opened:
                lines.append(f"{loc}.click()  # open the dropdown")
            value = self.values.expr(part)
            if use.typed:
                lines.append(f"page.keyboard.type({value})  # filter its list as a person types")
            role = use.option_role if use.option_role in ("option", "treeitem") else "option"
            lines.append(f"page.get_by_role({role!r}, name={value}, exact=True).click()")
        if len(parts) > 1:
            lines.append('page.keyboard.press("Escape")  # close the list a multi-select keeps')
        return lines

    def _pattern(self, text: str) -> str:
        self.uses_re = True
        return f"re.compile(re.escape({text!r}), re.IGNORECASE)"

    def _target(self, target: Target) -> tuple[str, bool]:
        """A locator expression for an expectation's target and whether it was verified."""
        locator = self.locators.elements.get(target.key)
        if locator is not None:
            code = to_code(locator)
            self.uses_re = self.uses_re or "re.compile(" in code
            return code, True
        return f"page.get_by_text({target.element!r})", False

    # long because: a table of expected outcomes to assertions, one branch each
    def _expect(
        self, exp: Expectation, loc: str | None, before: str, root: str = "page"
    ) -> list[str]:
        """Assertions for ``exp``; text outcomes look in ``root`` (the step's frame: a
        payment iframe shows "Payment accepted" inside itself)."""
        kind = exp.kind
        text = exp.text or ""
        own = loc or 'page.locator(":focus")'
        if kind is ExpectationKind.NAVIGATES_TO:
            return [f"expect_navigated_to(page, {text!r}, {before})"]
        if kind is ExpectationKind.TEXT_VISIBLE:
            return [f'expect({root}.get_by_text({text!r}).locator("visible=true").first)'
                    ".to_be_visible()"]  # fmt: skip
        if kind is ExpectationKind.TEXT_HIDDEN:
            return [
                f'expect({root}.get_by_text({text!r}).locator("visible=true")).to_have_count(0)'
            ]
        if kind is ExpectationKind.URL_CONTAINS:
            return [f"expect(page).to_have_url({self._pattern(text)})"]
        if kind is ExpectationKind.TITLE_CONTAINS:
            return [f"expect(page).to_have_title({self._pattern(text)})"]
        if kind in (ExpectationKind.ELEMENT_VISIBLE, ExpectationKind.ELEMENT_HIDDEN):
            assert exp.target is not None
            expr, verified = self._target(exp.target)
            visible = kind is ExpectationKind.ELEMENT_VISIBLE
            if not verified:
                expr += '.locator("visible=true")'
                if visible:
                    return [f"expect({expr}.first).to_be_visible()  # text match: not discovered"]
                return [f"expect({expr}).to_have_count(0)  # text match: not discovered"]
            return [f"expect({expr}).{'to_be_visible' if visible else 'to_be_hidden'}()"]
        if kind is ExpectationKind.COUNT:
            assert exp.target is not None
            # a count target matches several elements, which a verified (unique) locator
            # cannot; its visible text is the requirement's own words
            # the elements whose text starts with the words ("Result" counts "Result 1",
            # "Result 2", not "Load results"), as discovery's best tier counts them
            self.uses_re = True
            pattern = r"^\s*" + re.escape(exp.target.element) + r"\b"
            target = f"page.get_by_text(re.compile({pattern!r}, re.IGNORECASE))"
            return [f'expect({target}.locator("visible=true")).to_have_count({exp.count!r})']
        simple = {
            ExpectationKind.FIELD_POPULATED: f'expect({own}).not_to_have_value("")',
            ExpectationKind.CHECKED: f"expect({own}).to_be_checked()",
            ExpectationKind.UNCHECKED: f"expect({own}).not_to_be_checked()",
            ExpectationKind.ENABLED: f"expect({own}).to_be_enabled()",
            ExpectationKind.DISABLED: f"expect({own}).to_be_disabled()",
        }
        if kind in simple:
            return [simple[kind]]
        if kind is ExpectationKind.VALUE:
            if not text:
                return [f'expect({own}).to_have_value("")']
            return [f"expect({own}).to_have_value({self._pattern(text)})"]
        raise GenerationError(f"cannot generate the expectation {exp}")
