/* Release v1: selectors, texts and row templates used by /assets/app.js. */
window.PACTS_UI = {
  release: "v1",
  text: {addToCart: "Add to cart", remove: "Remove"},
  classes: {add: "btn_primary", remove: "btn_secondary"},
  login: {
    form: "#login_form", username: "#user-name", password: "#password",
    error: "[data-test='error']", errorBox: ".error-message-container",
  },
  header: {
    menuButton: "#menu-button", menu: "#menu", menuClose: "#menu-close",
    logout: "#logout_sidebar_link", reset: "#reset_sidebar_link", badge: ".shopping_cart_badge",
  },
  inventory: {
    list: ".inventory_list", item: ".inventory_item", button: ".btn_inventory",
    sort: "#sort", image: ".inventory_item_img img",
  },
  cart: {list: ".cart_list", removeButton: ".cart_button", checkout: "#checkout", continueShopping: "#continue-shopping"},
  checkoutOne: {
    form: "#checkout_info_form", first: "#first-name", last: "#last-name", postal: "#postal-code",
    error: "[data-test='error']", errorBox: ".error-message-container", cancel: "#cancel",
  },
  checkoutTwo: {
    list: ".cart_list", subtotal: ".summary_subtotal_label", tax: ".summary_tax_label",
    total: ".summary_total_label", finish: "#finish", cancel: "#cancel",
  },
  complete: {backHome: "#back-to-products", orderNumber: "[data-test='order-number']"},
  renderLine(p, {removable}) {
    const e = this.escape;
    const remove = removable
      ? `<button type="button" class="btn btn_secondary btn_small cart_button" id="remove-${p.id}" data-test="remove-${p.id}">Remove</button>`
      : "";
    return `
      <div class="cart_item" data-test="inventory-item" data-product-id="${p.id}">
        <div class="cart_quantity" data-test="item-quantity">1</div>
        <div class="cart_item_label">
          <div class="inventory_item_name" data-test="inventory-item-name">${e(p.name)}</div>
          <div class="inventory_item_desc">${e(p.desc)}</div>
          <div class="inventory_item_price" data-test="inventory-item-price">${this.money(p.price)}</div>
        </div>
        <div class="item_pricebar">${remove}</div>
      </div>`;
  },
  widgets: {
    newsletterTemplate: `
      <style>
        :host { display: block; }
        form { display: grid; gap: 8px; }
        label { font-weight: 600; font-size: 14px; }
        input { height: 40px; padding: 0 12px; border: 1px solid #dfe3e8; border-radius: 8px; font: inherit; }
        button { height: 40px; border: 0; border-radius: 8px; background: #e2574c; color: #fff; font: inherit; font-weight: 600; cursor: pointer; }
        [role=status] { min-height: 1.4em; margin: 0; color: #2e7d4f; font-weight: 600; }
        [role=status].is-error { color: #c62828; }
      </style>
      <form class="newsletter" novalidate>
        <label for="nl-email">Email</label>
        <input id="nl-email" name="email" type="email" placeholder="you@example.com" autocomplete="email">
        <button type="submit" id="nl-subscribe">Subscribe</button>
        <p role="status" id="nl-status"></p>
      </form>`,
    contact: {
      form: "#contact-form", name: "#full-name", email: "#email-address",
      submit: "#contact-submit", status: "#contact-status",
    },
    panel: {
      toggle: "#show-panel", panel: "#slide-panel", confirm: "#panel-confirm", status: "#panel-status",
      showText: "Show panel", hideText: "Hide panel",
    },
    cookies: {
      banner: "#cookie-banner", accept: "#accept-cookies", download: "#download-report", status: "#report-status",
    },
    account: {items: "#account-menu [role=menuitem]", status: "#account-status"},
    shipping: {select: "#shipping", status: "#shipping-status"},
    todo: {boxes: "#todo-list input[type=checkbox]", status: "#todo-status"},
    terms: {box: "#agree-terms", status: "#terms-status"},
    results: {
      load: "#load-results", status: "#results-status", container: "#results",
      exportButton: "#export-results",
      template: `
        <ul class="results-list" id="results-list" aria-label="Results">
          <li>Result 1</li><li>Result 2</li><li>Result 3</li>
        </ul>
        <button type="button" class="btn btn_secondary" id="export-results">Export results</button>`,
    },
    drafts: {card: ".draft-card", title: "h3", delete: ".draft-delete", status: "#drafts-status"},
  },
  payment: {form: "#payment-form", card: "#card-number", status: "#payment-status"},
};
