"""Picks made ahead of their turn: a pick on one page state only.

The finder resolves every pending step of a page state in one discovery (engine/finder.py),
and collection resolves the start page's steps in one (discovery/planning.py): a later
step's element is picked on the page *before* the steps in between act. A step that acts
can change what the later step's words name: a click that opens a panel holding a second
control of the same name (a header's "Login" that opens a sign-in panel with its own
"Login"), a key or a fill the page answers by drawing one. A pick kept across that change is
a guess about the page the step meets; the header's "Login" would be clicked for the
panel's.

So a pick made ahead carries the moment its page state was read (``AheadPicks``: the time
before the scan was sent, or, for a pick collection made on the start page, the time the run
first located a step, before any step acted). At its turn, the gate's first check tells how
long the document has been unchanged (``GateSnapshot.quiet_ms``, the change watch of
``runtime/js/watch.js``), in the round trip the gate makes anyway. When the document changed
after the mark, the pick is set aside and the step is discovered afresh on the page it
meets (one scan, the same evidence rule): the fresh result decides, and an ambiguous one
fails before acting. When nothing changed, the pick stands at no extra cost (a form whose
fields take their values without a DOM change keeps its "Sign in" picked with the fields).

The watch sees the top document's own DOM, not inside an iframe's document or a shadow root:
a pick inside either is always discovered afresh once a step acted. A rival drawn only inside
a shadow root while the light DOM stays unchanged goes unseen (docs/engine.md, "A pick made
ahead of its turn").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pytest_pacts.models.locator import GateSnapshot, Locator

# a mark for a pick whose page state's moment is not known: any check finds the page changed
UNKNOWN = float("-inf")


@dataclass
class AheadPicks:
    """The steps whose element was picked ahead of their turn and not yet confirmed at it,
    each with the moment (``now_ms``) its page state was read; ``None``: a pick from before
    this run (collection's), marked when the run first locates an earlier step."""

    marks: dict[int, float | None] = field(default_factory=dict)

    def bind(self, index: int, at: float | None) -> None:
        self.marks[index] = at

    def starting(self, index: int, now: float) -> None:
        """Step ``index`` is being located: the page as it is now, before it acts, is the
        page the picks of later steps made before this run stand for."""
        for i, at in self.marks.items():
            if at is None and i > index:
                self.marks[i] = now

    def mark(self, index: int) -> float | None:
        """When the page state of ``index``'s pick was read; ``None``: not a pick made
        ahead (or already confirmed)."""
        if index not in self.marks:
            return None
        at = self.marks[index]
        return UNKNOWN if at is None else at

    def drop(self, index: int) -> None:
        self.marks.pop(index, None)


def changed_since(snapshot: GateSnapshot, locator: Locator, mark: float, now: float) -> bool:
    """Did the page change after ``mark`` (``now_ms``), by the check that returned at
    ``now``? Its ``quiet_ms`` is how long the document had been unchanged when it ran, so
    the last change was at ``now - quiet_ms`` or before: counted as after it (a change
    during the round trip counts as a change). Not known (no watch, an iframe's document,
    a shadow root): changed."""
    if locator.frame_path or locator.in_shadow or snapshot.quiet_ms is None:
        return True
    return now - snapshot.quiet_ms > mark


def set_aside(step_index: int, locator: Locator, snapshot: GateSnapshot) -> str:
    """Why a pick made ahead was not used at its turn (the gate outcome's message)."""
    return (
        f"step {step_index + 1}'s element {locator.describe()} was picked ahead of its turn, "
        f"and the page changed since (its DOM last changed {snapshot.quiet_ms or 0:.0f} ms "
        "before the check): it is discovered again on the page the step meets"
    )
