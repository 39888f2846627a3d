/* Release v2: selectors, texts and row templates used by /assets/app.js.
 * Every difference from v1 is listed in the demo app README ("Drift v1 -> v2"). */
window.PACTS_UI = {
  release: "v2",
  text: {addToCart: "Add to Cart", remove: "Remove"},
  classes: {add: "btn--primary", remove: "btn--outline"},
  login: {
    form: "#auth-form", username: "#username-input", password: "#password-input",
    error: "[data-test='error']", errorBox: ".alert-slot",
  },
  header: {
    menuButton: "#nav-toggle", menu: "#side-nav", menuClose: "#nav-close",
    logout: "#nav-logout", reset: "#nav-reset", badge: ".cart-count",
  },
  inventory: {
    list: ".product-grid", item: ".product-card", button: ".product-card__add",
    sort: "#sort-select", image: ".product-card__media img",
  },
  cart: {list: ".line-list", removeButton: ".cart-line__remove", checkout: "#checkout-btn", continueShopping: "#back-to-shop"},
  checkoutOne: {
    form: "#shipping-form", first: "#firstName", last: "#lastName", postal: "#postalCode",
    error: "[data-test='error']", errorBox: ".alert-slot", cancel: "#cancel-btn",
  },
  checkoutTwo: {
    list: ".line-list", subtotal: ".summary__subtotal", tax: ".summary__tax",
    total: ".summary__total", finish: "#place-order", cancel: "#cancel-btn",
  },
  complete: {backHome: "#back-to-products", orderNumber: "[data-test='order-number']"},
  renderLine(p, {removable}) {
    const e = this.escape;
    const remove = removable
      ? `<div class="cart-line__actions"><button type="button" class="btn btn--outline btn_small cart-line__remove" data-test="remove-${p.id}">Remove</button></div>`
      : "";
    return `
      <div class="cart-line" data-test="inventory-item" data-product-id="${p.id}">
        <div class="cart-line__qty" data-test="item-quantity">1</div>
        <div class="cart-line__body">
          <h3 class="product-card__title" data-test="inventory-item-name">${e(p.name)}</h3>
          <p>${e(p.desc)}</p>
          <div class="cart-line__price" data-test="inventory-item-price">${this.money(p.price)}</div>
        </div>
        ${remove}
      </div>`;
  },
  widgets: {
    newsletterTemplate: `
      <style>
        :host { display: block; }
        .nl { display: grid; gap: 8px; }
        label { font-weight: 600; font-size: 14px; display: block; margin-bottom: 4px; }
        input { width: 100%; box-sizing: border-box; height: 40px; padding: 0 12px; border: 1px solid #dfe3e8; border-radius: 8px; font: inherit; }
        button { height: 40px; border: 0; border-radius: 8px; background: #e2574c; color: #fff; font: inherit; font-weight: 600; cursor: pointer; }
        [role=status] { min-height: 1.4em; margin: 0; color: #2e7d4f; font-weight: 600; }
        [role=status].is-error { color: #c62828; }
      </style>
      <form class="nl" novalidate>
        <div class="nl__field">
          <label for="newsletter-email">Email</label>
          <input id="newsletter-email" name="newsletterEmail" type="email" placeholder="you@example.com" autocomplete="email">
        </div>
        <div class="nl__actions"><button type="submit" style="width:100%">Subscribe</button></div>
        <p role="status"></p>
      </form>`,
    contact: {
      form: "#contact", name: "#name", email: "#email", submit: "#send-btn", status: "#contact-result",
    },
    panel: {
      toggle: "#show-panel", panel: "#drawer", confirm: "#drawer-confirm", status: "#drawer-result",
      showText: "Open panel", hideText: "Close panel",
    },
    cookies: {
      banner: "#consent", accept: "#consent-accept", download: "#report-download", status: "#report-result",
    },
    account: {items: "#account-dropdown [role=menuitem]", status: "#account-result"},
    shipping: {select: "#shipping-method", status: "#shipping-result"},
    todo: {boxes: "#tasks input[type=checkbox]", status: "#tasks-result"},
    terms: {box: "#terms", status: "#terms-result"},
    results: {
      load: "#fetch-results", status: "#results-result", container: "#results-output",
      exportButton: "#export-btn",
      template: `
        <ol class="results-list" aria-label="Results">
          <li>Result 1</li><li>Result 2</li><li>Result 3</li>
        </ol>
        <div class="row"><button type="button" class="btn btn--outline" id="export-btn">Export Results</button></div>`,
    },
    drafts: {card: ".draft", title: "h3", delete: "button.draft__delete", status: "#drafts-result"},
  },
  payment: {form: "#pay-form", card: "#cc-number", status: "#pay-result"},
};
