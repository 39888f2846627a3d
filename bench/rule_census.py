# ruff: noqa: E501  (the rules table quotes the modules' lines as they are)
"""Which in-page rule decided what: a census of the rules in ``pytest_pacts/runtime/js``.

Two sources, both recorded by runs made anyway:

* **Coverage** (``bench/js_coverage.py run --out DIR -- COMMAND``, one folder per app or
  bench): each rule below is anchored at the point where it *decides* (the ``return`` it
  answers with, the branch that drops or keeps candidates because of it, the call that
  says yes), and the census sums, over the folder's takes (files), how many times V8 counted the
  innermost block or function around that point. For a rule that answers a step (a
  ``return``) that is the number of answers it gave (discovery's, ``pacts elements``',
  healing's re-discovery: every resolve, not only the flows' steps); for a filter it is
  the number of times its branch ran, an upper bound on what it decided.
* **Stores** (``run_corpus.py --out DIR``): ``run_steps.strategy`` of every step run,
  per app: which named strategy's locator each step used (``relational`` lumps the rules
  by relation, which the coverage tells apart).

Usage::

    .venv/bin/python bench/rule_census.py --cov datasette=/tmp/cov/datasette \\
        --cov mutation=/tmp/cov/mut --stores /tmp/dev_out [--js DIR]

Prints the rules table (Markdown: rule, module:lines, lines, decisions per folder) and the
strategies table. ``--js`` names the modules as they were when measured (the anchors are
looked up in that text; the offsets V8 reported are that text's).
"""

from __future__ import annotations

import argparse
import collections
import json
import sqlite3
import sys
from pathlib import Path

JS = Path(__file__).resolve().parent.parent / "pytest_pacts" / "runtime" / "js"

# (rule, module, first line's text, last line's text, the deciding point's text). Each text
# is unique in its module (checked); the deciding point is looked up after the first line.
# fmt: off
RULES: list[tuple[str, str, str, str, str]] = [
    # -- discovery: the levels and their tie-breaks (resolve.js resolveIn) --
    ("named strategy at a level (the main pick)", "resolve.js",
     "const rival = runnerUp(tier, pass, labels, order.slice(k + 1)",
     "return found(rank, s, tier, el, strategies[s].spec(row.key, el), scoped.where.get(el), false, rival);",
     "return found(rank, s, tier, el, strategies[s].spec(row.key, el), scoped.where.get(el), false, rival);"),
    ("named strategy at a level (the main pick)", "resolve.js",
     "const rival = runnerUp(tier, stage(), el, weight);", "return later ? againstFocus(pick, later) : pick;",
     "return later ? againstFocus(pick, later) : pick;"),
    ("several alike: ambiguous", "resolve.js",
     "if (cased.length !== 1) return ambiguous(rank, s, tier, scoped.els);",
     "if (cased.length !== 1) return ambiguous(rank, s, tier, scoped.els);",
     "if (cased.length !== 1) ¦return ambiguous(rank, s, tier, scoped.els);"),
    ("letter case tells look-alikes apart (cased)", "resolve.js",
     "const lettersOf = (v) =>", "lettersOf(r.key.value) === lettersOf(q.raw));",
     "cased[0] : scoped.els[0]"),
    ("a key goes to the focused element", "resolve.js",
     "let focus = step.at_turn", "found(rank, t, tier, focus,",
     "found(rank, t, tier, focus,"),
    ("ordinal (Delete[2]@Cart)", "resolve.js",
     "function nthOf(picks, step) {", "message: `\"${step.element}[${step.ordinal}]\" asks",
     "return found(rank, s, tier, picked.el,"),
    ("class-token region decides only if it shows the words", "resolve.js",
     "if (scoped.all && scoped.all.length > 1 && by && by.how === 'class_token'",
     "return ambiguous(rank, s, tier, scoped.all);", "¦return ambiguous(rank, s, tier, scoped.all);"),
    ("a container stands in for its one control", "resolve.js",
     "const NAMED_BY_ITSELF = new Set(", "return { container: c, how: { how, specs } };",
     "if (row.via) ¦return relFound({ el }, { ...row.via"),
    ("a container named as its control is not named by itself", "resolve.js",
     "const controlName = control ?", "if (controlName && controlName === low(dom.accName(row.el))) control = null;",
     "control = null;"),
    ("accname: a control owning the words beats what wraps it", "resolve.js",
     "const owners = new Set(pointer ?", "const namedThrough = (e) =>", "drawnInside(e, o));"),
    ("click: a field only when no control is named so", "resolve.js",
     "compat.set(el, step.action === 'click' && c === 2", "compat.set(el, step.action === 'click' && c === 2",
     "? ¦1 : c);"),
    ("click: a field never by part of its name", "resolve.js",
     "if (step.action === 'click' && tier === 1) {", "rows = rows.filter((r) => !isEditableType(r.el, dom.roleOf));",
     "rows = rows.filter((r) => !isEditableType(r.el, dom.roleOf));"),
    ("click: a heading or paragraph is text, not a control", "resolve.js",
     "if (step.action === 'click' && pass === 1) {", "els = els.filter((e) => !text.includes(e));",
     "!mereText.includes(e)) ¦mereText.push(e);"),
    ("pointer: never a visually hidden element", "resolve.js",
     "if (ACTED_ON_BY_POINTER.has(step.action)) els = els.filter(", "|| (visuallyHidden(e) === 'clipped' && !shownTwin()));",
     "(e) => drawnByLabel(e) || !visuallyHidden(e)"),
    ("pointer: never a container of several controls", "resolve.js",
     "if (pointer) els = els.filter((e) => !holdsControls(e));",
     "if (pointer) els = els.filter((e) => !holdsControls(e));", "if (pointer) ¦els = els.filter((e) => !holdsControls(e));"),
    ("WCAG 2.5.3: a shown name beats an unseen label", "resolve.js",
     "if (els.length > 1 && els.some(shows)) els = els.filter((e) => !unseen(e));",
     "if (els.length > 1 && els.some(shows)) els = els.filter((e) => !unseen(e));",
     "els.some(shows)) ¦els = els.filter((e) => !unseen(e));"),
    ("a hidden match answers with its opener", "resolve.js",
     "const TOGGLE_KINDS = new Set(", "const unopened = (step, popup, regionNote)",
     "if (hiddenStage >= 0 && hiddenStage < si && hiddenOpener()) ¦return hiddenOpener();"),
    ("hover menus (showsOnHover)", "resolve.js",
     "function hoverItem(el) {", "function openersFor(step, scope, hidden) {", "function showsOnHover(item, el) {"),
    ("a modal dialog confines the step", "resolve.js",
     "function openModal() {", "const usable = (e, action) =>",
     "if (inside.status !== 'none') ¦return inside;"),
    ("a faded-out container hides (opacity 0)", "resolve.js",
     "const fadedCache = new Map();", "const concealed = (e) =>", "fadedCache.set(key, out);"),
    ("runner-up: two links to one URL are one choice (sameLink)", "resolve.js",
     "const QUIET_ATTRS =", "      .some((e) => !la.contains(e) && !lb.contains(e) && isClickable(e, dom.roleOf, true));",
     "if (isItem(i, i)) ¦return i.contains(lb);"),
    ("a caption names its field first (besideLabel, exact)", "resolve.js",
     "if ((tier === 1 || s === 'css') && !captioned", "if (near.length === 1) return relFound(near[0], near[0].where, true);",
     "if (near.length === 1) ¦return relFound(near[0], near[0].where, true);"),
    ("adjacent text / a label with no for (beside)", "resolve.js",
     "function besideLabel(e) {", "return els.filter((e) => where.has(e)).map((el) => ({ el, where: { ...where.get(el), description: step.region } }));\n  }\n  // What",
     "const picked = near.length === 1 ? near[0] : nthOf(near, step);\n      ¦return picked.status ? picked : relFound(picked, picked.where, true);"),
    ("adjacent text: the caption on the line above", "resolve.js",
     "if (n && dir === 'previousSibling' && isBreak(n)", "if (!above) continue;",
     "above = !!n && plain(n)"),
    ("relational: a region's (or the words') one control", "resolve.js",
     "function relational(step, scope) {", "return [...plain].map(([el, w]) => ({ el, where: w }));",
     "if (rel.length === 1) ¦return relFound(rel[0]);"),
    ("relational: a placeholder contradicts nothing", "resolve.js",
     "const name = own === norm(e.getAttribute('placeholder')) ? '' : own;",
     "const name = own === norm(e.getAttribute('placeholder')) ? '' : own;", "? ¦'' : own;"),
    ("relational: a placeholder, or a check step's title, contradicts nothing", "resolve.js",
     "const hints = [e.getAttribute('placeholder')", "const name = hints.some((h) => h && own === norm(h)) ? '' : own;",
     "const name = hints.some((h) => h && own === norm(h)) ? ¦'' : own;"),
    ("relational: a checkbox drawn as an icon (drawnAsIcon)", "resolve.js",
     "const roleWordsOnly =", "return [...plain].map(([el, w]) => ({ el, where: w }));", "const plain = new Map();"),
    ("itemCheckbox: a check step's words name its item", "resolve.js",
     "function itemCheckbox(step) {", "return items.flatMap((g) => g.els.map(",
     "g.els.map((el) => ¦({ el, where: { container: g.container, how: g.how, description: step.element } })));"),
    ("several crowded regions: ambiguous", "resolve.js",
     "if (crowdedAt) return ambiguous(", "if (crowdedAt) return ambiguous(", "if (crowdedAt) ¦return ambiguous(crowdedAt.rank"),
    ("searchFields: a search field by what it searches", "resolve.js",
     "const SEARCH_VERBS =", "return els.filter((e) => where.has(e) && !elsewhere(e))",
     "return found(rank, where ? 'relational' : 'css', 2, el, spec, where, true);"),
    ("namedByKind: an extract target by class/itemprop", "resolve.js",
     "function namedByKind(step, scope) {", "    return [];\n  }\n\n  // A search box",
     "if (kind.length === 1) ¦return found(rank, 'relational', 2, kind[0].el"),
    ("words only a heading says: refused with its message", "resolve.js",
     "const inScope = mereText.filter(", "'name the button or link to click by the words it shows';",
     "message = `\"${step.element}\" names only"),
    # -- regions --
    ("region: a structured container (id/class/name)", "resolve.js",
     "if (scope.structured.size) {", "if (where.size || !els.length) return { els: els.filter((e) => where.has(e)), where, all: els };",
     "if (where.size || !els.length) ¦return { els: els.filter((e) => where.has(e)), where, all: els };"),
    ("region: words a person reads outrank tokens (seen)", "resolve.js",
     "if (scope.seen === undefined) {", "scope.structured = new Map([...scope.structured].filter(([, how]) => how === 'name'));",
     "scope.structured = new Map([...scope.structured].filter(([, how]) => how === 'name'));"),
    ("region: a mention in prose names nothing (inProse)", "resolve.js",
     "function paragraphOf(e) {", "const inProse = (m, needle) =>", "&& ¦!low(visibleLowOf(paragraphOf(m))).startsWith(needle)"),
    ("region: a mention in prose names nothing (inProse)", "resolve.js",
     "const paragraphOf = (e) =>", "const inProse = (m, needle) =>", "&& ¦!low(visibleLowOf(paragraphOf(m))).startsWith(needle)"),
    ("region: quoted text (pre) names nothing", "resolve.js",
     "const quoted = (m) =>", "const quoted = (m) =>", "!!(m.closest && ¦m.closest('pre'))"),
    ("region: the repeated item holding the words (isItem)", "resolve.js",
     "function isItem(el, anchor) {", "const shapeOf = memo(", "if (isItem(a, anchor.el)) ¦break;"),
    ("region: a section wrapping only the words is not it", "resolve.js",
     "function wrapsOnly(section, anchor) {", "    return true;\n  }\n  // One of",
     "if (isSection(a) && !wrapsOnly(a, anchor.el)) ¦break;"),
    ("region: a heading's section (sectionGroup)", "resolve.js",
     "function headingLevel(h) {", "return { container, how: { how: 'heading', specs: siblingSpecs(base, at + 1, container) }, els: inside };",
     "if (part && (!group || part.els.length < group.els.length)) ¦group = part;"),
    ("region: a caption's section (isCaption)", "resolve.js",
     "function isCaption(m, region) {", "return !!b.nextElementSibling && bare(dom.textOf(b)) === bare(region)",
     "(caption && ¦shapeOf(s) === shapeOf(base)"),
    ("relation climb: ends at the nearest control", "resolve.js",
     "if (nearest !== null && fieldControls().some(", "if (nearest !== null && fieldControls().some(",
     "if (nearest !== null && fieldControls().some((c) => c !== anchor.el && containsComposed(a, c))) ¦break;"),
    ("relation climb: never into another field's label", "resolve.js",
     "if (nearest !== null && otherLabels(nearest)", "if (nearest !== null && otherLabels(nearest)",
     "!containsComposed(l, anchor.el) && containsComposed(a, l))) ¦break;"),
    # -- scoring --
    ("an identifier match of a named element scores less", "resolve.js",
     "const base = (s, el) => args.confidence[s]", "* (s === 'css' && el && bare(dom.accName(el)) ? args.named_identifier : 1)",
     "? ¦args.named_identifier : 1)"),
    ("class-only words are no evidence alone (markup_only)", "resolve.js",
     "const classOnly = (el) =>", "&& !['id', 'name'].some((a) =>", "? ¦args.markup_only : 1);"),
    # -- scan.js --
    ("ABBREVIATIONS (op = operator, ...)", "scan.js",
     "const ABBREVIATIONS = new Map(", "const sameWord = (t, w) =>", "t === w || ¦(ABBREVIATIONS.get(t) || []).includes(w)"),
    ("same words, other spacing (Log in ~ Login)", "scan.js",
     "if (q.joined && p.joined === q.joined) return 1;", "if (q.joined && p.joined === q.joined) return 1;",
     "if (q.joined && p.joined === q.joined) ¦return 1;"),
    ("icon classes name an icon (menu icon ~ svg.menu-icon)", "scan.js",
     "// An icon, or a control showing nothing but one, is named by its classes:",
     "out.push({ value: words.join(' '), css: `${tag(el)}.${CSS.escape(c)}` });",
     "out.push({ value: words.join(' '), css: `${tag(el)}.${CSS.escape(c)}` });"),
    ("shadow host names its shadow tree's elements", "scan.js",
     "shadow: {", "same: (el, s) => elMatches(el, s.css) && inShadow(el)",
     ".filter(Boolean).map((v) => ({ value: v, host: cssVariants(h)[0] }));"),
    ("a tooltip plugin's moved title (data-original-title)", "scan.js",
     "keys: (el) => ['aria-label', 'title', 'data-original-title'", "keys: (el) => ['aria-label', 'title', 'data-original-title'",
     "titleOf(el) === el.getAttribute(a)"),
    # -- healing.js --
    ("SYNONYMS (log in = sign in, ...)", "healing.js",
     "const SYNONYMS = [", "SYNONYMS.forEach(", "if (A.join('') === B.join('')) return A.length && A.some((w) => w.startsWith('§')) ? ¦0.9"),
    ("counts are data (5 hidden tables ~ 1 hidden table)", "healing.js",
     "if (sameBesideCounts(a, b)) return 0.9;", "if (sameBesideCounts(a, b)) return 0.9;", "if (sameBesideCounts(a, b)) ¦return 0.9;"),
    ("a tooltip's words count as shown text (DESCRIBED)", "healing.js",
     "const DESCRIBED = 0.9;", "add('text', w.text, !!fp.text, Math.max(", "DESCRIBED * textSim(fp.text, c.title)"),
    ("overlay: a consent banner or dialog dismissed", "healing.js",
     "const OVERLAY_WORDS = new Set(", "return { covered: true, overlay: kind, cover, button:",
     "healRegistry.set(arg.heal_id, button ? [button, layer] : [layer]);"),
    ("overlay: the app's own content is never dismissed", "healing.js",
     "function appContent(layer, words, dom) {", "if (own) return { covered: true, overlay: null, cover, own };",
     "if (own) ¦return { covered: true, overlay: null, cover, own };"),
    ("overlay: a live region's Close is not the layer's", "healing.js",
     "const LIVE_ROLES = new Set(", "function overlayAt(els, arg) {", "if (n.getAttribute && LIVE_ROLES.has(n.getAttribute('role'))) ¦return true;"),
]
# fmt: on


# The rules whose deciding point runs for every candidate or comparison (a filter's test,
# a score's factor, a table's lookup): their counts are how often the test ran, an upper
# bound on what it decided; the others count the answers the rule gave.
RUNS: frozenset[str] = frozenset(
    r[0]
    for r in RULES
    if r[0].startswith(("accname", "click: a field never", "pointer:", "a faded-out", "icon classes",
                        "a tooltip", "ABBREVIATIONS", "SYNONYMS", "an identifier", "class-only",
                        "region: quoted", "region: a mention", "region: a caption's",
                        "relational: a checkbox drawn", "shadow host"))
)  # fmt: skip


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def anchors(texts: dict[str, str]) -> list[tuple[str, str, int, int, int]]:
    """Each rule as (rule, module, first line, last line, offset of its deciding point); the
    lines are the rule's own code (its helper, table or branch), the point may be elsewhere
    (the branch of ``resolveIn`` that returns its answer)."""
    out = []
    for rule, module, first, last, at in RULES:
        text = texts[module]
        if first not in text:
            continue  # not in this version of the module (a rule removed or not yet made)
        for s in (first, last):
            if text.count(s) != 1:
                raise SystemExit(f"{rule}: {s!r} occurs {text.count(s)} times in {module}")
        start = text.index(first)
        end = text.index(last) + len(last)
        # the point: where ``¦`` stands in the deciding text (else its first character)
        mark = max(at.find("\u00a6"), 0)
        code = at.replace("\u00a6", "")
        point = text.find(code, start)
        if point < 0:
            point = text.find(code)
        if point < 0:
            raise SystemExit(f"{rule}: the deciding point {code!r} is not in {module}")
        point += mark
        out.append((rule, module, _line(text, start), _line(text, end), point))
    return out


def counts(folder: Path, points: list[tuple[str, int]]) -> tuple[list[int], int]:
    """Per point (module, offset): the sum over pages of the innermost range's count."""
    total = [0] * len(points)
    pages = 0
    for dump in sorted(folder.glob("*.json")):
        data = json.loads(dump.read_text(encoding="utf-8"))
        pages += 1
        for i, (module, offset) in enumerate(points):
            best = None
            for r in data.get(module, []):
                if r[0] <= offset < r[1] and (best is None or r[1] - r[0] <= best[1] - best[0]):
                    best = r
            if best is not None:
                total[i] += best[2]
    return total, pages


def strategies(folders: list[Path]) -> dict[str, collections.Counter[str]]:
    """app -> strategy -> steps run (passed or healed), over every store in the folders."""
    out: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for folder in folders:
        for store in sorted(folder.glob("*/*/store*.sqlite")):
            app = store.parent.parent.name
            with sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=5) as db:
                rows = db.execute(
                    "SELECT strategy, count(*) FROM run_steps WHERE status IN ('passed', 'healed')"
                    " AND strategy IS NOT NULL GROUP BY strategy"
                ).fetchall()
            for strategy, n in rows:
                out[app][strategy] += n
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cov", action="append", default=[], help="NAME=FOLDER of coverage")
    parser.add_argument("--stores", action="append", default=[], type=Path)
    parser.add_argument("--js", type=Path, default=JS)
    args = parser.parse_args()
    texts = {p.name: p.read_text(encoding="utf-8") for p in sorted(args.js.glob("*.js"))}
    rules = anchors(texts)
    named = [c.split("=", 1) for c in args.cov]
    cols = []
    for name, folder in named:
        found, pages = counts(Path(folder), [(m, p) for _, m, _, _, p in rules])
        cols.append((f"{name} ({pages} takes)", found))
    print(
        "| rule | module:lines | lines | decides at | counts | "
        + " | ".join(c for c, _ in cols)
        + " |"
    )
    print("|---|---|---:|---:|---|" + "---:|" * len(cols))
    for i, (rule, module, a, b, point) in enumerate(rules):
        row = " | ".join(str(found[i]) for _, found in cols)
        at = _line(texts[module], point)
        kind = "runs" if rule in RUNS else "answers"
        print(f"| {rule} | {module}:{a}-{b} | {b - a + 1} | {at} | {kind} | {row} |")
    if args.stores:
        table = strategies(args.stores)
        names = sorted({s for c in table.values() for s in c})
        print("\n| app | " + " | ".join(names) + " |\n|---|" + "---:|" * len(names))
        for app, c in sorted(table.items()):
            print(f"| {app} | " + " | ".join(str(c[s]) for s in names) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
