"""Scripts of pages that replace JavaScript built-ins, shared by the discovery and engine
tests of the in-page code's fresh realm (``pytest_pacts/runtime/js/realm.js``)."""

from __future__ import annotations

# Prototype.js 1.7's ``Array.from`` (its ``$A``): an array-like's items, else nothing; no
# mapping function
PROTOTYPE_ARRAY_FROM = """
  Array.from = function (it) {
    if (!it) return [];
    if ('toArray' in Object(it)) return it.toArray();
    var n = it.length || 0, out = new Array(n);
    while (n--) out[n] = it[n];
    return out;
  };
"""

# The call the similarity tests make: a fingerprint's similarity to itself and to the second
# button of the page, through the healing API's dispatcher (``pure_function``'s body
# replaced). ``args[0]``: the weights.
SIMILARITY_OF_TWO_BUTTONS = (
    "const m = api.__modules; const dom = m.dom.makeDom(document);"
    " const fp = (e) => m.resolve.fingerprintOf(e, dom);"
    " const [a, b] = document.querySelectorAll('button');"
    " return [api.pure.similarity(fp(a), fp(a), args[0]).score,"
    " api.pure.similarity(fp(a), fp(b), args[0]).score];"
)

# A library whose array methods throw: Playwright's own selector code in the page's world uses
# them (the bridge, ``runtime/bridge.py``, keeps it out of that world)
BROKEN_ARRAYS = (
    "<script>Array.prototype.some = function () { throw new TypeError('patched some'); };"
    "Array.prototype.forEach = function () { throw new TypeError('patched forEach'); };"
    "</script>"
)

# A page whose main thread stops answering a moment later without spending CPU: a
# synchronous request to a path the test's server never answers (``NEVER_ANSWERED``; the
# engine tests' ``open_tab`` leaves it pending). For Playwright and the engine it is the same
# hang as ``while (true) {}`` (no call into the page answers); that loop kept a core busy
# for each such test until the deadline closed the page, on a CPU-bound suite. Tests of the
# engine's reading of a hanging page keep the loop.
NEVER_ANSWERED = "__never-answered"
BLOCK_MAIN_THREAD = (
    "setTimeout(() => { const r = new XMLHttpRequest();"
    f" r.open('GET', '/{NEVER_ANSWERED}', false); r.send(); }}, 20)"
)
