/* The sales chart of the widgets page (both releases).
 *
 * A chart drawn on a <canvas> from JSON the page fetches (/assets/data/sales.json): the month
 * names and figures are pixels, not elements, so no locator can find them. Beside it, a
 * refresh button that is only an image: no text, no alt, no aria-label, no title; only its
 * picture names it. Clicking it fetches the data again, redraws, and says "Chart refreshed"
 * in the section's status. Markup hooks: canvas[data-chart-src], [data-chart-refresh],
 * [data-chart-status] (the release's HTML decides ids and classes).
 */
(() => {
  "use strict";
  const canvas = document.querySelector("canvas[data-chart-src]");
  if (!canvas) return;
  const refresh = document.querySelector("[data-chart-refresh]");
  const status = document.querySelector("[data-chart-status]");

  function draw(data) {
    const ctx = canvas.getContext("2d");
    const w = canvas.width;
    const h = canvas.height;
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, w, h);
    ctx.fillStyle = "#132322";
    ctx.font = "bold 13px sans-serif";
    ctx.fillText(`${data.title} (${data.currency})`, 8, 16);
    const months = data.months;
    const max = Math.max(...months.map((m) => m.sales));
    const top = 30;
    const bottom = h - 22;
    const slot = (w - 16) / months.length;
    ctx.font = "11px sans-serif";
    months.forEach((m, i) => {
      const barH = Math.round(((bottom - top) * m.sales) / max);
      const x = 8 + i * slot + slot * 0.18;
      ctx.fillStyle = "#e2574c";
      ctx.fillRect(x, bottom - barH, slot * 0.64, barH);
      ctx.fillStyle = "#132322";
      ctx.fillText(m.month, x, h - 6);
    });
  }

  function load() {
    return fetch(canvas.dataset.chartSrc, {cache: "no-store"})
      .then((response) => response.json())
      .then((data) => {
        draw(data);
        canvas.dataset.total = String(data.total);
        return data;
      });
  }

  load();
  if (refresh) {
    refresh.addEventListener("click", () => {
      load().then(() => {
        if (status) status.textContent = "Chart refreshed";
      });
    });
  }
})();
