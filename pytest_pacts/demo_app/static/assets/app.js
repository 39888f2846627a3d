/* Swag Labs demo app: behaviour shared by every release.
 *
 * Each release ships its own markup and a small /ui.js that sets window.PACTS_UI: the CSS
 * selectors, texts and row templates of that release. This file holds the logic (session,
 * cart, validation, widgets) once, so a DOM drift between releases is a change to markup and
 * ui.js only. The page to run is chosen by <body data-page="...">.
 */
(function () {
  "use strict";

  const UI = window.PACTS_UI;
  const $ = (selector, root) => (root || document).querySelector(selector);
  const $$ = (selector, root) => Array.from((root || document).querySelectorAll(selector));

  const PRODUCTS = [
    {id: "sauce-labs-backpack", name: "Sauce Labs Backpack", price: 29.99, img: "backpack",
     desc: "A roomy everyday pack with a padded laptop sleeve and a water-resistant shell, tough enough for the daily commute."},
    {id: "sauce-labs-bike-light", name: "Sauce Labs Bike Light", price: 9.99, img: "bike-light",
     desc: "A rechargeable front light with three modes and a clip that fits any handlebar. Battery included."},
    {id: "sauce-labs-bolt-t-shirt", name: "Sauce Labs Bolt T-Shirt", price: 15.99, img: "bolt-t-shirt",
     desc: "Soft cotton tee with the bolt logo on the chest. Pre-shrunk, machine washable, and made to last."},
    {id: "sauce-labs-fleece-jacket", name: "Sauce Labs Fleece Jacket", price: 49.99, img: "fleece-jacket",
     desc: "A midweight quarter-zip fleece that keeps you warm in the office and on the trail."},
    {id: "sauce-labs-onesie", name: "Sauce Labs Onesie", price: 7.99, img: "onesie",
     desc: "Snap-button onesie for the youngest testers on your team. Two-layer cotton, reinforced seams."},
    {id: "test-allthethings-t-shirt-red", name: "Test.allTheThings() T-Shirt (Red)", price: 15.99, img: "red-t-shirt",
     desc: "For the tester who checks every edge case. Classic fit, bold red, and a call to arms on the front."},
  ];
  const byId = Object.fromEntries(PRODUCTS.map((p) => [p.id, p]));

  const KEY = {session: "pacts.session", cart: "pacts.cart", checkout: "pacts.checkout", cookies: "pacts.cookies",
    pendingOrder: "pacts.pendingOrder", lastOrder: "pacts.lastOrder"};
  const PROTECTED = ["inventory", "cart", "checkout-one", "checkout-two", "complete"];

  const money = (n) => "$" + n.toFixed(2);
  const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  UI.escape = escapeHtml;
  UI.money = money;

  // -- state -------------------------------------------------------------------------------

  function currentUser() {
    return localStorage.getItem(KEY.session) || sessionStorage.getItem(KEY.session);
  }
  function startSession(user) {
    localStorage.setItem(KEY.session, user);
    sessionStorage.setItem(KEY.session, user);
  }
  function endSession() {
    localStorage.removeItem(KEY.session);
    sessionStorage.removeItem(KEY.session);
  }
  function cart() {
    try {
      const ids = JSON.parse(localStorage.getItem(KEY.cart) || "[]");
      return Array.isArray(ids) ? ids.filter((id) => byId[id]) : [];
    } catch (e) {
      return [];
    }
  }
  function saveCart(ids) {
    localStorage.setItem(KEY.cart, JSON.stringify(ids));
    updateBadge();
  }
  function toggleInCart(id) {
    const ids = cart();
    const at = ids.indexOf(id);
    if (at >= 0) ids.splice(at, 1); else ids.push(id);
    saveCart(ids);
    return at < 0;
  }

  // -- header: cart badge and burger menu --------------------------------------------------

  function updateBadge() {
    const badge = $(UI.header.badge);
    if (!badge) return;
    const count = cart().length;
    badge.textContent = count ? String(count) : "";
    badge.hidden = count === 0;
  }

  function initHeader() {
    updateBadge();
    const button = $(UI.header.menuButton);
    const menu = $(UI.header.menu);
    if (!button || !menu) return;
    const setOpen = (open) => {
      menu.classList.toggle("is-open", open);
      menu.setAttribute("aria-hidden", String(!open));
      menu.inert = !open;
      button.setAttribute("aria-expanded", String(open));
    };
    setOpen(false);
    button.addEventListener("click", () => setOpen(true));
    const close = $(UI.header.menuClose);
    if (close) close.addEventListener("click", () => setOpen(false));
    document.addEventListener("keydown", (e) => { if (e.key === "Escape") setOpen(false); });
    const logout = $(UI.header.logout);
    if (logout) logout.addEventListener("click", (e) => {
      e.preventDefault();
      endSession();
      const leave = () => { location.href = "/"; };
      fetch("/api/logout", {method: "POST", credentials: "same-origin"}).then(leave, leave);
    });
    const reset = $(UI.header.reset);
    if (reset) reset.addEventListener("click", (e) => {
      e.preventDefault();
      saveCart([]);
      localStorage.removeItem(KEY.checkout);
      syncInventoryButtons();
      setOpen(false);
    });
  }

  // -- login -------------------------------------------------------------------------------

  function showError(selectors, message) {
    const box = $(selectors.errorBox);
    const error = $(selectors.error);
    error.textContent = message;
    if (box) box.classList.toggle("has-error", Boolean(message));
    error.hidden = !message;
    for (const field of [selectors.username, selectors.password, selectors.first, selectors.last, selectors.postal]) {
      const input = field && $(field);
      if (input) input.classList.toggle("input_error", Boolean(message) && !input.value);
    }
  }

  function initLogin() {
    const s = UI.login;
    const form = $(s.form);
    const params = new URLSearchParams(location.search);
    const from = params.get("from");
    if (from && params.get("expired")) {
      showError(s, "Epic sadface: Your session has expired. Please log in again.");
    } else if (from) {
      showError(s, `Epic sadface: You can only access '${from}' when you are logged in.`);
    }
    let busy = false;
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (busy) return;
      const user = $(s.username).value.trim();
      const password = $(s.password).value;
      // the server checks the credentials and sets the session cookie (HttpOnly)
      busy = true;
      let message = "";
      try {
        const answer = await fetch("/api/login", {
          method: "POST",
          headers: {"Content-Type": "application/json"},
          body: JSON.stringify({user, password}),
          credentials: "same-origin",
        });
        if (!answer.ok) message = (await answer.json()).error || "Epic sadface: Login failed";
      } catch (e) {
        message = "Epic sadface: The server cannot be reached. Try again.";
      } finally {
        busy = false;
      }
      showError(s, message);
      if (message) return;
      startSession(user);
      const go = () => { location.href = "/inventory.html"; };
      // performance_glitch_user: the back end is slow to answer (a realistic slow login).
      if (user === "performance_glitch_user") setTimeout(go, 1500); else go();
    });
  }

  // -- inventory ---------------------------------------------------------------------------

  function syncInventoryButtons() {
    const ids = cart();
    for (const card of $$(UI.inventory.item)) {
      const id = card.dataset.productId;
      const button = $(UI.inventory.button, card);
      if (!button) continue;
      const inCart = ids.includes(id);
      button.textContent = inCart ? UI.text.remove : UI.text.addToCart;
      button.classList.toggle(UI.classes.add, !inCart);
      button.classList.toggle(UI.classes.remove, inCart);
      if (button.dataset.test) button.dataset.test = (inCart ? "remove-" : "add-to-cart-") + id;
      if (button.id) button.id = (inCart ? "remove-" : "add-to-cart-") + id;
    }
  }

  function sortInventory(order) {
    const list = $(UI.inventory.list);
    const cards = $$(UI.inventory.item, list);
    const product = (card) => byId[card.dataset.productId];
    const compare = {
      az: (a, b) => product(a).name.localeCompare(product(b).name),
      za: (a, b) => product(b).name.localeCompare(product(a).name),
      lohi: (a, b) => product(a).price - product(b).price || product(a).name.localeCompare(product(b).name),
      hilo: (a, b) => product(b).price - product(a).price || product(a).name.localeCompare(product(b).name),
    }[order];
    if (!compare) return;
    cards.sort(compare).forEach((card) => list.appendChild(card));
  }

  function initInventory() {
    const user = currentUser();
    syncInventoryButtons();
    for (const card of $$(UI.inventory.item)) {
      const button = $(UI.inventory.button, card);
      button.addEventListener("click", () => {
        toggleInCart(card.dataset.productId);
        syncInventoryButtons();
      });
      // problem_user sees the same picture on every card (a known, visible app bug).
      if (user === "problem_user") {
        const img = $(UI.inventory.image, card);
        if (img) img.src = "/assets/img/broken.svg";
      }
    }
    const sort = $(UI.inventory.sort);
    sort.addEventListener("change", () => {
      // problem_user: sorting silently does nothing (an app bug, not a test failure).
      if (user !== "problem_user") sortInventory(sort.value);
    });
  }

  // -- cart and checkout -------------------------------------------------------------------

  function renderLines(listSelector, removable) {
    const list = $(listSelector);
    $$(".js-line", list).forEach((el) => el.remove());
    for (const id of cart()) {
      const holder = document.createElement("template");
      holder.innerHTML = UI.renderLine(byId[id], {removable}).trim();
      const line = holder.content.firstElementChild;
      line.classList.add("js-line");
      list.appendChild(line);
      const remove = removable && $(UI.cart.removeButton, line);
      if (remove) remove.addEventListener("click", () => {
        toggleInCart(id);
        line.remove();
        updateEmpty(list);
      });
    }
    updateEmpty(list);
  }
  function updateEmpty(list) {
    const empty = $(".js-empty", list.parentElement);
    if (empty) empty.hidden = cart().length > 0;
  }

  function initCart() {
    renderLines(UI.cart.list, true);
    $(UI.cart.continueShopping).addEventListener("click", () => { location.href = "/inventory.html"; });
    $(UI.cart.checkout).addEventListener("click", () => { location.href = "/checkout-step-one.html"; });
  }

  function initCheckoutOne() {
    const s = UI.checkoutOne;
    const form = $(s.form);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      let message = "";
      if (!$(s.first).value.trim()) message = "Error: First Name is required";
      else if (!$(s.last).value.trim()) message = "Error: Last Name is required";
      else if (!$(s.postal).value.trim()) message = "Error: Postal Code is required";
      showError(s, message);
      if (message) return;
      localStorage.setItem(KEY.checkout, JSON.stringify({
        first: $(s.first).value.trim(), last: $(s.last).value.trim(), postal: $(s.postal).value.trim(),
      }));
      location.href = "/checkout-step-two.html";
    });
    $(s.cancel).addEventListener("click", () => { location.href = "/cart.html"; });
  }

  function initCheckoutTwo() {
    const s = UI.checkoutTwo;
    renderLines(s.list, false);
    const subtotal = cart().reduce((sum, id) => sum + byId[id].price, 0);
    const tax = Math.round(subtotal * 8) / 100;
    $(s.subtotal).textContent = "Item total: " + money(subtotal);
    $(s.tax).textContent = "Tax: " + money(tax);
    $(s.total).textContent = "Total: " + money(subtotal + tax);
    $(s.cancel).addEventListener("click", () => { location.href = "/inventory.html"; });
    $(s.finish).addEventListener("click", () => {
      // the complete page places the order (POST /api/order) and shows its number
      sessionStorage.setItem(KEY.pendingOrder, JSON.stringify({items: cart(), total: (subtotal + tax).toFixed(2)}));
      saveCart([]);
      localStorage.removeItem(KEY.checkout);
      location.href = "/checkout-complete.html";
    });
  }

  function initComplete() {
    $(UI.complete.backHome).addEventListener("click", () => { location.href = "/inventory.html"; });
    // The order number comes from the server's JSON answer: POST /api/order places the order
    // checkout-step-two left pending; a reload reads the last order back (GET /api/order?id=).
    const shown = $(UI.complete.orderNumber);
    const pending = sessionStorage.getItem(KEY.pendingOrder);
    const last = sessionStorage.getItem(KEY.lastOrder);
    let answer;
    if (pending) {
      sessionStorage.removeItem(KEY.pendingOrder);
      answer = fetch("/api/order", {method: "POST", headers: {"Content-Type": "application/json"}, body: pending});
    } else if (last) {
      answer = fetch("/api/order?id=" + encodeURIComponent(last));
    } else {
      return;
    }
    answer.then((res) => res.json()).then((data) => {
      const id = data && data.order && data.order.id;
      if (!id) return;
      sessionStorage.setItem(KEY.lastOrder, id);
      shown.textContent = id;
      shown.setAttribute("data-order-id", id);
    }).catch(() => { shown.textContent = "unavailable"; });
  }

  // -- widgets (the traps) -----------------------------------------------------------------

  const setStatus = (selector, text) => { $(selector).textContent = text; };
  const looksLikeEmail = (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim());

  class PactsNewsletter extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      const root = this.attachShadow({mode: "open"});
      root.innerHTML = UI.widgets.newsletterTemplate;
      const form = root.querySelector("form");
      const input = root.querySelector("input");
      const status = root.querySelector("[role=status]");
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        status.textContent = looksLikeEmail(input.value) ? "Subscribed!" : "Please enter a valid email address";
        status.classList.toggle("is-error", !looksLikeEmail(input.value));
      });
    }
  }

  function initWidgets() {
    const w = UI.widgets;
    if (!customElements.get("pacts-newsletter")) customElements.define("pacts-newsletter", PactsNewsletter);

    // (c) a button disabled until the form is valid
    const name = $(w.contact.name);
    const email = $(w.contact.email);
    const submit = $(w.contact.submit);
    const validate = () => { submit.disabled = !(name.value.trim().length > 0 && looksLikeEmail(email.value)); };
    name.addEventListener("input", validate);
    email.addEventListener("input", validate);
    validate();
    $(w.contact.form).addEventListener("submit", (event) => {
      event.preventDefault();
      if (!submit.disabled) setStatus(w.contact.status, "Form submitted");
    });

    // (d) an animated sliding panel
    const panelButton = $(w.panel.toggle);
    const panel = $(w.panel.panel);
    panelButton.addEventListener("click", () => {
      const open = !panel.classList.contains("is-open");
      panel.classList.toggle("is-open", open);
      panel.setAttribute("aria-hidden", String(!open));
      panelButton.setAttribute("aria-expanded", String(open));
      panelButton.textContent = open ? w.panel.hideText : w.panel.showText;
    });
    $(w.panel.confirm).addEventListener("click", () => setStatus(w.panel.status, "Confirmed"));

    // (e) a cookie banner over the bottom of the page
    const banner = $(w.cookies.banner);
    if (localStorage.getItem(KEY.cookies) === "accepted") banner.hidden = true;
    $(w.cookies.accept).addEventListener("click", () => {
      localStorage.setItem(KEY.cookies, "accepted");
      banner.hidden = true;
    });
    $(w.cookies.download).addEventListener("click", () => setStatus(w.cookies.status, "Report downloaded"));

    // (f) a hover menu: the items exist only visually on hover/focus (CSS), clicks here
    for (const item of $$(w.account.items)) {
      item.addEventListener("click", () => setStatus(w.account.status, item.textContent.trim() + " opened"));
    }

    // (g) a select
    const shipping = $(w.shipping.select);
    const showShipping = () => setStatus(w.shipping.status, "Shipping method: " + shipping.options[shipping.selectedIndex].text);
    shipping.addEventListener("change", showShipping);
    showShipping();

    // (h) checkboxes: a to-do list (no label on the box) and a labelled terms box
    const todos = $$(w.todo.boxes);
    const countDone = () => {
      const done = todos.filter((box) => box.checked).length;
      setStatus(w.todo.status, `${done} of ${todos.length} done`);
      for (const box of todos) box.closest("li").classList.toggle("is-done", box.checked);
    };
    todos.forEach((box) => box.addEventListener("change", countDone));
    countDone();
    const agree = $(w.terms.box);
    const showTerms = () => setStatus(w.terms.status, agree.checked ? "Terms accepted" : "Terms not accepted");
    agree.addEventListener("change", showTerms);
    showTerms();

    // (i) content that arrives late
    const load = $(w.results.load);
    load.addEventListener("click", () => {
      load.disabled = true;
      setStatus(w.results.status, "Loading…");
      setTimeout(() => {
        const holder = document.createElement("template");
        holder.innerHTML = w.results.template.trim();
        $(w.results.container).appendChild(holder.content);
        setStatus(w.results.status, "3 results");
        $(w.results.exportButton).addEventListener("click", () => setStatus(w.results.status, "Results exported"));
      }, 800);
    });

    // (j) two buttons with the same name in two cards
    // The status names no draft, so "Draft B" is gone from the page once its card is.
    for (const card of $$(w.drafts.card)) {
      $(w.drafts.delete, card).addEventListener("click", () => {
        card.remove();
        const left = $$(w.drafts.card).length;
        setStatus(w.drafts.status, `Draft deleted (${left} left)`);
      });
    }
  }

  function initPayment() {
    const p = UI.payment;
    $(p.form).addEventListener("submit", (event) => {
      event.preventDefault();
      const digits = $(p.card).value.replace(/[\s-]/g, "");
      const ok = /^\d{12,19}$/.test(digits);
      setStatus(p.status, ok ? "Payment accepted" : "Card number is invalid");
      $(p.status).classList.toggle("is-error", !ok);
    });
  }

  // -- boot --------------------------------------------------------------------------------

  const PAGES = {
    login: initLogin,
    inventory: initInventory,
    cart: initCart,
    "checkout-one": initCheckoutOne,
    "checkout-two": initCheckoutTwo,
    complete: initComplete,
    widgets: initWidgets,
    payment: initPayment,
  };

  function boot() {
    const page = document.body.dataset.page;
    if (PROTECTED.includes(page) && !currentUser()) {
      location.replace("/index.html?from=" + encodeURIComponent(location.pathname));
      return;
    }
    try {
      initHeader();
      if (PAGES[page]) PAGES[page]();
    } finally {
      document.body.classList.add("is-ready");
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
