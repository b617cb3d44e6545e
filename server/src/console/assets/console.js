// goccia console (docs/console.md). No framework: one page, a handful of
// lists, updated from server-sent events. Every value shown comes from a
// session and is written as text (textContent), never as markup: a guest's
// output cannot become part of the page. The admin token lives in a
// variable only — not in storage, a cookie or a URL.
"use strict";

const state = {
  token: null,
  clockOffset: 0, // server seconds minus this page's seconds
  sessions: new Map(),
  escalations: new Map(),
  selected: null,
  lastSeq: 0,
  workspace: null,
  stream: null,
  firstRender: true,
};

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function setStatus(text) {
  $("status").textContent = text;
}

class Unauthorized extends Error {}

async function api(path, options = {}) {
  const response = await fetch(path, {
    ...options,
    headers: { ...(options.headers || {}), Authorization: `Bearer ${state.token}` },
    cache: "no-store",
  });
  if (response.status === 401) throw new Unauthorized("the admin token was refused");
  return response;
}

async function json(path) {
  const response = await api(path);
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

function signOut(message) {
  state.token = null;
  if (state.stream) state.stream.abort();
  state.stream = null;
  state.sessions.clear();
  state.escalations.clear();
  state.selected = null;
  $("app").hidden = true;
  $("login").hidden = false;
  $("login-error").textContent = message || "";
  setStatus("Signed out");
  $("token").focus();
}

// ---- time -----------------------------------------------------------------

function serverNow() {
  return Date.now() / 1000 + state.clockOffset;
}

function span(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86400)} d`;
}

// ---- sessions ---------------------------------------------------------------

function sessionRow(session) {
  // The id is long: the table shows its start, the button's name all of it.
  const open = el("button", {
    class: "link",
    type: "button",
    "aria-label": `Show session ${session.id}`,
    title: session.id,
    onclick: () => select(session.id),
  }, `${session.id.slice(0, 11)}…`);
  const row = el("tr", { "data-id": session.id },
    el("td", {}, open),
    el("td", { text: session.workspace }),
    el("td", { text: span(serverNow() - session.openedAt) }),
    el("td", { text: span(session.expiresAt - serverNow()) }),
    el("td", { text: session.capabilities.join(", ") }),
    el("td", { text: session.owner }),
    el("td", { text: String(session.calls) }),
  );
  if (session.id === state.selected) row.classList.add("selected");
  return row;
}

function renderSessions() {
  const body = $("sessions").tBodies[0];
  const rows = document.createDocumentFragment();
  for (const session of state.sessions.values()) rows.append(sessionRow(session));
  body.replaceChildren(rows);
  $("session-count").textContent = `(${state.sessions.size})`;
  $("no-sessions").hidden = state.sessions.size > 0;
}

function upsertSession(session) {
  const known = state.sessions.has(session.id);
  state.sessions.set(session.id, session);
  const body = $("sessions").tBodies[0];
  const row = sessionRow(session);
  const old = known ? body.querySelector(`tr[data-id="${CSS.escape(session.id)}"]`) : null;
  if (old) old.replaceWith(row);
  else body.append(row);
  $("session-count").textContent = `(${state.sessions.size})`;
  $("no-sessions").hidden = true;
  if (session.id === state.selected) renderFacts(session);
}

function removeSession(id) {
  state.sessions.delete(id);
  const row = $("sessions").tBodies[0].querySelector(`tr[data-id="${CSS.escape(id)}"]`);
  if (row) row.remove();
  $("session-count").textContent = `(${state.sessions.size})`;
  $("no-sessions").hidden = state.sessions.size > 0;
  if (state.selected === id) {
    $("facts").replaceChildren(el("dt", { text: "State" }), el("dd", { text: "closed" }));
  }
}

// ---- one session ------------------------------------------------------------

function renderFacts(session) {
  const facts = [
    ["Workspace", session.workspace],
    ["Age", span(serverNow() - session.openedAt)],
    ["Expires in", span(session.expiresAt - serverNow())],
    ["Capabilities", session.capabilities.join(", ")],
    ["Server", session.owner],
    ["Calls", String(session.calls)],
  ];
  $("facts").replaceChildren(...facts.flatMap(([name, value]) => [
    el("dt", { text: name }), el("dd", { text: value }),
  ]));
  const lineage = [];
  if (session.parent) {
    lineage.push(el("li", {}, "Forked from ", el("button", {
      class: "link", type: "button", onclick: () => select(session.parent),
    }, session.parent)));
  }
  lineage.push(el("li", {
    text: session.snapshots.length
      ? `Snapshots: ${session.snapshots.join(", ")}`
      : "No snapshot taken.",
  }));
  for (const fork of session.forks) {
    lineage.push(el("li", {}, "Fork: ", el("button", {
      class: "link", type: "button", onclick: () => select(fork),
    }, fork)));
  }
  $("lineage").replaceChildren(...lineage);
}

function callItem(call) {
  const failed = call.exitCode !== 0;
  const outcome = el("span", { class: failed ? "failed" : "" },
    `exit ${call.exitCode}${call.failure ? ` (${call.failure})` : ""}`);
  const item = el("li", { "data-seq": String(call.seq) },
    el("div", { class: "head" },
      el("strong", { text: call.kind }), " ", el("code", { text: call.command }),
      " — ", outcome, ` · ${call.durationMs.toFixed(1)} ms`),
  );
  if (call.excerpt) item.append(el("pre", { class: "excerpt", text: call.excerpt }));
  return item;
}

function appendCall(call) {
  if (call.seq <= state.lastSeq) return;
  state.lastSeq = call.seq;
  $("timeline").append(callItem(call));
  $("no-calls").hidden = true;
}

async function select(id) {
  state.selected = id;
  state.lastSeq = 0;
  for (const row of $("sessions").tBodies[0].rows) {
    row.classList.toggle("selected", row.dataset.id === id);
  }
  $("detail").hidden = false;
  $("detail-title").textContent = `Session ${id}`;
  $("timeline").replaceChildren();
  $("diff").replaceChildren();
  try {
    const { session, timeline } = await json(`/console/api/sessions/${encodeURIComponent(id)}`);
    if (state.selected !== id) return;
    renderFacts(session);
    timeline.forEach(appendCall);
    $("no-calls").hidden = timeline.length > 0;
    await loadDiff();
  } catch (error) {
    if (error instanceof Unauthorized) return signOut(error.message);
    $("facts").replaceChildren(el("dt", { text: "State" }), el("dd", { text: "not live on this server" }));
  }
  $("detail-title").focus();
}

// ---- diff -------------------------------------------------------------------

function parseDiff(text) {
  const files = [];
  let file = null;
  let hunk = null;
  for (const line of text.split("\n")) {
    if (line.startsWith("diff --git ")) {
      file = { header: line.slice("diff --git ".length), meta: [], hunks: [] };
      files.push(file);
      hunk = null;
    } else if (file && line.startsWith("@@")) {
      hunk = { at: line, lines: [] };
      file.hunks.push(hunk);
    } else if (hunk) {
      if (line !== "") hunk.lines.push(line);
    } else if (file && line !== "") {
      file.meta.push(line);
    }
  }
  return files;
}

// A burst of calls refreshes the diff once.
let diffTimer = null;
function refreshDiffSoon() {
  clearTimeout(diffTimer);
  diffTimer = setTimeout(() => loadDiff().catch(() => {}), 250);
}

async function loadDiff() {
  const id = state.selected;
  if (!id) return;
  const response = await api(`/console/api/sessions/${encodeURIComponent(id)}/diff`);
  if (!response.ok || state.selected !== id) return;
  const files = parseDiff(await response.text());
  if (files.length === 0) {
    $("diff").replaceChildren(el("p", { class: "hint", text: "No change since the session was seeded." }));
    return;
  }
  $("diff").replaceChildren(...files.map((file) => {
    const body = [];
    if (file.meta.length) body.push(el("pre", { class: "meta", text: file.meta.join("\n") }));
    for (const hunk of file.hunks) {
      const pre = el("pre", { class: "hunk" }, el("span", { class: "line at", text: hunk.at }));
      for (const line of hunk.lines) {
        const kind = line[0] === "+" ? "add" : line[0] === "-" ? "del" : "ctx";
        pre.append(el("span", { class: `line ${kind}`, text: line }));
      }
      body.push(pre);
    }
    return el("details", { open: "" }, el("summary", { text: file.header }), ...body);
  }));
}

// ---- escalations ------------------------------------------------------------

function renderEscalationCount() {
  $("escalation-count").textContent = state.escalations.size ? `(${state.escalations.size})` : "";
  $("no-escalations").hidden = state.escalations.size > 0;
}

async function answer(request, decision, card) {
  for (const button of card.querySelectorAll("button")) button.disabled = true;
  try {
    const response = await api(`/console/api/escalations/${encodeURIComponent(request.id)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ decision }),
    });
    if (response.status === 404) setStatus("That request had already ended.");
    else if (!response.ok) setStatus(`The decision was not taken: ${response.status}`);
  } catch (error) {
    if (error instanceof Unauthorized) signOut(error.message);
  }
}

function addEscalation(request) {
  if (state.escalations.has(request.id)) return;
  const until = Date.now() + request.waitMs;
  const card = el("li", { class: "card", "data-id": request.id });
  const title = `${request.subject} in ${request.session}`;
  card.append(
    el("p", {}, el("strong", { text: `Wider rights for ${title}` })),
    el("p", {}, "Would run: ", el("code", { text: request.detail })),
    el("p", { text: `Asks for ${request.requestedMode} (now ${request.currentMode}).` }),
    el("p", {}, "Because: ", el("q", { text: request.justification })),
    el("p", { class: "hint", text: `Cancelled if nobody answers within ${span(request.waitMs / 1000)} (by ${new Date(until).toLocaleTimeString()}).` }),
    el("div", { class: "actions" },
      el("button", {
        type: "button", "aria-label": `Approve: ${request.detail}`,
        onclick: () => answer(request, "approve", card),
      }, "Approve"),
      el("button", {
        type: "button", class: "deny", "aria-label": `Deny: ${request.detail}`,
        onclick: () => answer(request, "deny", card),
      }, "Deny"),
    ),
  );
  state.escalations.set(request.id, card);
  $("escalations").append(card);
  renderEscalationCount();
  setStatus(`Escalation request from ${request.session}`);
}

function endEscalation({ id, decision }) {
  const card = state.escalations.get(id);
  if (!card) return;
  state.escalations.delete(id);
  card.remove();
  renderEscalationCount();
  setStatus(`Escalation ${decision}`);
}

// ---- change log -------------------------------------------------------------

function describeChange(change) {
  const who = change.authorship;
  const author = who && (who.model || who.tool)
    ? [who.vendor, who.model, who.tool && `via ${who.tool}`].filter(Boolean).join(" ")
    : "no authorship given";
  const item = el("li", {},
    el("div", {}, el("strong", { text: change.time }), ` · ${change.sandboxId} · ${author}`),
  );
  if (change.message) item.append(el("div", { text: change.message }));
  const files = el("ul", {});
  for (const file of change.files) files.append(el("li", {}, `${file.kind} `, el("code", { text: file.path })));
  item.append(files);
  return item;
}

async function loadChanges() {
  const name = state.workspace;
  if (!name) return;
  try {
    const log = await json(`/v1/changes?workspace=${encodeURIComponent(name)}`);
    if (state.workspace !== name) return;
    const items = log.changes.slice().reverse().map(describeChange);
    $("changes").replaceChildren(...items);
    $("no-changes").hidden = items.length > 0;
  } catch (error) {
    if (error instanceof Unauthorized) signOut(error.message);
  }
}

// ---- state and events -------------------------------------------------------

async function loadState() {
  const snapshot = await json("/console/api/state");
  state.clockOffset = snapshot.now - Date.now() / 1000;
  state.sessions = new Map(snapshot.sessions.map((session) => [session.id, session]));
  renderSessions();
  for (const card of state.escalations.values()) card.remove();
  state.escalations.clear();
  snapshot.escalations.forEach(addEscalation);
  renderEscalationCount();
  const picker = $("workspace");
  if (picker.options.length === 0) {
    picker.replaceChildren(...snapshot.workspaces.map((name) => el("option", { value: name, text: name })));
    state.workspace = snapshot.workspaces[0] || null;
  }
  await loadChanges();
  if (state.firstRender) {
    state.firstRender = false;
    performance.mark("goccia-console-rendered");
    document.body.dataset.rendered = String(state.sessions.size);
  }
  setStatus(`Live · ${state.sessions.size} sessions on ${snapshot.server}`);
}

const handlers = {
  ready: () => loadState(),
  resync: () => loadState(),
  session: (session) => upsertSession(session),
  "session-closed": ({ id }) => removeSession(id),
  call: (call) => {
    const session = state.sessions.get(call.session);
    if (session) upsertSession({ ...session, calls: Math.max(session.calls, call.seq) });
    if (call.session === state.selected) {
      appendCall(call);
      refreshDiffSoon();
    }
  },
  escalation: (request) => addEscalation(request),
  "escalation-ended": (ended) => endEscalation(ended),
  change: (change) => {
    if (change.workspace === state.workspace) loadChanges();
    if (change.session === state.selected) loadDiff();
  },
};

// Server-sent events read through fetch (EventSource cannot send the
// token as a header): frames are separated by a blank line.
async function listen() {
  const controller = new AbortController();
  state.stream = controller;
  let response;
  try {
    response = await api("/console/api/events", { signal: controller.signal });
  } catch (error) {
    if (error instanceof Unauthorized) return signOut(error.message);
    return retry(controller);
  }
  if (!response.ok) return retry(controller);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let name = "message";
        const data = [];
        for (const line of frame.split("\n")) {
          if (line.startsWith("event:")) name = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        }
        const handler = handlers[name];
        if (handler && data.length) await handler(JSON.parse(data.join("\n")));
      }
    }
  } catch (error) {
    if (error instanceof Unauthorized) return signOut(error.message);
  }
  retry(controller);
}

function retry(controller) {
  if (state.stream !== controller || controller.signal.aborted) return;
  setStatus("Disconnected — reconnecting…");
  setTimeout(() => {
    if (state.stream === controller && state.token) listen();
  }, 1000);
}

// ---- start ------------------------------------------------------------------

$("login-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  performance.mark("goccia-console-signin");
  const input = $("token");
  state.token = input.value.trim();
  input.value = "";
  $("login-error").textContent = "";
  try {
    await json("/console/api/state");
  } catch (error) {
    return signOut(error instanceof Unauthorized
      ? "That is not this server's admin token."
      : `The server did not answer: ${error.message}`);
  }
  $("login").hidden = true;
  $("app").hidden = false;
  setStatus("Connecting…");
  listen();
});

$("workspace").addEventListener("change", (event) => {
  state.workspace = event.target.value;
  loadChanges();
});

$("refresh-diff").addEventListener("click", () => loadDiff());

// Ages and expiries move on without events.
setInterval(() => {
  if (!state.token) return;
  for (const row of $("sessions").tBodies[0].rows) {
    const session = state.sessions.get(row.dataset.id);
    if (!session) continue;
    row.cells[2].textContent = span(serverNow() - session.openedAt);
    row.cells[3].textContent = span(session.expiresAt - serverNow());
  }
}, 10000);
