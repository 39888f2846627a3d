"""Why discovery refuses a pick, in words: the evidence rule's verdict on the scan's pick
(:func:`weigh`), several elements matching alike (:func:`ambiguous`), a found element that
fails the gate (:func:`with_gate`), and what would make the name unique (:func:`unique_hint`).
"""

from __future__ import annotations

from pytest_pacts.discovery.payloads import (
    ScanResult,
)
from pytest_pacts.discovery.scans import FrameScan
from pytest_pacts.models.evidence import Evidence, EvidenceRule
from pytest_pacts.models.locator import (
    Candidate,
    DiscoveryResult,
    Fingerprint,
    GateSnapshot,
    Strategy,
    Unresolved,
)
from pytest_pacts.models.requirement import Target

JSON = dict[str, object]


def weigh(evidence: EvidenceRule, target: Target, raw: ScanResult) -> Unresolved | None:
    """The evidence rule on the scan's pick: ``None`` when it passes, else why not."""
    score = raw.get("score")
    if score is None:
        return None
    runner = raw.get("runner_up")
    rival = runner["score"] if runner else None
    verdict = evidence.verdict(score, rival)
    if verdict is Evidence.ACCEPTED:
        return None
    fp = raw["fingerprint"]
    name = str(fp.get("accessible_name") or "")
    name = name if any(c.isalnum() for c in name) else ""  # an icon font's glyph is no name
    # a nameless pick is told by what it was matched on: its id, else its classes
    classes = "".join(f".{c}" for c in (fp.get("classes") or [])[:2])
    marks = f"#{fp['id']}" if fp.get("id") else classes
    pick = f'{fp["tag"]} "{name}"' if name else f"{fp['tag']}{marks} (no accessible name)"
    strategy = Strategy(raw["strategy"])
    candidates = [Candidate(description=pick, score=score, strategy=strategy)]
    if runner:
        candidates.append(
            Candidate(
                description=runner["description"],
                score=runner["score"],
                strategy=Strategy(runner["strategy"]),
            )
        )
    # The scan's pick is its first strategy's element; a later strategy's element may
    # score higher (a field named by its placeholder, 0.95 as role and name, against
    # another labelled alike, 0.92). The refusal names them best first, by score.
    candidates.sort(key=lambda c: -c.score)
    best = candidates[0]
    second = candidates[1].score if len(candidates) > 1 else None
    shown = name if best.description == pick else ""
    close = verdict is Evidence.CLOSE
    message = (
        f'"{target}" is not named clearly enough to act on: the best match is '
        f"{best.description} ({best.strategy.value if best.strategy else '?'}), and its "
        f"{evidence.explain(best.score, second)}; " + unique_hint(target, shown, ordinal=close)
    )
    return Unresolved(
        reason="ambiguous" if close else "none", message=message, candidates=tuple(candidates)
    )


def candidates_of(raw: ScanResult) -> tuple[Candidate, ...]:
    return tuple(
        Candidate(description=c["description"], score=c["score"], strategy=Strategy(c["strategy"]))
        for c in raw.get("candidates") or []
    )


_UNSEEN = frozenset({"none", "not_unique", "not_visible"})


def with_gate(
    result: DiscoveryResult, gates: list[JSON] | None, index: int, *, waits: bool = False
) -> DiscoveryResult:
    """Attach the gate snapshot; an accepted locator that fails it is ``not_actionable``.
    A ``wait`` step (``waits``) only needs its element unique and visible: covered, disabled
    or moving elements are waited for all the same."""
    if gates is None:
        changed = Unresolved(
            reason="not_actionable",
            message="the page changed (navigated or reloaded) during discovery; discover again",
        )
        return result.model_copy(update={"unresolved": result.unresolved or changed})
    gate = GateSnapshot.model_validate(gates[index])
    failed = gate.failed
    if waits:
        failed = next((p for p in gate.points if not p.ok and p.code in _UNSEEN), None)
    if result.unresolved is not None or failed is None or result.fingerprint is None:
        return result.model_copy(update={"gate": gate})
    unresolved = Unresolved(
        reason="not_actionable",
        message=f"found {describe(result.fingerprint)}, but it fails the {failed.name} "
        f"check: {failed.reason}",
        failed_point=failed,
    )
    return result.model_copy(update={"gate": gate, "unresolved": unresolved})


def describe_raw(raw: ScanResult) -> str:
    fp = raw.get("fingerprint") or {}
    name = fp.get("accessible_name")
    return f'{fp.get("tag")} "{name}"' if name else str(fp.get("tag"))


def describe(fp: Fingerprint) -> str:
    shown = f'{fp.tag} "{fp.accessible_name}"' if fp.accessible_name else fp.tag
    return shown + (f" (#{fp.id})" if fp.id else "")


def ambiguous(target: Target, top: list[tuple[FrameScan, ScanResult]]) -> Unresolved:
    candidates: list[Candidate] = []
    for scan, raw in top:
        where = f" in frame {' > '.join(scan.path)}" if scan.path else ""
        for c in raw.get("candidates") or []:
            candidates.append(
                Candidate(
                    description=c["description"] + where,
                    score=c["score"],
                    strategy=Strategy(c["strategy"]),
                )
            )
        if raw["status"] == "found":
            fp = raw["fingerprint"]
            shown = f'{fp["tag"]} "{fp["accessible_name"]}"{where}'
            chosen_by = Strategy(raw["strategy"])
            candidates.append(Candidate(description=shown, score=0.0, strategy=chosen_by))
    strategy = candidates[0].strategy.value if candidates and candidates[0].strategy else "?"
    return Unresolved(
        reason="ambiguous",
        message=f'"{target}" matches {len(candidates)} elements equally well ({strategy}); '
        + unique_hint(target, "", ordinal=True),
        candidates=tuple(candidates),
    )


def unique_hint(target: Target, shown: str, *, ordinal: bool) -> str:
    """What would make ``target`` name exactly one element, most robust first: a region,
    the text the element shows (``shown``, when the step's words are not it), and, for
    identical elements, an ordinal counted in reading order inside the region."""
    ways = []
    if not target.region:
        ways.append(f'a region ("{target.element}@<container>")')
    if shown and shown.casefold() != target.element.casefold() and len(shown) <= 60:
        where = f"@{target.region}" if target.region else ""
        ways.append(f'the text it shows, if it is the one meant ("{shown}{where}")')
    if ordinal:
        where = f"@{target.region}" if target.region else "@<container>"
        ways.append(
            f'an ordinal for identical elements ("{target.element}[2]{where}", counted in '
            "reading order inside the region)"
        )
    return "to name it uniquely, give " + (", or ".join(ways) if ways else "another name")
