// pytest-pacts dashboard: writes go through the JSON API with the page's CSRF token;
// the live view polls its run. No framework, no build step.
"use strict";

function csrf() {
  const meta = document.querySelector('meta[name="pacts-csrf"]');
  return meta ? meta.content : "";
}

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-Pacts-CSRF": csrf() },
    body: JSON.stringify(body),
  });
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  return { ok: response.ok, status: response.status, data: data };
}

function text(el, value) { if (el) el.textContent = value; }

function problem(data, status) {
  if (!data) return "request failed (" + status + ")";
  const details = (data.details || []).join("; ");
  return data.message + (details ? ": " + details : "");
}

// -- proposal review ---------------------------------------------------------------------
function setUpReview(section) {
  const id = section.dataset.proposal;
  const result = section.querySelector(".result");
  const buttons = section.querySelectorAll("button");
  const dialog = document.querySelector("dialog.go");
  const done = (r) => {
    if (r.ok) {
      text(result, r.data.message);
      buttons.forEach((b) => { b.disabled = true; });
      setTimeout(() => window.location.reload(), 800);
    } else {
      text(result, problem(r.data, r.status));
    }
  };
  // who decides: remembered in this browser; the server says "dashboard" when empty
  const byField = section.querySelector("input.by");
  if (byField) byField.value = window.localStorage.getItem("pacts-reviewer") || "";
  const decision = (extra) => {
    const body = Object.assign({}, extra);
    const by = byField ? byField.value.trim() : "";
    if (by) {
      body.by = by;
      window.localStorage.setItem("pacts-reviewer", by);
    }
    return body;
  };
  const accept = async (confirm) => done(await post("/api/proposals/" + id + "/accept", decision(confirm ? { confirm: confirm } : {})));
  const acceptButton = section.querySelector("button.accept");
  if (acceptButton) {
    acceptButton.addEventListener("click", () => {
      if (section.dataset.major === "yes" && dialog) {
        dialog.querySelector(".go-text").value = "";
        dialog.showModal();
      } else {
        accept(null);
      }
    });
  }
  if (dialog) {
    dialog.querySelector(".go-yes").addEventListener("click", () => {
      const typed = dialog.querySelector(".go-text").value.trim().toUpperCase();
      dialog.close();
      if (typed === "GO") {
        accept("GO");
      } else {
        text(result, "NOT GO: type GO to accept a major proposal; it stays pending.");
      }
    });
    dialog.querySelector(".go-no").addEventListener("click", () => {
      dialog.close();
      text(result, "NOT GO: the proposal stays pending.");
    });
  }
  const rejectButton = section.querySelector("button.reject");
  if (rejectButton) {
    rejectButton.addEventListener("click", async () => {
      const reason = section.querySelector("input.reason").value.trim();
      done(await post("/api/proposals/" + id + "/reject", decision(reason ? { reason: reason } : {})));
    });
  }
}

// -- start a run -------------------------------------------------------------------------
function setUpStart(form) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const field = (name) => form.elements.namedItem(name).value.trim();
    const body = {
      paths: field("paths").split(/\r?\n/).map((p) => p.trim()).filter((p) => p),
      session: field("session") || null,
      base_url: field("base_url") || null,
      keyword: field("keyword") || null,
    };
    const r = await post("/api/run", body);
    if (r.ok) {
      window.location.assign(r.data.url);
    } else {
      text(form.querySelector(".result"), problem(r.data, r.status));
    }
  });
}

// -- live view ---------------------------------------------------------------------------
function cell(row, value, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  if (value instanceof Node) td.appendChild(value); else td.textContent = value;
  row.appendChild(td);
  return td;
}

function badge(b) {
  const span = document.createElement("span");
  span.className = "badge tone-" + b.tone;
  span.textContent = b.label;
  return span;
}

function setUpLive(section) {
  const id = section.dataset.launch;
  const state = document.querySelector('[data-testid="live-state"]');
  const meta = section.querySelector('[data-testid="live-meta"]');
  const body = section.querySelector('[data-testid="live-runs"] tbody');
  const output = section.querySelector('[data-testid="live-output"]');
  const steps = {};  // run id -> step list
  const final = {};  // run id -> true once its steps were read after it finished

  // Steps are recorded as each one finishes: a run in flight is asked again on every poll,
  // and once more after it finished (its last steps may have come with the verdict).
  async function stepsOf(run) {
    if (!final[run.id]) {
      const response = await fetch("/api/runs/" + run.id + "/steps", { credentials: "same-origin" });
      if (response.ok) {
        steps[run.id] = (await response.json()).steps;
        if (!run.in_flight) final[run.id] = true;
      }
    }
    return steps[run.id] || null;
  }

  async function draw(view) {
    state.className = "badge big tone-" + view.badge.tone;
    state.textContent = view.badge.label;
    text(meta, view.paths.join(" ") + (view.keyword ? " -k " + view.keyword : "") +
      " · session " + view.session + " · started " + view.started_at);
    const rows = [];
    for (const run of view.runs) {
      const row = document.createElement("tr");
      const link = document.createElement("a");
      link.href = run.url; link.textContent = "#" + run.id;
      cell(row, link);
      cell(row, run.req_id);
      cell(row, badge(run.badge));
      const list = await stepsOf(run);
      const ol = document.createElement("ol");
      ol.className = "steps";
      if (list && list.length) {
        for (const s of list) {
          const li = document.createElement("li");
          li.appendChild(badge(s.badge));
          li.appendChild(document.createTextNode(" " + s.action_label + (s.element ? " " + s.element : "")));
          ol.appendChild(li);
        }
      }
      if (run.in_flight) {
        const li = document.createElement("li");
        li.className = "muted";
        li.textContent = "running...";
        ol.appendChild(li);
      }
      cell(row, ol);
      rows.push(row);
    }
    body.replaceChildren(...rows);
    output.textContent = view.output.join("\n");
    return view.running;
  }

  async function poll() {
    let again = true;
    try {
      const response = await fetch("/api/launches/" + id, { credentials: "same-origin" });
      if (response.ok) again = await draw(await response.json());
    } catch (e) {
      again = true;
    }
    if (again) setTimeout(poll, 700);
  }
  poll();
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("section.review").forEach(setUpReview);
  document.querySelectorAll("form.start-run").forEach(setUpStart);
  document.querySelectorAll("section.live").forEach(setUpLive);
});
