// Shoebox review in the browser: the queue, one record, keys. Plain JavaScript, nothing fetched from elsewhere.
"use strict";
const csrf = document.querySelector('meta[name="shoebox-csrf"]').content;
const state = { state: "review", folder: "", reason: "", items: [], index: -1, record: null, geometry: null, page: 1, zoom: 1 };

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
  state.folders = data.folders;
  state.categoriesByFolder = data.categories || {};
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
  state.geometry = data.geometry;
  state.categories = data.categories || [];
  state.editable = data.editable || [];
  state.today = data.today;
  state.page = firstEvidencePage(data.geometry);
  show(data.record);
}

function firstEvidencePage(g) {
  const pages = Object.values((g && g.boxes) || {}).map((b) => b.page);
  return pages.length ? Math.min(...pages) : 1;
}

// The page image, scaled to the panel's width × zoom, with a box over the line each field was read from.
function pageView(r) {
  const g = state.geometry || { pages: [], boxes: {} };
  const pageCount = Math.max(g.pages.length, 1);
  const img = el("img", { alt: `page ${state.page} of ${r.source}`, src: "/api/page?" + new URLSearchParams({ source: r.source, page: state.page }) });
  const sheet = el("div", { class: "sheet" }, img);
  const view = el("div", { class: "view", id: "view" }, sheet);
  img.addEventListener("load", () => placeBoxes(sheet, img, g));
  img.addEventListener("error", () => view.replaceChildren(el("p", { class: "empty" }, "No page image for this record.")));
  sheet.style.width = `${100 * state.zoom}%`;
  dragToPan(view);
  const tools = el("div", { class: "tools" },
    el("button", { type: "button", onclick: () => zoom(1.25) }, "+"), el("button", { type: "button", onclick: () => zoom(0.8) }, "−"),
    el("button", { type: "button", onclick: () => zoom(0) }, "fit"),
    pageCount > 1 ? el("span", {}, el("button", { type: "button", onclick: () => turn(-1) }, "‹"), ` page ${state.page} of ${pageCount} `,
      el("button", { type: "button", onclick: () => turn(1) }, "›")) : null);
  return el("div", { class: "page" }, tools, view);
}

function placeBoxes(sheet, img, g) {
  for (const b of sheet.querySelectorAll(".box")) b.remove();
  const page = g.pages.find((p) => p.page === state.page);
  if (!page || !img.naturalWidth) return;
  const scale = img.clientWidth / page.width;
  // Fields read from one line (a total and its currency) share one box and one label.
  const lines = new Map();
  for (const [field, b] of Object.entries(g.boxes)) {
    if (b.page !== state.page) continue;
    const key = [b.left, b.top, b.right, b.bottom].join(",");
    if (lines.has(key)) lines.get(key).fields.push(field); else lines.set(key, { b, fields: [field] });
  }
  // Each line item's lines, labelled with its number (the row of the items table lights it).
  ((state.record || {}).items || []).forEach((item, k) => {
    if (item.box && item.page === state.page) lines.set(`item-${k + 1}`, { b: item.box, fields: [`item-${k + 1}`], item: true });
  });
  for (const { b, fields, item } of lines.values()) {
    const box = el("div", { class: item ? "box item" : "box", "data-fields": fields.join(" "), title: fields.join(", ") }, el("span", {}, fields.join(", ")));
    Object.assign(box.style, { left: `${b.left * scale - 3}px`, top: `${b.top * scale - 3}px`,
      width: `${(b.right - b.left) * scale + 6}px`, height: `${(b.bottom - b.top) * scale + 6}px` });
    sheet.append(box);
  }
}

// The record's line items beside the scan: what proves them, and per item its kind, description, quantity × unit
// price, amount and tax code. Clicking a row opens its amount and description to correct (Enter saves, Escape leaves).
const itemsChecks = { subtotal: "proven: they sum to the subtotal", total: "proven: they sum to the total",
  "total-less-charges": "proven: they sum to the total less tax and charges", "line-total": "proven: the e-invoice's line total",
  unproven: "unproven: nothing on the page confirms their sum", person: "set by a person" };
function itemList(r) {
  const items = r.items || [];
  if (!items.length) return null;
  const rows = items.map((i, k) => {
    const row = el("tr", { "data-item": String(k + 1) }, el("td", {}, String(k + 1)), el("td", {}, i.kind === "item" ? "" : i.kind),
      el("td", { class: "description" }, i.description), el("td", {}, i.quantity && i.unitPrice ? `${i.quantity} × ${i.unitPrice}` : ""),
      el("td", { class: "amount" }, i.amount), el("td", {}, [i.taxCode, i.taxRate ? i.taxRate + "%" : null].filter(Boolean).join(" ")));
    row.addEventListener("mouseenter", () => { for (const b of document.querySelectorAll(`.box[data-fields~="item-${k + 1}"]`)) b.classList.add("lit"); });
    row.addEventListener("mouseleave", () => { for (const b of document.querySelectorAll(".box.lit")) b.classList.remove("lit"); });
    row.addEventListener("click", () => editItem(row, i, k + 1));
    return row;
  });
  return el("div", { class: "items" }, el("h3", {}, `Items (${itemsChecks[r.itemsCheck] || r.itemsCheck || ""})`),
    el("table", {}, el("tr", {}, ...["#", "kind", "description", "qty × price", "amount", "tax"].map((h) => el("th", {}, h))), ...rows));
}

function editItem(row, item, number) {
  if (row.querySelector("form")) return;
  const description = el("input", { name: "description", type: "text", value: item.description, autocomplete: "off" });
  const amount = el("input", { name: "amount", type: "text", value: item.amount, size: "8", autocomplete: "off" });
  const form = el("form", { class: "item-edit" }, description, " ", amount, " ", el("button", { type: "submit" }, "save"));
  form.addEventListener("keydown", (ev) => { if (ev.key === "Escape") { ev.preventDefault(); show(state.record); } });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const source = state.record.source;
    try {
      if (description.value !== item.description) await post("/api/decide", { source, action: "edit", field: "item", value: `${number} description=${description.value}` });
      if (amount.value !== item.amount) await post("/api/decide", { source, action: "edit", field: "item", value: `${number} amount=${amount.value}` });
      say(`item ${number}: ${source}`);
      await loadQueue(source);
    } catch (e) { say(e.message, true); }
  });
  const cell = el("td", { colspan: "6" }, form);
  row.replaceChildren(cell);
  description.focus();
}

function zoom(factor) {
  state.zoom = factor === 0 ? 1 : Math.min(6, Math.max(0.25, state.zoom * factor));
  if (state.record) show(state.record);
}

function turn(step) {
  const count = Math.max(((state.geometry || {}).pages || []).length, 1);
  state.page = Math.min(count, Math.max(1, state.page + step));
  if (state.record) show(state.record);
}

function dragToPan(view) {
  let start = null;
  view.addEventListener("mousedown", (ev) => { start = { x: ev.clientX, y: ev.clientY, left: view.scrollLeft, top: view.scrollTop }; ev.preventDefault(); });
  window.addEventListener("mouseup", () => { start = null; });
  view.addEventListener("mousemove", (ev) => {
    if (!start) return;
    view.scrollLeft = start.left - (ev.clientX - start.x);
    view.scrollTop = start.top - (ev.clientY - start.y);
  });
}

function alternatesOf(r) {
  const out = [];
  for (const [field, list] of Object.entries(r.alternates || {})) for (const a of list) out.push({ field, value: a.value, source: a.source });
  return out.slice(0, 9);
}

function show(r) {
  const taxText = (r.tax || []).map((t) => `${t.rate}=${t.amount}`).join("; ");
  const shown = (f) => (f === "tax" ? taxText || null : f in contractTerms ? contractTerms[f](r) : r[f]);
  const rows = ["merchant", "date", "total", "currency", "tax", "referenceNumber", "paymentMethod", "category", "note",
    ...(asksReceivedOn(r) ? ["receivedOn"] : []), ...(asksTerms(r) ? ["endOfTerm", "noticePeriod"] : [])].map((f) => {
    const ev = (r.evidence || {})[f];
    const conf = (r.confidence || {})[f];
    return el("tr", {}, el("th", {}, f), el("td", { "data-field": f }, shown(f) === null || shown(f) === undefined ? "—" : String(shown(f)),
      conf !== undefined ? el("span", { class: "evidence" }, ` (${conf})`) : null,
      ev && ev.text ? el("div", { class: "evidence" }, `${ev.source}, page ${ev.page}, line ${ev.line}: “${ev.text}”`)
        : ev && ev.source === "agent" ? el("div", { class: "evidence" }, `entered by agent ${r.agent}: the page does not show it`) : null));
  });
  // What an agent said is named as the agent's, so the person knows whose word the alternate is.
  const alts = alternatesOf(r).map((a, k) => el("button", { type: "button", onclick: () => pick(k) },
    `${k + 1} ${a.field}: ${a.value}` + (a.source === "agent" ? ` (agent ${r.agent})` : "")));
  for (const row of rows) {
    const f = row.querySelector("td").dataset.field;
    row.addEventListener("mouseenter", () => { for (const b of document.querySelectorAll(`.box[data-fields~="${f}"]`)) b.classList.add("lit"); });
    row.addEventListener("mouseleave", () => { for (const b of document.querySelectorAll(".box.lit")) b.classList.remove("lit"); });
  }
  const fields = el("div", { class: "fields" },
    el("h2", {}, r.source),
    el("p", {}, `${r.status}`, r.documentKind ? ` · ${r.documentKind}` : "", " ", ...(r.reasons || []).map((x) => el("span", { class: "reason" }, x))),
    ...[...(r.eInvoiceProblems || []), ...(r.sidecarProblems || []).map((p) => `sidecar: ${p}`)].map((p) => el("p", { class: "problem" }, `! ${p}`)),
    // How it was paid, as the page says it (the server's words, `DocumentRecord.paidWithText`).
    r.paidWith ? el("p", { class: "paid-with" }, r.paidWith) : null,
    // A record an agent filed says who, and whether it says the person confirmed the values (checked against the page).
    r.enteredBy === "agent" ? el("p", { class: "entered-by" },
      `entered by agent ${r.agent}` + (r.confirmedByPerson ? ", confirmed by the person" : "")) : null,
    el("table", {}, ...rows),
    alts.length ? el("p", { class: "alternates" }, "Alternates: ", ...alts) : null,
    itemList(r), deadlineList(r), el("div", { id: "series" }));
  // A suspected duplicate: its original's first page beside it, to compare at a glance (d: a duplicate, n: not).
  // The same paper read otherwise and a reissued e-invoice name the other record too, each in its own words.
  const reasons = r.reasons || [];
  const other = reasons.includes("e-invoice-reissued") ? "the same seller and invoice number, another total"
    : reasons.includes("same-paper-reads-differently") ? "the same paper, read otherwise" : "the original";
  const pages = r.duplicateOf
    ? el("div", { class: "pair" }, pageView(r), el("div", { class: "page original" },
      el("div", { class: "tools" }, `${other}: ${r.duplicateOf}`),
      el("div", { class: "view" }, el("div", { class: "sheet" },
        el("img", { alt: `the original ${r.duplicateOf}`, src: "/api/page?" + new URLSearchParams({ source: r.duplicateOf, page: 1 }) })))))
    : pageView(r);
  document.getElementById("record").replaceChildren(pages, fields);
  showSeries(r);
}

// A fine's windows count from the day its letter arrived: the field is shown (and editable) for fines.
function asksReceivedOn(r) { return r.documentKind === "fine" || !!r.receivedOn; }

// A contract's end of term and notice period, as the record keeps them (deadlineFacts.contract), typed when unread.
function asksTerms(r) { return r.documentKind === "contract"; }
const contractTerms = {
  endOfTerm: (r) => ((r.deadlineFacts || {}).contract || {}).endOfTerm || null,
  noticePeriod: (r) => {
    const n = ((r.deadlineFacts || {}).contract || {}).notice;
    if (!n) return null;
    const [unit, count] = "days" in n ? ["day", n.days] : ["month", n.months];
    return `${count} ${unit}${count === 1 ? "" : "s"}`;
  }
};

// The recurring series the record is a charge of, and a way to mark it cancelled from a day: a later charge then
// goes to review as charged-after-cancellation, as with `shoebox recurring --cancel`.
async function showSeries(r) {
  let s;
  try { s = (await get("/api/series?" + new URLSearchParams({ source: r.source }))).series; } catch (e) { return; }
  const box = document.getElementById("series");
  if (!s || !box || !state.record || state.record.source !== r.source) return;
  const day = el("input", { type: "date", name: "cancelled-on", id: "cancelled-on", value: s.cancelledOn || state.today || "" });
  const form = el("form", { class: "cancel-series" }, el("label", { for: "cancelled-on" }, "cancelled on "), day, " ",
    el("button", { type: "submit" }, "mark the series cancelled"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const done = await post("/api/cancel-series", { merchant: s.merchant, on: day.value });
      const flagged = done.flagged.length ? `; ${done.flagged.length} later charge(s) sent to review` : "";
      say(`${done.merchant}: marked cancelled on ${done.on}${flagged}`);
      await loadQueue(r.source);
    } catch (e) { say(e.message, true); }
  });
  box.replaceChildren(el("h3", {}, "Recurring"),
    el("p", {}, `${s.merchant}: ${s.cadence}, ${s.amount} ${s.currency}, ${s.charges} charges, last ${s.lastCharge}, `
      + `next expected ${s.nextExpected}, ${s.status}${s.cancelledOn ? ` (cancelled on ${s.cancelledOn})` : ""}`), form);
}

// The record's deadlines, each with a button to mark it settled (paid, answered, returned): it leaves the calendar.
function deadlineList(r) {
  const list = r.deadlines || [];
  if (!list.length) return null;
  const settled = r.settledDeadlines || [];
  return el("div", { class: "deadlines" }, el("h3", {}, "Deadlines"), el("ul", {}, ...list.map((d) => el("li", { "data-kind": d.kind },
    `${d.day} ${d.kind}: ${d.explanation} `,
    settled.includes(d.kind) ? el("span", { class: "evidence" }, "settled")
      : el("button", { type: "button", onclick: () => decide("settle", null, d.kind) }, "settled")))));
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

// e: the record's fields as a form in place of the table. Enter saves what changed, field by field, each checked as
// in the terminal; a refused one stays open with its reason beside it. Escape leaves the form.
const hints = { date: "2026-03-14", receivedOn: "the day the letter arrived: 2026-03-02", endOfTerm: "the term's last day: 2027-12-31",
  noticePeriod: "3 months, 30 days", total: "12.50", currency: "EUR", tax: "19=2.65; 7=1.05, or none", paymentMethod: "card, cash, …",
  item: "3 amount=2.50 or 3 description=Milk" };

// Controls are looked up with namedItem: `form.elements.item` is the collection's own method, not the "item" field.
function valueOf(r, f) {
  if (f === "tax") return (r.tax || []).map((t) => `${t.rate}=${t.amount}`).join("; ");
  if (f in contractTerms) return contractTerms[f](r) || "";
  const v = r[f];
  return v === null || v === undefined ? "" : String(v);
}

// One field's control: the folder's categories as a list, the note as a text area, the rest as a line of text.
function control(f, value, categories) {
  let c;
  if (f === "category" && categories.length) {
    const known = categories.includes(value) || value === "" ? categories : [value, ...categories];
    c = el("select", { name: f }, el("option", { value: "" }, "—"), ...known.map((k) => el("option", { value: k }, k)));
  } else if (f === "note") {
    c = el("textarea", { name: f, rows: "2", maxlength: "1000", placeholder: "Ctrl+Enter saves" });
  } else {
    c = el("input", { name: f, type: "text", autocomplete: "off", spellcheck: "false", placeholder: hints[f] || "" });
    if (f === "paymentMethod") c.setAttribute("list", "payment-methods");
  }
  c.value = value;
  c.id = "field-" + f;
  return c;
}

function formKeys(form, leave) {
  form.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { ev.preventDefault(); leave(); }
    else if (ev.key === "Enter" && (ev.target.tagName === "SELECT" || (ev.target.tagName === "TEXTAREA" && (ev.ctrlKey || ev.metaKey)))) {
      ev.preventDefault();
      form.requestSubmit();
    }
  });
}

function refuse(form, field, text) {
  for (const p of form.querySelectorAll(".refusal")) p.textContent = "";
  const box = form.querySelector(`[data-refusal="${field}"]`);
  if (box) box.textContent = text;
  const c = form.elements.namedItem(field);
  if (c) { c.focus(); if (c.select) c.select(); }
  say(text, true);
}

function leaveForm() {
  if (state.record) show(state.record); else showEmpty();
  document.activeElement.blur();
}

function edit() {
  if (!state.record) return;
  let r = state.record;
  const fields = state.editable.filter((f) => (f !== "receivedOn" || asksReceivedOn(r)) && (!(f in contractTerms) || asksTerms(r)));
  const rows = fields.map((f) => el("tr", {}, el("th", {}, el("label", { for: "field-" + f }, f)),
    el("td", {}, control(f, valueOf(r, f), state.categories), el("div", { class: "refusal", "data-refusal": f }))));
  const form = el("form", { id: "edit-form", class: "edit" }, el("table", {}, ...rows),
    el("p", {}, el("button", { type: "submit" }, "save (Enter)"), " ", el("button", { type: "button", onclick: leaveForm }, "leave (Esc)")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    let changed = 0;
    for (const f of fields) {
      const value = form.elements.namedItem(f).value;
      if (value === valueOf(r, f)) continue;
      try {
        r = (await post("/api/decide", { source: r.source, action: "edit", field: f, value })).record;
        changed += 1;
        say(`edit ${f}: ${r.source}`);
      } catch (e) { refuse(form, f, e.message); return; }
    }
    if (changed === 0) say("nothing changed");
    await loadQueue(r.source);
  });
  formKeys(form, leaveForm);
  document.querySelector("#record .fields table").replaceWith(form);
  // The cursor starts on the first field a reason names (total-low-confidence: the total), else the merchant.
  const names = (f) => (f === "receivedOn" ? ["fine-received-on-"] : f === "endOfTerm" ? ["contract-terms-"] : [f.toLowerCase() + "-"]);
  const first = fields.find((f) => (r.reasons || []).some((x) => names(f).some((n) => x.startsWith(n)))) || fields[0];
  form.elements.namedItem(first).focus();
  if (form.elements.namedItem(first).select) form.elements.namedItem(first).select();
}

// x: an expense without a receipt, as a form; the category list follows the folder.
function enterByHand() {
  const folders = state.folders || [];
  const folder = el("select", { name: "folder", id: "field-folder" }, ...folders.map((f) => el("option", { value: f }, f || "(top level)")));
  folder.value = folders.includes(state.folder) ? state.folder : folders[0] || "";
  const categoryCell = el("td", {});
  const fillCategories = () => categoryCell.replaceChildren(control("category", "", (state.categoriesByFolder || {})[folder.value] || []),
    el("div", { class: "refusal", "data-refusal": "category" }));
  folder.addEventListener("change", fillCategories);
  fillCategories();
  const row = (f, label) => el("tr", {}, el("th", {}, el("label", { for: "field-" + f }, label)),
    el("td", {}, control(f, "", []), el("div", { class: "refusal", "data-refusal": f })));
  const form = el("form", { id: "add-form", class: "edit" }, el("h2", {}, "An expense without a receipt"),
    el("table", {}, el("tr", {}, el("th", {}, el("label", { for: "field-folder" }, "folder")), el("td", {}, folder)),
      row("date", "date"), row("merchant", "merchant"), row("total", "total (12.50 EUR)"),
      el("tr", {}, el("th", {}, el("label", { for: "field-category" }, "category")), categoryCell),
      row("paymentMethod", "payment method"), row("note", "note")),
    el("div", { class: "refusal", "data-refusal": "" }),
    el("p", {}, el("button", { type: "submit" }, "enter (Enter)"), " ", el("button", { type: "button", onclick: leaveForm }, "leave (Esc)")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const fields = {};
    for (const f of ["date", "merchant", "total", "category", "paymentMethod", "note"]) {
      const v = form.elements.namedItem(f).value;
      if (v.trim() !== "") fields[f] = v;
    }
    try {
      const r = await post("/api/add", { folder: folder.value, fields });
      say(`entered by hand: ${r.record.source}`);
      await loadQueue();
    } catch (e) {
      // The store's sentence names the field it refused ("… needs a total", "the date …").
      const named = ["total", "date", "merchant", "category", "note", "paymentMethod"].find((f) => e.message.includes(f));
      refuse(form, named || "", e.message);
    }
  });
  formKeys(form, leaveForm);
  document.getElementById("record").replaceChildren(form);
  form.elements.date.focus();
}

async function undo() {
  try {
    const r = await post("/api/undo", {});
    say(r.undone ? `undone: ${r.undone.action} on ${r.undone.source}` : "nothing to undo");
    await loadQueue(r.undone ? r.undone.source : null);
  } catch (e) { say(e.message, true); }
}

document.addEventListener("keydown", (ev) => {
  if (["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key;
  if (k === "j" && state.index + 1 < state.items.length) open(state.index + 1);
  else if (k === "k" && state.index > 0) open(state.index - 1);
  else if (k === "a") decide("accept");
  else if (k === "r") decide("reject");
  else if (k === "d") decide("duplicate");
  else if (k === "n") decide("not-duplicate");
  else if (k === "u") undo();
  else if (k === "e") edit();
  else if (k === "x") enterByHand();
  else if (k >= "1" && k <= "9") pick(Number(k) - 1);
  else if (k === "?") document.getElementById("help").showModal();
  else if (k === "+" || k === "=") zoom(1.25);
  else if (k === "-") zoom(0.8);
  else if (k === "0") zoom(0);
  else if (k === "]") turn(1);
  else if (k === "[") turn(-1);
  else return;
  ev.preventDefault();
});
document.getElementById("folder").addEventListener("change", (ev) => { state.folder = ev.target.value; loadQueue(); });
document.getElementById("reason").addEventListener("change", (ev) => { state.reason = ev.target.value; loadQueue(); });
document.getElementById("help-button").addEventListener("click", () => document.getElementById("help").showModal());
loadQueue().catch((e) => say(e.message, true));
