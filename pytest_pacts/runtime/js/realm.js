// The installer's outer part (see pytest_pacts/runtime/scripts.py, ``installer``): not a module
// but one function expression, ``(factory) => dispatcher``. ``factory(host)`` builds the API
// from the modules' source; the dispatcher's ``api()`` answers the copy each call uses.
//
// The copy built in the page's own JavaScript realm is used while the page leaves the
// JavaScript built-ins alone. A page or a library it loads may replace them (Prototype.js
// and MooTools replaced array and string methods, others add ``Array.prototype.toJSON`` or
// replace ``JSON``, ``Map``): the in-page code would then throw or, worse, answer something
// else. From the first call that finds one replaced, calls use a second copy of the same
// source, compiled in a fresh realm: an ``about:blank`` iframe, attached for the moment its
// realm is taken and removed at once, whose built-ins the page has never seen. The DOM stays
// the page's (the elements, their methods and the window's functions), as it must; arrays
// and objects passed in are copied into the fresh realm on entry (``adopt``), so their
// methods are the fresh ones too, and those it answers back into the page's (``toPage``);
// and every callback is registered with the page's window
// (timers, animation frames, mutation observers, event listeners) by a function of the
// page's realm (``host``, ``windowNames``): the window runs no callback registered from a
// removed frame's realm.
//
// Where the fresh realm cannot be had (a page whose Content-Security-Policy forbids
// compiling code, a replaced ``document.createElement``), calls stay with the first copy, and
// an exception it throws is reported as such (``PageScriptError``).
//
// The code outside ``build`` runs in the page's realm. Installed at the document's first
// moment (the engine's init script), it reads the built-ins before any script of the page
// runs; installed later, it may read replaced ones, and one that throws counts as replaced.
// Its per-call check uses no built-in method at all (indexed loops, ``for ... in``).
((factory, lazy) => {
  // Built-ins the in-page code relies on: their global bindings and the functions on them
  // and on their prototypes, as they are now (the document's first moment, when the engine's
  // init script installs the API). Installed later, on an already changed page, a replaced
  // function is told by its source text: not the browser's own ("[native code]"). Left out:
  // what the code does not rely on and frameworks replace keeping the contract, so their
  // pages keep the copy in their own realm: Angular's zone.js replaces ``Promise`` (the
  // code's ``async`` functions use the language's own), ``Error`` and the ``toString``
  // methods of functions and objects.
  const ROOTS = ['Object', 'Function', 'Array', 'String', 'Number', 'Boolean', 'Symbol', 'Math',
    'JSON', 'Reflect', 'Map', 'Set', 'WeakMap', 'WeakSet', 'RegExp', 'parseInt', 'parseFloat',
    'isNaN', 'isFinite'];
  const owners = [];
  const keys = [];
  const values = [];
  const fnText = Function.prototype.toString;
  let replaced = false;
  const keep = (owner, key, value) => {
    owners[owners.length] = owner;
    keys[keys.length] = key;
    values[values.length] = value;
  };
  // told on the first call, not at install: most documents are never called into
  let told = false;
  const notNative = () => {
    if (told) return replaced;
    told = true;
    try {
      for (let i = 0; i < values.length; i++) {
        const v = values[i];
        if (typeof v === 'function' && fnText.call(v).indexOf('[native code]') < 0) replaced = true;
      }
    } catch (e) {
      replaced = true;
    }
    return replaced;
  };
  try {
    for (let r = 0; r < ROOTS.length; r++) {
      const root = globalThis[ROOTS[r]];
      keep(globalThis, ROOTS[r], root);
      if (root === null || (typeof root !== 'object' && typeof root !== 'function')) continue;
      const objects = [root, root.prototype];
      for (let o = 0; o < objects.length; o++) {
        const object = objects[o];
        if (!object) continue;
        const names = Object.getOwnPropertyNames(object);
        for (let n = 0; n < names.length; n++) {
          if (names[n] === 'toString' && (object === Function.prototype || object === Object.prototype)) continue;
          const d = Object.getOwnPropertyDescriptor(object, names[n]);
          if (d && typeof d.value === 'function') keep(object, names[n], d.value);
        }
      }
    }
  } catch (e) {
    replaced = true;  // a built-in that throws when read or listed is not the browser's own
  }
  const changed = () => {
    for (let i = 0; i < owners.length; i++) if (owners[i][keys[i]] !== values[i]) return true;
    // added, not replaced: a ``toJSON`` changes what JSON.stringify writes, an enumerable
    // property what every ``for ... in`` lists
    if (Array.prototype.toJSON !== undefined || Object.prototype.toJSON !== undefined
      || String.prototype.toJSON !== undefined) return true;
    for (const k in Object.prototype) return k !== undefined;
    for (const k in Array.prototype) return k !== undefined;
    return false;
  };

  // The page's window runs no callback registered while a function of a removed frame's
  // realm is running (a listener, a timer, an animation frame, a mutation observer): such
  // registrations go through these functions of the page's realm. The copy built in the
  // fresh realm takes them under the window's names; both copies use ``listen`` and
  // ``frame`` (the animation frame of the document's first moment: the page may replace
  // ``requestAnimationFrame`` later).
  const firstFrame = requestAnimationFrame.bind(window);
  const host = {
    listen: (target, type, f, capture) => target.addEventListener(type, (e) => f(e), !!capture),
    frame: (f) => firstFrame((t) => f(t)),
    // an array and an object of the page's realm, for the fresh copy's answers (``toPage``)
    array: () => [],
    object: () => ({}),
  };
  const windowNames = {
    __proto__: null,
    setTimeout: (f, ms) => setTimeout(() => f(), ms),
    // the window's own listeners (the click guard's): the wrapper kept on the function, so
    // that removing it removes what was added
    addEventListener: (type, f, options) => {
      if (typeof f === 'function' && !f.__pactsOnWindow) f.__pactsOnWindow = (e) => f(e);
      return addEventListener(type, (f && f.__pactsOnWindow) || f, options);
    },
    removeEventListener: (type, f, options) => removeEventListener(type, (f && f.__pactsOnWindow) || f, options),
    requestAnimationFrame: (f) => requestAnimationFrame((t) => f(t)),
    MutationObserver: function (f) { return new MutationObserver((records, o) => f(records, o)); },
  };

  // Compiled in the fresh realm (from its source text): every built-in it names is that
  // realm's. ``win`` is the page's window.
  function build(factory, win, windowNames, host) {
    const ES = new Set(['Object', 'Function', 'Array', 'Number', 'parseFloat', 'parseInt',
      'Infinity', 'NaN', 'undefined', 'Boolean', 'String', 'Symbol', 'Date', 'Promise', 'RegExp',
      'Error', 'AggregateError', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError',
      'TypeError', 'URIError', 'JSON', 'Math', 'Intl', 'ArrayBuffer', 'Atomics', 'Uint8Array',
      'Int8Array', 'Uint16Array', 'Int16Array', 'Uint32Array', 'Int32Array', 'Float32Array',
      'Float64Array', 'Uint8ClampedArray', 'BigUint64Array', 'BigInt64Array', 'DataView', 'Map',
      'BigInt', 'Set', 'WeakMap', 'WeakSet', 'Proxy', 'Reflect', 'FinalizationRegistry',
      'WeakRef', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape',
      'unescape', 'eval', 'isFinite', 'isNaN', 'SharedArrayBuffer', 'Iterator', 'arguments']);
    // ``text`` (a function expression) compiled here: every name it could take from the
    // global scope that is not a built-in of the language (the document, the window's
    // functions, the DOM's interfaces) is the page's, passed in as a parameter of that name
    // (a local of the same name still shadows it)
    const bind = (text) => {
      const names = [...new Set(text.match(/(?<![\w$.])[A-Za-z_$][\w$]*/g))]
        .filter((n) => !ES.has(n) && n in win);
      const values = names.map((n) => {
        if (n in windowNames) return windowNames[n];
        try { return win[n]; } catch (e) { return undefined; }
      });
      return new Function(...names, `return ${text};`)(...values);
    };
    const made = bind(Function.prototype.toString.call(factory))(host);
    // arguments from the page's realm (Playwright builds them there) copied into this one:
    // arrays and plain objects; elements and other platform objects stay as they are
    const adopt = (x, depth) => {
      if (x === null || typeof x !== 'object' || x instanceof Object || depth > 64) return x;
      if (Array.isArray(x)) {
        const out = [];
        for (let i = 0; i < x.length; i++) out.push(adopt(x[i], depth + 1));
        return out;
      }
      const proto = Object.getPrototypeOf(x);
      if (proto !== null && Object.getPrototypeOf(proto) !== null) return x;
      const out = {};
      for (const k of Object.keys(x)) out[k] = adopt(x[k], depth + 1);
      return out;
    };
    // answers copied into the page's realm, as arguments are into this one: an array of this
    // realm is no ``instanceof Array`` of the page's (ECMAScript's ``Array.isArray`` answers
    // for any realm, ``instanceof`` for its own), and a page that replaced the first by the
    // second (buildbot-www 3.x) had Playwright's serializer send such an array as an object
    const toPage = (x, depth) => {
      if (x === null || typeof x !== 'object' || !(x instanceof Object) || depth > 64) return x;
      if (typeof x.then === 'function') return x.then((v) => toPage(v, depth));
      let out;
      if (Array.isArray(x)) {
        out = host.array();
        for (let i = 0; i < x.length; i++) out[i] = toPage(x[i], depth + 1);
      } else if (Object.getPrototypeOf(x) === Object.prototype) {
        out = host.object();
        for (const k of Object.keys(x)) out[k] = toPage(x[k], depth + 1);
      }
      return out === undefined ? x : out;
    };
    const api = {};
    for (const k of Object.keys(made)) {
      const f = made[k];
      api[k] = typeof f !== 'function' ? f
        : function (...args) { return toPage(f.apply(made, args.map((a) => adopt(a, 0))), 0); };
    }
    for (const k of Object.getOwnPropertyNames(made)) {
      if (!(k in api)) Object.defineProperty(api, k, { value: made[k] });
    }
    // the engine's short functions (a read of an element, of the page), compiled here too
    const compiled = new Map();
    const compile = (text) => {
      if (!compiled.has(text)) {
        const f = bind(text);
        compiled.set(text, function (...args) {
          return toPage(f.apply(undefined, args.map((a) => adopt(a, 0))), 0);
        });
      }
      return compiled.get(text);
    };
    Object.defineProperty(api, '__compile', { value: compile });
    return api;
  }

  function pristineCopy() {
    const parent = document.body || document.documentElement;
    if (!parent) return null;
    const frame = document.createElement('iframe');
    try {
      frame.name = '__pacts_realm';  // not a change of the page (watch.js, ``pageChanged``)
      frame.style.display = 'none';
      parent.appendChild(frame);
      const w = frame.contentWindow;
      const source = w.Reflect.apply(w.Function.prototype.toString, build, []);
      const compiled = w.Reflect.construct(w.Function, [`return ${source};`]);
      const builder = w.Reflect.apply(compiled, undefined, []);
      return builder(factory, window, windowNames, host);
    } catch (e) {
      return null;  // no fresh realm on this page: the first copy goes on
    } finally {
      if (frame.parentNode) frame.parentNode.removeChild(frame);
    }
  }

  // installed after the page replaced a built-in the code uses while it is built (healing's
  // installer, sent on a document's first heal), the copy in the page's realm cannot be had:
  // the fresh realm's then, from the first call. ``lazy`` (healing's installer): the copy is
  // built on the first call, not at install. A document that never heals then runs none of
  // the modules' code; the built-ins above are still read at the first moment.
  let main = null;
  let use = null;
  let built = false;
  const buildMain = () => {
    built = true;
    try { main = factory(host); } catch (e) { main = null; }
    use = main;
  };
  if (!lazy) buildMain();
  let tried = false;
  return {
    api() {
      if (!built) buildMain();
      if (!tried && (main === null || notNative() || changed())) {
        tried = true;
        use = pristineCopy() || main;
      }
      if (use === null) {
        throw new TypeError('the in-page code could not be built on this page: it replaced a '
          + 'JavaScript built-in, and no fresh realm could be had');
      }
      return use;
    },
    // which copy answers: 'page' (the page's realm) or 'fresh' (a fresh realm)
    realm() { return use === main ? 'page' : 'fresh'; },
    // whether the copy was built: at install, or (``lazy``) by a first call
    built() { return built; },
    // the function to call for one of the engine's short functions: ``own`` (compiled by the
    // caller in the page's realm) while the page's copy answers, else ``text`` (its source)
    // compiled in the fresh realm (once per text)
    fn(text, own) {
      const api = this.api();
      return api === main ? own : api.__compile(text);
    },
  };
})
