// Shoebox review in the browser: the queue, one record, keys. Plain JavaScript, nothing fetched from elsewhere.
"use strict";
const csrf = document.querySelector('meta[name="shoebox-csrf"]').content;
const state = { state: "review", folder: "", reason: "", items: [], index: -1, record: null };

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function say(text, error) {
  const m = document.getElementById("message");
  m.textContent = text;
  m.className = "shown" + (error ? " error" : "");
  clearTimeout(say.timer);
  say.timer = setTimeout(() => { m.className = ""; }, error ? 6000 : 2000);
}

async function get(path) {
  const r = await fetch(path, { credentials: "same-origin" });
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

async function post(path, object) {
  const r = await fetch(path, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-Shoebox-CSRF": csrf }, body: JSON.stringify(object)
  });
  const body = await r.json().catch(() => ({ error: r.statusText }));
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

async function loadQueue(keepSource) {
  const q = new URLSearchParams({ state: state.state, folder: state.folder, reason: state.reason });
  const data = await get("/api/queue?" + q);
  state.items = data.items;
  const counts = document.getElementById("counts");
  counts.replaceChildren(...Object.entries(data.counts).filter(([, n]) => n > 0 || data.state === "review").map(([s, n]) =>
    el("a", { href: "#", class: s === data.state ? "current" : "", onclick: (ev) => { ev.preventDefault(); state.state = s; loadQueue(); } }, `${s} ${n}`)));
  fill("folder", data.folders, state.folder);
  fill("reason", data.reasons, state.reason);
  const list = document.getElementById("items");
  list.replaceChildren(...state.items.map((it, i) => el("li", { "data-source": it.source, onclick: () => open(i) },
    `${it.source}`, el("span", { class: "reasons" }, it.reasons.join(", ")))));
  let i = keepSource ? state.items.findIndex((it) => it.source === keepSource) : -1;
  if (i < 0 && state.items.length > 0) i = Math.min(Math.max(state.index, 0), state.items.length - 1);
  if (i >= 0) await open(i); else { state.index = -1; state.record = null; showEmpty(); }
}

function fill(id, values, current) {
  const s = document.getElementById(id);
  s.replaceChildren(el("option", { value: "" }, "all"), ...values.map((v) => {
    const o = el("option", { value: v }, v || "(top level)");
    if (v === current) o.selected = true;
    return o;
  }));
}

function showEmpty() {
  document.getElementById("record").replaceChildren(el("p", { class: "empty" }, "Nothing in this list."));
}

async function open(i) {
  state.index = i;
  for (const li of document.querySelectorAll("#items li")) li.classList.toggle("current", li.dataset.source === state.items[i].source);
  const data = await get("/api/record?" + new URLSearchParams({ source: state.items[i].source }));
  state.record = data.record;
  show(data.record);
}

function alternatesOf(r) {
  const out = [];
  for (const [field, list] of Object.entries(r.alternates || {})) for (const a of list) out.push({ field, value: a.value });
  return out.slice(0, 9);
}

function show(r) {
  const rows = ["merchant", "date", "total", "currency", "referenceNumber", "paymentMethod"].map((f) => {
    const ev = (r.evidence || {})[f];
    const conf = (r.confidence || {})[f];
    return el("tr", {}, el("th", {}, f), el("td", { "data-field": f }, r[f] === null || r[f] === undefined ? "—" : String(r[f]),
      conf !== undefined ? el("span", { class: "evidence" }, ` (${conf})`) : null,
      ev && ev.text ? el("div", { class: "evidence" }, `${ev.source}, page ${ev.page}, line ${ev.line}: “${ev.text}”`) : null));
  });
  const alts = alternatesOf(r).map((a, k) => el("button", { type: "button", onclick: () => pick(k) }, `${k + 1} ${a.field}: ${a.value}`));
  document.getElementById("record").replaceChildren(
    el("h2", {}, r.source),
    el("p", {}, `${r.status}`, " ", ...(r.reasons || []).map((x) => el("span", { class: "reason" }, x))),
    el("table", {}, ...rows),
    alts.length ? el("p", { class: "alternates" }, "Alternates: ", ...alts) : null);
}

async function decide(action, field, value) {
  if (!state.record) return;
  const source = state.record.source;
  try {
    await post("/api/decide", { source, action, field, value });
    say(`${action}${field ? " " + field : ""}: ${source}`);
    await loadQueue(action === "edit" ? source : null);
  } catch (e) { say(e.message, true); }
}

function pick(k) {
  const a = alternatesOf(state.record || {})[k];
  if (a) decide("edit", a.field, a.value);
}

function edit() {
  if (!state.record) return;
  const field = prompt("Edit which field? merchant, date, total, currency, referenceNumber");
  if (!field) return;
  const value = prompt(`${field}:`, state.record[field] || "");
  if (value !== null) decide("edit", field.trim(), value);
}

async function undo() {
  try {
    const r = await post("/api/undo", {});
    say(r.undone ? `undone: ${r.undone.action} on ${r.undone.source}` : "nothing to undo");
    await loadQueue(r.undone ? r.undone.source : null);
  } catch (e) { say(e.message, true); }
}

document.addEventListener("keydown", (ev) => {
  if (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key;
  if (k === "j" && state.index + 1 < state.items.length) open(state.index + 1);
  else if (k === "k" && state.index > 0) open(state.index - 1);
  else if (k === "a") decide("accept");
  else if (k === "r") decide("reject");
  else if (k === "d") decide("duplicate");
  else if (k === "n") decide("not-duplicate");
  else if (k === "u") undo();
  else if (k === "e") edit();
  else if (k >= "1" && k <= "9") pick(Number(k) - 1);
  else if (k === "?") document.getElementById("help").showModal();
  else return;
  ev.preventDefault();
});
document.getElementById("folder").addEventListener("change", (ev) => { state.folder = ev.target.value; loadQueue(); });
document.getElementById("reason").addEventListener("change", (ev) => { state.reason = ev.target.value; loadQueue(); });
document.getElementById("help-button").addEventListener("click", () => document.getElementById("help").showModal());
loadQueue().catch((e) => say(e.message, true));
