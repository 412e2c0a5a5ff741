// The evaluation page: builds the option controls from /api/options (the
// command line's scoring options, with what each format and measure allows),
// posts the form to /api/score and draws its JSON.
"use strict";

// Set by a preset: their controls are disabled while one is chosen.
const PRESET_SETS = ["match", "exact_match", "keep_singletons", "zero_match_method", "metrics", "sync"];
// The same as another control (exact_match is match exact), or sent by the page itself.
const HIDDEN = ["exact_match", "per_doc"];
// Set, as the scorer sets them, by the split-antecedent options.
const SETS_SINGLETONS = ["keep_split_antecedents", "evaluate_discourse_deixis", "only_split_antecedent"];
const SETS_SPLIT = ["evaluate_discourse_deixis", "only_split_antecedent"];
const METRIC_NAMES = { muc: "MUC", bcub: "B-cubed", ceafe: "CEAF-e", ceafm: "CEAF-m", blanc: "BLANC",
  lea: "LEA", mor: "MOR", zero: "Zero", mention: "Mention", conll: "CoNLL" };

const $ = (id) => document.getElementById(id);
let spec = null;
let urls = [];
let detected = null;  // the key's format, as the server tells it

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child);
  return node;
}

function fieldOf(name) { return spec.fields.find((f) => f.name === name); }

function choiceBox(field, choices) {
  const group = el("div", { class: "choices" });
  for (const choice of choices) {
    const input = el("input", { type: "checkbox", name: field.name, value: choice, id: `opt-${field.name}-${choice}` });
    group.append(el("label", { "data-choice": choice }, input, " " + choice));
  }
  return group;
}

function control(field, choices) {
  const box = el("div", { class: "option", "data-field": field.name });
  box.title = `${field.flag}: ${field.help}`;
  const why = el("small", { class: "why" });
  if (field.kind === "flag") {
    const input = el("input", { type: "checkbox", name: field.name, value: "true", id: `opt-${field.name}` });
    box.append(el("label", {}, input, " " + field.label));
  } else if (field.kind === "choices") {
    box.classList.add("wide");
    const further = choices && choices.some((c) => spec.measures[c] && spec.measures[c].further);
    box.append(el("span", { text: field.label + (further ? "" : " (none ticked: the format's default set)") }));
    box.append(choiceBox(field, choices || field.choices));
  } else if (field.kind === "choice") {
    box.append(el("label", { for: `opt-${field.name}`, text: field.label }));
    const select = el("select", { name: field.name, id: `opt-${field.name}` });
    const fallback = field.name === "format" ? "told from the key" : "the format's default";
    select.append(el("option", { value: "", text: `(${fallback})` }));
    for (const choice of field.choices) select.append(el("option", { value: choice, text: choice }));
    box.append(select);
  } else {
    box.append(el("label", { for: `opt-${field.name}`, text: field.label }));
    // A count is off unless given; a number has a default.
    const placeholder = field.kind === "count" ? `off (true: ${field.default})` : `default: ${field.default}`;
    box.append(el("input", { type: "text", name: field.name, id: `opt-${field.name}`, placeholder,
      inputmode: "numeric" }));
  }
  box.append(el("small", { class: "flag", text: field.flag }), why);
  return box;
}

function buildForm() {
  const root = $("option-fields");
  const measures = spec.measures;
  const metrics = fieldOf("metrics");
  const further = metrics.choices.filter((c) => measures[c] && measures[c].further);
  for (const [section, title] of Object.entries(spec.sections)) {
    const fields = spec.fields.filter((f) => f.section === section && !HIDDEN.includes(f.name));
    const grid = el("div", { class: "grid" });
    for (const field of fields) {
      grid.append(field.name === "metrics" ? control(field, metrics.choices.filter((c) => !further.includes(c)))
        : control(field));
    }
    if (section === "measures" && further.length) {
      const box = control({ ...metrics, label: "Further measures" }, further);
      box.dataset.field = "metrics";
      grid.prepend(box);
    }
    if (section === "basic") {
      root.append(grid);
    } else {
      const details = el("details", { "data-section": section }, el("summary", { text: title }), grid);
      root.append(details);
    }
  }
  root.append(el("p", { class: "hint", id: "format-note" }));
  root.addEventListener("change", applyRules);
  root.addEventListener("input", applyRules);
}

function formatNow() {
  const forced = document.querySelector("[name=format]");
  return (forced && forced.value) || detected;
}

function valueOf(name) {
  const input = document.querySelector(`#option-fields [name=${name}]`);
  if (!input) return "";
  return input.type === "checkbox" ? input.checked : input.value.trim();
}

// Why each control (or choice) cannot be used now: from the format's profile,
// the registry of measures, the preset and the other settings.
function reasons() {
  const out = {};  // field -> reason, or "field:choice" -> reason
  const say = (key, why) => { if (!out[key]) out[key] = why; };
  const fmt = formatNow();
  if (fmt && spec.formats[fmt]) {
    const title = spec.formats[fmt].title;
    for (const [name, why] of Object.entries(spec.formats[fmt].refused)) {
      if (typeof why === "string") say(name, `${title} files: ${why}`);
      else for (const [choice, text] of Object.entries(why)) say(`${name}:${choice}`, `not for ${title} files: ${text}`);
    }
  }
  if (valueOf("shared_task")) for (const name of PRESET_SETS) say(name, "set by the CRAC preset");
  const responses = $("responses").files.length;
  const counted = (v) => v !== "" && !["0", "false", "off", "no"].includes(String(v).toLowerCase());
  const resampled = counted(valueOf("confidence")) || counted(valueOf("paired_bs")) || counted(valueOf("paired_ar"));
  const compared = responses > 1 || resampled;
  if (compared) {
    for (const [name, m] of Object.entries(spec.measures)) {
      if (!m.resampled) say(`metrics:${name}`, "not with several systems, intervals or tests (one number, not recall and precision)");
    }
    say("sync:all", "not with several systems, intervals or tests: give one synchronisation");
    say("errors", "analyses one response, without intervals or tests");
  }
  if (responses < 2) {
    say("paired_bs", "compares systems: choose two or more responses (the first is the baseline)");
    say("paired_ar", "compares systems: choose two or more responses (the first is the baseline)");
  }
  if (counted(valueOf("paired_bs"))) say("paired_ar", "one test at a time: the paired bootstrap is asked for");
  if (counted(valueOf("paired_ar"))) say("paired_bs", "one test at a time: approximate randomization is asked for");
  if (valueOf("form_check") === true) say("no_form_check", "the word-form check refuses differences");
  if (valueOf("no_form_check") === true) say("form_check", "the word-form check is skipped");
  if (valueOf("np_only") === true || valueOf("remove_nested_mentions") === true) say("errors", "analyses the mentions as read");
  if (valueOf("sync")) say("keep_split_antecedents", "not with synchronisation (it rebuilds entities of mentions)");
  return out;
}

// The choices refused, grouped by their reason: "a, b: why; c: why".
function grouped(pairs) {
  const byReason = new Map();
  for (const [choice, reason] of pairs) byReason.set(reason, [...(byReason.get(reason) || []), choice]);
  return [...byReason].map(([reason, choices]) => `${choices.join(", ")}: ${reason}`).join("; ");
}

function setDisabled(input, holder, why) {
  input.disabled = Boolean(why);
  holder.classList.toggle("disabled", Boolean(why));
  holder.title = why || holder.dataset.help || "";
}

function applyRules() {
  const why = reasons();
  // What the split-antecedent options set, the page sets too.
  const forced = {};
  for (const name of SETS_SINGLETONS) if (valueOf(name) === true) forced.keep_singletons = name;
  for (const name of SETS_SPLIT) if (valueOf(name) === true) forced.keep_split_antecedents = name;
  for (const box of document.querySelectorAll("#option-fields .option")) {
    const name = box.dataset.field;
    if (!box.dataset.help) box.dataset.help = box.title;
    const note = box.querySelector(".why");
    const own = why[name];
    if (box.querySelector(".choices")) {
      const notes = [];
      for (const label of box.querySelectorAll("label[data-choice]")) {
        const input = label.querySelector("input");
        const reason = own || why[`${name}:${label.dataset.choice}`];
        if (reason && input.checked && !own) input.checked = false;
        setDisabled(input, label, reason);
        if (reason && !own) notes.push([label.dataset.choice, reason]);
      }
      box.classList.toggle("disabled", Boolean(own));
      note.textContent = own || grouped(notes);
      continue;
    }
    const input = box.querySelector("input, select");
    if (input.tagName === "SELECT") {
      for (const option of input.options) {
        const reason = option.value && why[`${name}:${option.value}`];
        option.disabled = Boolean(reason);
        option.title = reason || "";
        option.textContent = option.value ? option.value + (reason ? " (not for these files)" : "") : option.textContent;
        if (reason && input.value === option.value) input.value = "";
      }
      const chosen = why[`${name}:${input.value}`];
      note.textContent = own || chosen || grouped([...input.options].filter((o) => o.disabled).map((o) => [o.value, o.title]));
    } else {
      note.textContent = own || "";
    }
    if (forced[name] && !own) {
      input.checked = true;
      input.dataset.forced = "true";
      setDisabled(input, box, `set by ${fieldOf(forced[name]).label.toLowerCase()}`);
      note.textContent = `set by ${fieldOf(forced[name]).label.toLowerCase()}`;
      continue;
    }
    delete input.dataset.forced;
    setDisabled(input, box, own);
    box.title = own || box.dataset.help;
  }
  const fmt = formatNow();
  const title = fmt && spec.formats[fmt] ? spec.formats[fmt].title : null;
  $("format-note").textContent = title ? `Options for ${title} files` +
    (valueOf("format") ? " (the format chosen)" : " (told from the key)") + "; those these files cannot take are greyed out with the reason."
    : "Choose the key to see the options its format takes.";
}

async function detectFormat() {
  const key = $("key").files[0];
  detected = null;
  if (key) {
    try {
      const answer = await fetch("/api/format", { method: "POST", body: key.slice(0, 8192) });
      detected = (await answer.json()).format;
    } catch (err) {
      detected = null;
    }
  }
  applyRules();
}

async function init() {
  const response = await fetch("/api/options");
  spec = await response.json();
  $("where").textContent = spec.listening.note;
  if (spec.max_responses !== 1) {
    $("responses").multiple = true;
    $("responses-plural").textContent = "s (the first is the baseline)";
  }
  buildForm();
  applyRules();
  $("key").addEventListener("change", detectFormat);
  $("responses").addEventListener("change", applyRules);
  $("score-form").addEventListener("submit", submit);
  $("all-columns").addEventListener("change", () => lastDocs && drawDocs(lastDocs));
}

function clearErrors() {
  for (const id of ["key", "responses"]) {
    $(`${id}-error`).textContent = "";
    $(`${id}-box`).classList.remove("bad");
  }
  $("form-error").textContent = "";
}

function showError(body, status) {
  const message = body && body.error ? body.error : `the server answered ${status}`;
  const files = (body && body.files) || [];
  if (!files.length) { $("form-error").textContent = message; return; }
  for (const file of files) {
    const id = file.field === "key" ? "key" : "responses";
    const box = $(`${id}-error`);
    const many = id === "responses" && $("responses").files.length > 1;
    box.textContent = (box.textContent ? box.textContent + "\n" : "") + (many ? `${file.name}: ` : "") + message;
    $(`${id}-box`).classList.add("bad");
  }
}

async function submit(event) {
  event.preventDefault();
  clearErrors();
  const form = new FormData();
  const key = $("key").files[0];
  const responses = [...$("responses").files];
  if (!key) { showError({ error: "choose the key file", files: [{ field: "key" }] }); return; }
  if (!responses.length) { showError({ error: "choose a response file", files: [{ field: "responses" }] }); return; }
  form.append("key", key, key.name);
  for (const file of responses) form.append("responses", file, file.name);
  for (const input of $("option-fields").querySelectorAll("input, select")) {
    if (input.disabled && !input.dataset.forced) continue;
    if (input.type === "checkbox") { if (input.checked) form.append(input.name, input.value); }
    else if (input.value.trim() !== "") form.append(input.name, input.value.trim());
  }
  form.append("per_doc", "true");
  $("score").disabled = true;
  $("status").textContent = "Scoring…";
  try {
    const response = await fetch("/api/score", { method: "POST", body: form });
    const text = await response.text();
    let body = null;
    try { body = JSON.parse(text); } catch (e) { body = null; }
    if (!response.ok || body === null) {
      $("results").hidden = true;
      showError(body, response.status);
      $("status").textContent = "";
      return;
    }
    draw(body, text, key.name, responses.map((f) => f.name));
    $("status").textContent = "Done.";
  } catch (err) {
    $("form-error").textContent = `no answer from the server: ${err.message}`;
    $("status").textContent = "";
  } finally {
    $("score").disabled = false;
  }
}

// ---- reading the JSON -------------------------------------------------------

function systemsOf(data, names) {
  if (Array.isArray(data.systems)) {
    return data.systems.map((s, i) => ({ ...s, name: s.name || names[i] || `system ${i + 1}` }));
  }
  return [{ ...data, name: (data.settings && data.settings.response_file) || names[0] }];
}

function pct(x) { return typeof x === "number" ? (100 * x).toFixed(2) : "n/a"; }

function intervalText(iv) {
  return Array.isArray(iv) && iv.length === 2 ? ` [${pct(iv[0])}, ${pct(iv[1])}]` : "";
}

function metricNames(systems) {
  const names = [];
  for (const s of systems) for (const name of Object.keys(s.metrics || {})) if (!names.includes(name)) names.push(name);
  return names;
}

function cell(value, interval, cls) {
  const td = el("td", cls ? { class: cls } : {}, value);
  if (interval) td.append(el("span", { class: "interval", text: interval }));
  return td;
}

function drawScores(systems) {
  const table = $("score-table");
  table.replaceChildren();
  const head1 = el("tr", {}, el("th", { class: "label", rowspan: "2", text: "metric" }));
  const head2 = el("tr");
  for (const s of systems) {
    head1.append(el("th", { colspan: "3", text: s.name }));
    for (const h of ["Recall", "Precision", "F1"]) head2.append(el("th", { text: h }));
  }
  table.append(el("thead", {}, head1, head2));
  const body = el("tbody");
  for (const name of metricNames(systems)) {
    const row = el("tr", { class: name === "conll" ? "primary" : "", "data-metric": name });
    row.append(el("td", { class: "label", text: METRIC_NAMES[name] || name }));
    for (const s of systems) {
      const m = (s.metrics || {})[name];
      if (m === null || m === undefined) {
        row.append(cell("n/a"), cell("n/a"), cell("n/a"));
      } else if (typeof m.value === "number" && m.f1 === undefined) {
        row.append(cell(""), cell(""), cell(m.value.toFixed(4), intervalText(m.interval)));
      } else {
        row.append(cell(m.recall === undefined ? "" : pct(m.recall), intervalText(m.recall_interval)),
          cell(m.precision === undefined ? "" : pct(m.precision), intervalText(m.precision_interval)),
          cell(pct(m.f1), intervalText(m.interval), "f1"));
      }
    }
    body.append(row);
  }
  table.append(body);
}

function drawTests(tests) {
  const box = $("tests-box");
  const metrics = Object.keys(tests || {});
  box.hidden = metrics.length === 0;
  if (box.hidden) return;
  const table = $("tests-table");
  table.replaceChildren(el("tr", {}, ...["metric", "system", "F1 difference", "interval", "p-value"]
    .map((h) => el("th", { text: h }))));
  for (const metric of metrics) {
    for (const [system, t] of Object.entries(tests[metric])) {
      table.append(el("tr", {}, el("td", { class: "label", text: METRIC_NAMES[metric] || metric }),
        el("td", { class: "label", text: system }), el("td", { text: pct(t.difference) }),
        el("td", { text: intervalText(t.interval).trim() }),
        el("td", { text: typeof t.p_value === "number" ? t.p_value.toFixed(4) : "" })));
    }
  }
}

// ---- the chart: F1 per metric, one bar per system ---------------------------

const COLOURS = ["#2a5db0", "#d9822b", "#3a9a5b", "#9c4fb0", "#b3261e", "#6b7a8f"];
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function drawChart(systems) {
  const names = metricNames(systems).filter((n) => systems.some((s) => s.metrics[n] && typeof s.metrics[n].f1 === "number"));
  const bar = 22, gap = 18, left = 40, top = 20, height = 200;
  const group = Math.max(systems.length * bar + gap, 64);
  const width = left + names.length * group + 10;
  const legend = systems.length > 1 ? 18 * systems.length : 0;
  const chart = svg("svg", { width, height: top + height + 40 + legend, viewBox: `0 0 ${width} ${top + height + 40 + legend}`,
    role: "img", "aria-label": "F1 by metric" });
  const y = (v) => top + height - v * height;
  for (let t = 0; t <= 100; t += 25) {
    chart.append(svg("line", { x1: left, x2: width - 5, y1: y(t / 100), y2: y(t / 100), stroke: "#e3e6ec" }));
    chart.append(svg("text", { x: left - 6, y: y(t / 100) + 4, "text-anchor": "end", "font-size": 11, fill: "#5b6475" }, String(t)));
  }
  names.forEach((name, g) => {
    const x0 = left + g * group + (group - systems.length * bar) / 2;
    systems.forEach((s, i) => {
      const m = s.metrics[name];
      if (!m || typeof m.f1 !== "number") return;
      const x = x0 + i * bar;
      const rect = svg("rect", { x, y: y(m.f1), width: bar - 3, height: Math.max(0, m.f1 * height), fill: COLOURS[i % COLOURS.length] });
      rect.append(svg("title", {}, `${s.name} ${METRIC_NAMES[name] || name} F1 ${pct(m.f1)}`));
      chart.append(rect);
      if (Array.isArray(m.interval)) {
        const cx = x + (bar - 3) / 2;
        chart.append(svg("line", { x1: cx, x2: cx, y1: y(m.interval[0]), y2: y(m.interval[1]), stroke: "#1d2330" }));
      }
      chart.append(svg("text", { x: x + (bar - 3) / 2, y: y(m.f1) - 3, "text-anchor": "middle", "font-size": 9, fill: "#1d2330" },
        (100 * m.f1).toFixed(1)));
    });
    chart.append(svg("text", { x: x0 + (systems.length * bar) / 2, y: top + height + 16, "text-anchor": "middle", "font-size": 12 },
      METRIC_NAMES[name] || name));
  });
  systems.length > 1 && systems.forEach((s, i) => {
    const yy = top + height + 34 + 18 * i;
    chart.append(svg("rect", { x: left, y: yy - 10, width: 12, height: 12, fill: COLOURS[i % COLOURS.length] }));
    chart.append(svg("text", { x: left + 18, y: yy, "font-size": 12 }, s.name));
  });
  $("chart").replaceChildren(chart);
}

// ---- per-document rows -----------------------------------------------------

function flatten(obj, prefix = "", out = {}) {
  for (const [k, v] of Object.entries(obj)) {
    const name = prefix ? `${prefix}_${k}` : k;
    if (v !== null && typeof v === "object" && !Array.isArray(v)) flatten(v, k === "metrics" && !prefix ? "" : name, out);
    else out[name] = v;
  }
  return out;
}

let lastDocs = null;
let sortState = { column: null, descending: false };

function docRows(systems) {
  const rows = [];
  for (const s of systems) {
    for (const row of s.per_document || []) {
      const flat = flatten(row);
      if (flat.dataset === null) delete flat.dataset;
      rows.push(systems.length > 1 ? { system: s.name, ...flat } : flat);
    }
  }
  return rows;
}

function isScore(column) { return /(^|_)(recall|precision|f1|value)$/.test(column); }

function shownColumns(columns) {
  const all = $("all-columns").checked;
  return columns.filter((c) => c !== "documents" && !/(^|_)(counts|parts)(_|$)/.test(c) && !/interval/.test(c) &&
    (all || !isScore(c) || /(^|_)(f1|value)$/.test(c)));
}

function columnsOf(rows) {
  const columns = [];
  for (const row of rows) for (const c of Object.keys(row)) if (!columns.includes(c)) columns.push(c);
  return columns;
}

function drawDocs(rows) {
  lastDocs = rows;
  const box = $("per-doc-box");
  box.hidden = rows.length === 0;
  if (box.hidden) return;
  const columns = shownColumns(columnsOf(rows));
  const table = $("doc-table");
  const sorted = [...rows];
  if (sortState.column) {
    const c = sortState.column;
    sorted.sort((a, b) => {
      const x = a[c], y = b[c];
      const order = typeof x === "number" && typeof y === "number" ? x - y : String(x ?? "").localeCompare(String(y ?? ""));
      return sortState.descending ? -order : order;
    });
  }
  const head = el("tr");
  for (const c of columns) {
    const th = el("th", { text: c.replace(/_/g, " "), "data-column": c, class: isScore(c) ? "" : "label" });
    if (c === sortState.column) th.setAttribute("aria-sort", sortState.descending ? "descending" : "ascending");
    th.addEventListener("click", () => {
      sortState = { column: c, descending: sortState.column === c ? !sortState.descending : isScore(c) };
      drawDocs(lastDocs);
    });
    head.append(th);
  }
  const body = el("tbody");
  for (const row of sorted) {
    const tr = el("tr", { "data-document": String(row.document ?? "") });
    for (const c of columns) {
      const v = row[c];
      const text = isScore(c) && typeof v === "number" ? pct(v) : v === null || v === undefined ? "" : String(v);
      tr.append(el("td", { class: typeof v === "number" ? "" : "label", text }));
    }
    body.append(tr);
  }
  table.replaceChildren(el("thead", {}, head), body);
}

function csvField(v) {
  const text = v === null || v === undefined ? "" : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function toCsv(rows) {
  const columns = columnsOf(rows);
  return [columns, ...rows.map((r) => columns.map((c) => r[c]))].map((r) => r.map(csvField).join(",")).join("\r\n") + "\r\n";
}

// ---- error analysis ---------------------------------------------------------

function quoted(words) {
  return (Array.isArray(words) ? words : [words]).filter((w) => w !== undefined && w !== null && w !== "")
    .map((w) => `“${w}”`).join(" / ");
}

function occurrenceText(o) {
  const known = ["category", "document", "sentence", "words", "key_entities", "response_entities", "mentions"];
  const parts = [];
  if (o.document !== undefined) parts.push(`document ${o.document}`);
  if (o.sentence !== undefined) parts.push(`sentence ${o.sentence}`);
  let text = parts.join(", ");
  if (o.words !== undefined) text += `${text ? ": " : ""}${quoted(o.words)}`;
  const ids = [];
  if (o.key_entities && o.key_entities.length) ids.push(`key ${o.key_entities.join(", ")}`);
  if (o.response_entities && o.response_entities.length) ids.push(`response ${o.response_entities.join(", ")}`);
  if (ids.length) text += ` (${ids.join("; ")})`;
  const rest = Object.entries(o).filter(([k]) => !known.includes(k));
  if (rest.length) text += " · " + rest.map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`).join(" · ");
  return text;
}

function drawErrors(systems) {
  const withErrors = systems.filter((s) => s.errors);
  const box = $("errors-box");
  box.hidden = withErrors.length === 0;
  const root = $("errors");
  root.replaceChildren();
  for (const s of withErrors) {
    if (systems.length > 1) root.append(el("h3", { text: s.name }));
    const errors = s.errors;
    const counts = errors.counts || {};
    const cost = errors.cost || {};
    // The cost: each metric's F1 once a category alone is corrected, and
    // once it and every category before it are.
    const baseline = cost.baseline || {};
    const alone = cost.alone || {};
    const cumulative = cost.cumulative || {};
    const primary = errors.primary;
    const head = [el("th", { class: "label", text: "category" }), el("th", { text: "count" })];
    if (primary) {
      // An agreement coefficient is one value, not an F1.
      const coefficient = spec && spec.measures[primary] && spec.measures[primary].one_number;
      const name = (METRIC_NAMES[primary] || primary) + (coefficient ? "" : " F1");
      head.push(el("th", { text: `${name} with it corrected` }), el("th", { text: "gain" }),
        el("th", { text: `${name} with it and those above corrected` }));
    }
    const table = el("table", { class: "numbers errors" }, el("tr", {}, ...head));
    const order = Object.keys(cumulative).length ? Object.keys(cumulative) : Object.keys(counts);
    for (const category of [...order, ...Object.keys(counts).filter((c) => !order.includes(c))]) {
      const row = el("tr", { "data-category": category }, el("td", { class: "label", text: category.replace(/_/g, " ") }),
        el("td", { text: String(counts[category] ?? "") }));
      if (primary) {
        const a = (alone[category] || {})[primary], c = (cumulative[category] || {})[primary];
        row.append(el("td", { text: typeof a === "number" ? pct(a) : "" }),
          el("td", { text: typeof a === "number" ? `+${(100 * (a - baseline[primary])).toFixed(2)}` : "" }),
          el("td", { text: typeof c === "number" ? pct(c) : "" }));
      }
      table.append(row);
    }
    if (primary) root.append(el("p", { class: "summary",
      text: `${METRIC_NAMES[primary] || primary} F1 as scored: ${pct(baseline[primary])}` }));
    root.append(el("div", { class: "scroll" }, table));
    const byCategory = {};
    for (const o of errors.occurrences || []) {
      const category = o.category || "other";
      (byCategory[category] = byCategory[category] || []).push(o);
    }
    for (const [category, list] of Object.entries(byCategory)) {
      root.append(el("h4", { text: `${category.replace(/_/g, " ")}: ${list.length}` + (list.length > 5 ? ", the first 5" : "") }));
      root.append(el("ul", { class: "examples" }, ...list.slice(0, 5).map((o) => el("li", { text: occurrenceText(o) }))));
    }
  }
}

// ---- everything ---------------------------------------------------------------

function download(id, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  urls.push(url);
  $(id).href = url;
}

function draw(data, text, keyName, responseNames) {
  for (const url of urls) URL.revokeObjectURL(url);
  urls = [];
  const systems = systemsOf(data, responseNames);
  const documents = data.documents ?? (systems[0] && systems[0].documents);
  $("summary").textContent = `${keyName} against ${systems.map((s) => s.name).join(", ")}` +
    (documents !== undefined ? ` — ${documents} document${documents === 1 ? "" : "s"}` : "") +
    (data.signature ? ` — ${data.signature}` : "");
  drawScores(systems);
  drawTests(data.tests);
  drawChart(systems);
  drawErrors(systems);
  sortState = { column: null, descending: false };
  const rows = docRows(systems);
  drawDocs(rows);
  download("download-json", text, "application/json");
  $("download-csv").hidden = rows.length === 0;
  if (rows.length) download("download-csv", toCsv(rows), "text/csv");
  const warnings = [...(data.warnings || []), ...systems.flatMap((s) => (s === data ? [] : s.warnings || []))];
  $("warnings-box").hidden = warnings.length === 0;
  $("warnings").replaceChildren(...[...new Set(warnings)].map((w) => el("li", { text: w })));
  $("results").hidden = false;
}

init();
