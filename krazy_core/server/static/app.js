// krazy_core browser table: plain JS, no build step. Talks to krazy serve over one
// WebSocket per seat (schemas/protocol.json); a seat's token goes in the socket's first
// message, never in a URL the server sees. Hot-seat: this device holds several seats' tokens
// and hides each hand until its owner taps "Take the seat"; otherwise the creator holds its
// own seat and invite links, and an invitee's token is minted when it opens its link.
//
// The game's words (moves, prompts, refusals, the narrated log, the table's facts) come from
// the engine in every message; this page shows them and never writes its own. A move is
// chosen by selecting cards (and a meld or a gap) and matched to the legal moves by their
// structured fields (kind, card codes, positions, meld, position, slot), never by text;
// nothing is sent before the player confirms it.
"use strict";
const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };

// ------------------------------------------------------------------ what the data says per game
// hello.fixed_hand: a hand whose order is part of the moves shows each card's position from 1
// moves that take no card from the hand: buttons for the phase (draw, take, buy, pass, roll...)
const PHASE_KINDS = new Set(["draw", "take", "take_discard", "decline", "buy", "pass", "roll", "direction", "go_down", "finish_meld", "keep"]);
// headings of the engine's facts (a fact without one is shown under its own key's words)
const FACT_LABELS = {to_match: "To match", to_beat: "To beat", last_trick_text: "Last trick", arrangement_text: "Best arrangement now", contract_text: "Contract", last_turn_text: ""};
const SPEEDS = [["Slow", 1600], ["Normal", 900], ["Fast", 350], ["Instant", 0]];

const SUITS = ["♠", "♥", "♦", "♣", "★"];
const RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"};
const DIE = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

function cardText(c) {
  if (c === null || c === undefined) return "?";
  if (c === 80) return "Joker";
  if (c >= 97) return {112: "X", 113: "DRAW", 114: "STOP"}[c] || String(c - 96);
  const r = c & 15, s = c >> 4;
  return (RANKS[r] || String(r)) + (SUITS[s] || "?");
}
function cardEl(c, opts = {}) {
  const d = el("div", "card" + (opts.small ? " small" : ""));
  if (c === null || c === undefined) { d.classList.add("back"); return d; }
  d.dataset.card = c;
  if (c === 80) { d.classList.add("joker"); d.append(el("span", "", "JK"), el("span", "jk", "joker")); d.title = "Joker"; return d; }
  if (c >= 97) { d.classList.add(c >= 112 ? "red" : "blue"); d.append(el("span", "", cardText(c))); return d; }
  const s = c >> 4, r = c & 15;
  if (s === 1 || s === 2) d.classList.add("red"); if (s === 4) d.classList.add("star");
  d.append(el("span", "", RANKS[r] || String(r)), el("span", "s", SUITS[s] || "?"));
  d.title = cardText(c);
  return d;
}

// ------------------------------------------------------------------ state
const app = {
  table: null, game: null, seats: [], tokens: {},   // tokens: seat -> token held on this device
  conns: {}, views: {}, logs: {}, played: {}, shownSeat: null, unlocked: null, spectator: null,
  sel: [], target: null, gap: null, slot: null, melds: [], recapFrom: {}, recap: null,
};
const speed = () => +(localStorage.getItem("krazy:speed") ?? 900);

// the Joker is a word here (fonts without the 🃏 glyph); rules' Markdown emphasis goes
function labelText(t) { return String(t).replace(/🃏/g, "Joker"); }
function plainRule(t) { return labelText(t).replace(/\*\*|`/g, ""); }
function hashParams() { const p = new URLSearchParams(location.hash.slice(1)); return Object.fromEntries(p.entries()); }
function whoName(p) { return app.seats[p] ? app.seats[p].name : `Seat ${p + 1}`; }
// the result per seat from the returns (1 for a win, shares on a tie): the engine's prompt
// says the result in words
function resultWord(ret, p) {
  const hi = Math.max(...ret), lo = Math.min(...ret);
  if (hi === lo) return "tied";
  return ret[p] === hi ? "won" : "lost";
}
function setStatus(t) { $("status").textContent = t; }
function showRefusal(text) { const r = $("refusal"); r.hidden = !text; r.textContent = text ? labelText(text) : ""; }

// ------------------------------------------------------------------ lobby
async function lobby() {
  show("lobby");
  const info = await (await fetch("/api/games")).json();
  app.gameInfo = info;
  const sel = $("game"); sel.innerHTML = "";
  for (const g of info.games) { const o = el("option", "", g.name); o.value = g.id; sel.append(o); }
  sel.onchange = () => { const g = info.games.find(x => x.id === sel.value); $("players").min = g.min_players; $("players").max = g.max_players; $("players").value = g.default_players; seatRows(); optionRows(g); };
  $("players").oninput = seatRows; $("players").onchange = clampPlayers; sel.onchange();
  $("create").onclick = createTable;
  const list = await (await fetch("/api/tables?limit=20")).json();
  const ul = $("tables"); ul.innerHTML = "";
  for (const t of list.tables) {                  // open tables, newest first
    const gname = (app.gameInfo.games.find(x => x.id === t.game) || {name: t.game}).name;
    const li = el("li"); const a = el("a", "", `${gname} · ${t.seats.map(s => s.name).join(", ")}${t.terminal ? " · over" : ""} (watch)`);
    a.href = `#table=${t.table}`; li.append(a); ul.append(li);
  }
}
// the game's options, from /api/games (a seat option such as the dealer is left to the game)
function optionRows(g) {
  const box = $("options"); box.innerHTML = "";
  for (const o of g.options) {
    let inp;
    if (typeof o.default === "boolean") { inp = el("input"); inp.type = "checkbox"; inp.checked = o.default; }
    else if (typeof o.default === "number") { inp = el("input"); inp.type = "number"; inp.value = o.default; }
    else { inp = el("input"); inp.value = o.default; }
    inp.dataset.option = o.name; inp.dataset.default = JSON.stringify(o.default);
    const lab = el("label", "option"); lab.append(el("span", "", `${o.name.replace(/_/g, " ")} `), inp);
    lab.title = `${o.doc}${o.rule ? ` (${o.rule})` : ""}`;
    box.append(lab);
  }
}
function chosenOptions() {
  const out = {};
  for (const inp of $("options").querySelectorAll("input")) {
    const d = JSON.parse(inp.dataset.default);
    const val = typeof d === "boolean" ? inp.checked : typeof d === "number" ? Number(inp.value) : inp.value;
    if (val !== d) out[inp.dataset.option] = val;
  }
  return out;
}
// the seat rows follow the Players box as it is typed in: rows are added or removed at the
// end, never rebuilt (a click on a name box is not lost), and the count stays in range
function seatRows() {
  const inp = $("players"), box = $("seats");
  const n = Math.round(Number(inp.value));
  if (inp.value === "" || !Number.isFinite(n)) return;            // mid-typing: keep the rows
  const want = Math.max(+inp.min || 1, Math.min(+inp.max || 8, n));
  const rows = box.querySelectorAll(".seat-row");
  for (let i = rows.length - 1; i >= want; i--) rows[i].remove();
  for (let i = rows.length; i < want; i++) box.append(seatRow(i));
}
function clampPlayers() {
  const inp = $("players"), n = Math.round(Number(inp.value));
  inp.value = Math.max(+inp.min, Math.min(+inp.max, Number.isFinite(n) && inp.value !== "" ? n : +inp.min));
  seatRows();
}
function seatRow(i) {
  const r = el("div", "seat-row"); r.append(el("span", "", `Seat ${i + 1}`));
  const kind = el("select", "kind"); for (const k of ["human", "bot"]) { const o = el("option", "", k); o.value = k; kind.append(o); }
  kind.value = i === 0 ? "human" : "bot";
  // the levels (the terminal's words, with what each does), then the bots by name
  const lv = Object.fromEntries((app.gameInfo.levels || []).map(x => [x.level, x.description]));
  const bot = el("select", "bot"); for (const b of app.gameInfo.bots) { const o = el("option", "", lv[b] ? `${b}: ${lv[b]}` : b); o.value = b; bot.append(o); }
  bot.value = app.gameInfo.bots.includes("normal") ? "normal" : "heuristic";
  const name = el("input", "name"); name.placeholder = "name";
  const upd = () => { bot.hidden = kind.value !== "bot"; }; kind.onchange = upd; upd();
  r.append(kind, bot, name);
  return r;
}
async function createTable() {
  const seats = [...$("seats").querySelectorAll(".seat-row")].map(r => ({kind: r.querySelector(".kind").value, bot: r.querySelector(".bot").value, name: r.querySelector(".name").value || undefined}));
  const body = {game: $("game").value, seats, think: +$("think").value, hotseat: $("hotseat").checked, options: chosenOptions()};
  await postTable(body);
}
async function postTable(body) {
  const res = await fetch("/api/tables", {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
  const j = await res.json();
  if (!res.ok) { setStatus(j.error); showRefusal(j.error); return; }
  // the creator's tokens: every human seat of a hot-seat table, else its own seat only (the
  // others get invite links, their tokens minted when the invitees open them)
  const tokens = {}; for (const s of j.seats) if (s.token) tokens[s.seat] = s.token;
  sessionStorage.setItem("krazy:" + j.table, JSON.stringify(tokens));
  // the per-seat links and the request (for "Play again"), kept for this tab only
  // (hot-seat: none; every seat's link would show its hand to whoever holds the device)
  const others = j.hotseat ? [] : j.seats.filter(s => !s.token);
  sessionStorage.setItem("krazy-links:" + j.table, JSON.stringify(others.map(s => [s.name, s.url])));
  sessionStorage.setItem("krazy-req:" + j.table, JSON.stringify(body));
  location.hash = `table=${j.table}`;
}

// ------------------------------------------------------------------ connections
function connect(seat, token) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${app.table}`);
  const key = seat === null ? "spectator" : seat;
  app.conns[key] = ws; app.logs[key] = [];
  ws.onmessage = (m) => onMessage(key, JSON.parse(m.data));
  ws.onclose = () => { setStatus("disconnected: reconnecting…"); setTimeout(() => { if (app.conns[key] === ws) connect(seat, token); }, 1000); };
  // the token goes in the first message (a URL's query string ends up in proxies' logs)
  ws.onopen = () => { ws.send(JSON.stringify(token ? {type: "join", token} : {type: "join"})); setStatus("connected"); };
}
function onMessage(key, m) {
  if (m.type === "hello") { app.game = m.game; app.gameName = m.name; app.seats = m.seats; app.logs[key] = []; app.practice = m.practice; app.hotseatTable = m.hotseat; app.fixedHand = !!m.fixed_hand; loadRules(); return; }
  if (m.type === "seats") { app.seats = m.seats; render(); return; }
  if (m.type === "update") {
    if (m.first_event === 0) { app.logs[key] = []; app.played[key] = 0; }
    const was = app.views[key], hand = (v) => JSON.stringify(v && v.observation && v.observation.hand);
    if (String(key) === String(app.shownSeat) && hand(was) !== hand(m)) { app.melds = []; clearSelection(); }
    const fresh = !was;
    app.logs[key].push(...m.events); app.views[key] = m; app.seats = m.seats;
    // the history before this page opened is not replayed: only what happens from now on is paced
    if (fresh) app.played[key] = app.logs[key].length;
    if (!m.actions.length) clearSelection();
    if (app.pendingSend) { app.pendingSend = false; showRefusal(null); }
    app.hint = null; render(); pace(); return;
  }
  if (m.type === "error") {
    if (m.code === "stale") {                         // the table moved on: its update follows
      app.sentAt = null; app.pendingSend = false; return;
    }
    app.pendingSend = false; app.error = m; app.sentAt = null;
    showRefusal(m.code === "illegal" ? m.reason : `${m.code}: ${m.reason}`);
    setStatus("connected"); render(); return;
  }
  if (m.type === "hint") { app.hint = m.action; $("hint-text").textContent = "Hint: " + labelText(m.action.text); return; }
}
function send(msg) {
  const ws = app.conns[app.shownSeat]; if (!ws) return;
  app.pendingSend = true;
  ws.send(JSON.stringify(msg));
}
function act(id) {
  const key = app.shownSeat, v = app.views[key];
  if (app.sentAt === key + ":" + v.version) return;     // a second click on the same move: sent once
  app.sentAt = key + ":" + v.version;
  app.recapFrom[key] = app.logs[key].length;      // the next recap starts after this move
  app.recap = null; clearSelection(); showRefusal(null);
  send({type: "action", action: id, version: v.version});
}

// an invite link (#table=T&invite=CODE): claim the seat once, keep its token for this tab and
// take the code out of the address bar; a claimed invite opened again uses the kept token
async function claimInvite(params) {
  const key = "krazy:" + params.table;
  let held = {};
  try { held = JSON.parse(sessionStorage.getItem(key) || "{}"); } catch (e) {}
  const res = await fetch(`/api/tables/${encodeURIComponent(params.table)}/claim`, {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify({invite: params.invite})});
  const j = await res.json();
  if (res.ok) { held[j.seat] = j.token; sessionStorage.setItem(key, JSON.stringify(held)); }
  history.replaceState(null, "", `#table=${params.table}`);
  startTable({table: params.table});
  if (!res.ok && !Object.keys(held).length) setStatus(j.error);
}

function startTable(params) {
  app.table = params.table;
  let tokens = {};
  try { tokens = JSON.parse(sessionStorage.getItem("krazy:" + app.table) || "{}"); } catch (e) {}
  if (params.token) { tokens = {}; app.single = params.token; }
  app.tokens = tokens;
  let links = [];
  try { links = params.token ? [] : JSON.parse(sessionStorage.getItem("krazy-links:" + app.table) || "[]"); } catch (e) {}
  drawLinks(links);
  show("table");
  if (params.token) connect(-1, params.token);   // one seat; its number comes in hello
  const seats = Object.keys(tokens).map(Number);
  for (const s of seats) connect(s, tokens[s]);
  if (!params.token && seats.length === 0) connect(null, null);
  app.hotseat = seats.length > 1;
}

// the links per seat, shown before anyone takes a seat: another device reaches this server
// only at an address of this machine on the network (krazy serve --host 0.0.0.0)
function drawLinks(links) {
  const box = $("link-list"); box.innerHTML = ""; $("links").hidden = !links.length;
  const local = /^(127\.|localhost|\[::1\])/.test(location.hostname);
  const note = el("p", "note");
  note.textContent = local
    ? `These links use ${location.host}, this computer's own address: they open only here. To play a seat on a phone or another computer, start the server with "krazy serve --host 0.0.0.0" and open the link with this computer's network address instead of ${location.hostname} (for example 192.168.1.20:${location.port || 80}; "ip addr" or the network settings show it). Both devices must be on the same network.`
    : `Open a seat's link on the device that plays it (same network as ${location.host}). Each link is that seat's secret: give it only to its player.`;
  box.append(note);
  for (const [name, url] of links) { const p = el("p"); const a = el("a", "seat-link", `${name}: ${url}`); a.href = url; p.append(a); box.append(p); }
}

// ------------------------------------------------------------------ rules
async function loadRules() {
  if (!app.game || app.rules && app.rules.game === app.game) return;
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(app.game)}/rules`);
    if (r.ok) app.rules = await r.json();
  } catch (e) {}
}
function openRules() {
  const box = $("rules-list"); box.innerHTML = "";
  $("rules-title").textContent = app.rules ? `Rules of ${app.rules.name}` : "Rules";
  let section = null, ol = null;
  for (const x of (app.rules ? app.rules.rules : [])) {
    if (x.section !== section) { section = x.section; box.append(el("h3", "", section)); ol = el("ul"); box.append(ol); }
    const li = el("li"); li.id = "rule-" + x.id; li.append(el("strong", "", x.id + " "), el("span", "", plainRule(x.text).replace(new RegExp("^" + x.id + "\\s*"), "")));
    ol.append(li);
  }
  // the rule the prompt cites comes first in view
  $("rules").hidden = false;
  const cited = (app.views[app.shownSeat] || {}).prompt_rules || [];
  const li = cited && document.getElementById("rule-" + cited[0]);
  if (li) { li.classList.add("cited"); li.scrollIntoView({block: "center"}); }
}

// ------------------------------------------------------------------ which seat is shown
function chooseSeat() {
  const keys = Object.keys(app.views);
  if (!keys.length) return null;
  if (app.single) return -1;
  if (keys.includes("spectator") && keys.length === 1) return "spectator";
  const any = app.views[keys[0]];
  const toMove = String(any.to_move);
  if (app.hotseat) {
    if (keys.includes(toMove)) return toMove;
    // a seat of this device is to move but its own view has not come in yet: wait for it
    // rather than hand the device to the wrong player for a moment
    if (toMove in app.tokens && !any.terminal) return null;
    return app.shownSeat ?? keys[0];
  }
  return keys[0];
}

function show(which) { for (const s of ["lobby", "handover", "table"]) $(s).hidden = s !== which; }

function render() {
  const key = chooseSeat(); if (key === null) return;
  const prev = app.shownSeat; app.shownSeat = key;
  const v = app.views[key]; if (!v) return;
  if (prev !== key) { clearSelection(); app.melds = []; }
  // hot-seat: hide the table until the seat to move is taken on this device
  if (app.hotseat && app.unlocked !== key && !v.terminal) {
    show("handover");
    // nothing of the previous seat's private view stays in the page behind the hand-over
    for (const id of ["hand", "drawn", "moves", "phase", "log", "facts", "recap", "now", "turn", "melds", "center", "scores"]) $(id).innerHTML = "";
    const name = whoName(+key);
    $("handover-text").textContent = `Pass the device to ${name}. The hand stays hidden until ${name} taps below.`;
    $("take-seat").onclick = () => {
      app.unlocked = key;
      // what happened since this seat's last move, shown to it alone
      const from = app.recapFrom[key] ?? 0;
      app.recap = (app.logs[key] || []).slice(from).filter(e => e.text).map(e => labelText(e.text));
      app.played[key] = app.logs[key].length;
      show("table"); render();
    };
    return;
  }
  show("table");
  drawTable(v, key);
}

// ------------------------------------------------------------------ selection → a move
function clearSelection() { app.sel = []; app.target = null; app.gap = null; app.slot = null; }
const sortNum = (xs) => [...xs].sort((a, b) => a - b);
const sameBag = (a, b) => a.length === b.length && sortNum(a).join() === sortNum(b).join();
// a move that takes cards from the hand (selected), one that puts a card into a gap of the
// hand, or a phase move (a button)
function isHandMove(a) { return a.positions !== undefined || (a.cards !== undefined && a.position === undefined && !PHASE_KINDS.has(a.kind)); }
function isGapMove(a) { return a.position !== undefined && a.positions === undefined; }
function tableMelds(v) { return new Set(((v.facts && v.facts.melds) || (v.observation && v.observation.melds) || []).map(m => m.id)); }
function needsTarget(a, melds) { return a.meld !== undefined && a.meld !== null && melds.has(a.meld); }
function cardsMatch(a, o) {
  if (a.positions !== undefined) return a.positions.join() === sortNum(app.sel).join();
  return sameBag(a.cards, app.sel.map(p => o.hand[p]));
}
// the legal moves that fit the selection: {ready: moves to confirm, wantTarget: moves that
// still need a meld tapped}
function matchSelection(v) {
  const o = v.observation || {}, melds = tableMelds(v);
  const out = {ready: [], wantTarget: []};
  if (app.gap !== null) {
    out.ready = v.actions.filter(a => isGapMove(a) && a.position === app.gap && (a.slot === undefined ? app.slot === null : a.slot === app.slot));
    return out;
  }
  if (!app.sel.length || !o.hand) return out;
  for (const a of v.actions) {
    if (!isHandMove(a) || !cardsMatch(a, o)) continue;
    if (needsTarget(a, melds)) { if (app.target === null) out.wantTarget.push(a); else if (a.meld === app.target) out.ready.push(a); }
    else if (app.target === null) out.ready.push(a);
  }
  // a play leaving one card calls "last card" (KK-19): the call is made for the player
  if (out.ready.some(a => a.announce === true)) out.ready = out.ready.filter(a => a.announce !== false);
  return out;
}

function clickCard(v, o, i) {
  if (!v.actions.length) return;
  app.gap = null; app.target = null;
  if (app.melds.some(m => m.includes(i))) return;             // already in a chosen meld
  const byPos = v.actions.some(a => a.positions !== undefined);
  const s = app.sel;
  if (byPos) {                                                 // 1-3 adjacent positions
    if (s.includes(i)) app.sel = (i === s[0] || i === s[s.length - 1]) ? s.filter(x => x !== i) : [i];
    else if (s.length && s.length < 3 && (i === s[0] - 1 || i === s[s.length - 1] + 1)) app.sel = sortNum([...s, i]);
    else app.sel = [i];
  } else app.sel = s.includes(i) ? s.filter(x => x !== i) : sortNum([...s, i]);
  showRefusal(null); render();
}
function clickGap(i) { app.sel = []; app.target = null; app.gap = app.gap === i ? null : i; showRefusal(null); render(); }
function clickSlot(slot) { app.sel = []; app.gap = null; app.slot = app.slot === slot ? null : slot; showRefusal(null); render(); }
function clickMeld(id) { app.target = app.target === id ? null : id; showRefusal(null); render(); }

// ------------------------------------------------------------------ drawing
function drawTable(v, key) {
  const o = v.observation || {}; const me = v.seat;
  const mine = me !== null && v.actions.length > 0 && !v.terminal;
  // header: the game and whose turn, no protocol data
  $("game-name").textContent = app.gameName || "";
  const bits = [];
  if (o.round !== undefined) bits.push(`round ${o.round}`);
  if (o.wild_rank !== undefined) bits.push(`${RANKS[o.wild_rank] || o.wild_rank}s are wild`);
  if (o.hand_no !== undefined) bits.push(`hand ${o.hand_no}, trick ${o.trick_no}`);
  if (o.direction !== undefined) bits.push(o.direction === 1 ? "play goes ↻ clockwise" : "play goes ↺ counter-clockwise");
  if (app.practice) bits.push("practice table");
  if (app.hotseatTable) bits.push("hot-seat");
  $("info").textContent = bits.join(" · ");
  // the engine's prompt: what this seat decides now (with the rule), or whose turn it is
  const turn = $("turn");
  turn.className = mine ? "mine" : (v.terminal ? "over" : "");
  const bot = app.seats[v.to_move] && app.seats[v.to_move].kind === "bot";
  turn.textContent = labelText(v.prompt || (v.terminal ? "Game over" : `${whoName(v.to_move)}'s turn`)) + (!mine && !v.terminal && bot ? " — the bot is thinking…" : "");
  drawRecap();
  drawFacts(v.facts || {});
  drawPlayers(v, o);
  drawCenter(v, o);
  drawMelds(v, o);
  drawHand(v, o);
  drawMoves(v, o);
  drawScores(v, o, key);
  drawSummary(v, o);
  drawLog(key);
  $("hint").disabled = !mine;
  $("hint").onclick = () => { send({type: "hint", version: v.version}); app.pendingSend = false; $("hint-text").textContent = "thinking…"; };
  if (!app.hint) $("hint-text").textContent = "";
}

function drawRecap() {
  const box = $("recap"); box.innerHTML = "";
  box.hidden = !app.recap;
  if (!app.recap) return;
  box.append(el("strong", "", app.recap.length ? "Since your last turn:" : "Nothing happened since your last turn."));
  const ul = el("ul"); for (const t of app.recap.slice(-30)) ul.append(el("li", "", t)); box.append(ul);
  const ok = el("button", "", "Got it"); ok.onclick = () => { app.recap = null; render(); }; box.append(ok);
}

function drawFacts(f) {
  // the engine's facts beside the observation: the roll to match, what is to beat and who
  // won the last trick, the best arrangement of the hand, the last-turn warning
  const box = $("facts"); box.innerHTML = "";
  for (const [k, val] of Object.entries(f)) {
    const text = typeof val === "string" && k.endsWith("_text") ? val : (val && typeof val === "object" && typeof val.text === "string" ? val.text : null);
    if (!text) continue;
    const label = k in FACT_LABELS ? FACT_LABELS[k] : k.replace(/_text$/, "").replace(/_/g, " ");
    const d = el("div", "fact" + (label ? "" : " banner")); d.dataset.fact = k;
    if (label) d.append(el("span", "label", label + ": "));
    d.append(el("span", "", labelText(text)));
    if (val && val.dice) { const dice = el("span", "dice", " " + val.dice.map(x => DIE[x] || x).join("")); d.append(dice); }
    box.append(d);
  }
  box.hidden = !box.childElementCount;
}

function lastEvent() {
  const key = app.shownSeat, log = app.logs[key] || [], n = app.played[key] || 0;
  for (let i = n - 1; i >= 0 && i >= n - 60; i--) if (log[i].text) return log[i];
  return null;
}

function drawPlayers(v, o) {
  const row = $("players-row"); row.innerHTML = "";
  const last = lastEvent();
  app.seats.forEach((s, p) => {
    const d = el("div", "player" + (p === v.to_move && !v.terminal ? " to-move" : "") + (last && last.player === p ? " just" : ""));
    d.dataset.seat = p;
    d.append(el("div", "name", `${s.name}${p === v.seat ? " (you)" : ""}${s.kind === "bot" ? " · bot" : ""}${s.connected ? "" : " · away"}`));
    const bits = [];
    if (o.hand_sizes) bits.push(`${o.hand_sizes[p]} card${o.hand_sizes[p] === 1 ? "" : "s"}`);
    if (o.totals) bits.push(`score ${o.totals[p]}`);
    if (o.chips) bits.push(`chips ${o.chips[p]}`);
    if (o.down && o.down[p]) bits.push("down");
    if (o.buys) bits.push(`buys ${o.buys[p]}`);
    if (o.dealer === p) bits.push("dealer");
    if (v.returns) bits.push(resultWord(v.returns, p));
    d.append(el("div", "n", bits.join(" · "))); row.append(d);
  });
}

function drawCenter(v, o) {
  const c = $("center"); c.innerHTML = "";
  const last = lastEvent();
  const justCard = last && (last.card ?? (last.cards && last.cards[0]));
  // a face-down pile (the stock); an empty face-up pile is an empty slot, not a card back
  const pile = (label, card, n, back) => {
    const d = el("div", "pile");
    const ce = back || (card !== null && card !== undefined) ? cardEl(back ? null : card) : el("div", "card empty", "—");
    if (!back && card !== null && card !== undefined && card === justCard) ce.classList.add("just");
    d.append(ce, el("div", "", label + (n !== undefined ? ` (${n})` : ""))); return d;
  };
  if (o.stock_size !== undefined) c.append(pile("stock", null, o.stock_size, true));
  if (o.top_card !== undefined && !(o.up_card !== undefined && o.up_card !== null && o.up_card === o.top_card)) c.append(pile("discard pile", o.top_card, o.discard_pile ? o.discard_pile.length : undefined));
  if (o.up_card !== undefined && o.up_card !== null) c.append(pile("up-card" + (o.discard_pile ? ` (${o.discard_pile.length})` : ""), o.up_card));
  if (o.roll) { const d = el("div", "pile"); d.append(el("div", "dice", DIE[o.roll[0]] + DIE[o.roll[1]]), el("div", "", `rolled ${o.roll[0]}+${o.roll[1]}`)); c.append(d); }
  if (o.challenger !== undefined && o.challenger !== null) c.append(el("div", "pile", `challenge by ${whoName(o.challenger)}`));
  if (o.trick !== undefined) {
    const t = el("div", "pile trick"); t.append(el("div", "", "trick"));
    const cs = el("div", "cards");
    for (const x of (o.trick || [])) {
      // a reserve card taken into the hand is not a play: it shows as taken
      const took = x.kind === "reserve";
      const m = el("div", "meld" + (took ? " took" : "")); m.append(el("span", "tag", whoName(x.player) + (took ? " took reserve" : "")));
      let xi = 0;
      for (const cc of x.cards) {
        const box = el("span", "mc"); box.append(cardEl(cc, {small: true}));
        if (cc === 112 && x.x_values && x.x_values[xi] !== undefined) box.append(el("span", "stands", `= ${x.x_values[xi++]}`));
        m.append(box);
      }
      cs.append(m);
    }
    if (!(o.trick || []).length) cs.append(el("span", "tag", "empty"));
    t.append(cs); c.append(t);
    if (o.pile_size !== undefined) c.append(pile("draw pile", null, o.pile_size, true));
  }
  // the event being shown (paced): who did what, in the engine's words
  const now = $("now"); now.innerHTML = "";
  if (last) {
    now.append(el("span", "", labelText(last.text)));
    const cards = last.cards && Array.isArray(last.cards) ? last.cards : (Number.isInteger(last.card) ? [last.card] : []);
    for (const cc of cards) now.append(cardEl(cc, {small: true}));
  }
  now.hidden = !last;
}

function drawMelds(v, o) {
  const md = $("melds"); md.innerHTML = "";
  const targets = new Set(matchSelection(v).wantTarget.map(a => a.meld));
  // melds as melds (facts): numbered from 1, a wild marked with what it stands for
  const fm = (v.facts && v.facts.melds) || o.melds || [];
  if (fm.length) md.append(el("div", "heading", "Melds on the table"));
  for (const m of fm) {
    const d = el(targets.has(m.id) ? "button" : "div", "meld"); d.dataset.meld = m.id;
    if (targets.has(m.id)) { d.classList.add("target"); d.onclick = () => clickMeld(m.id); }
    if (app.target === m.id) d.classList.add("chosen");
    d.append(el("span", "tag", `meld ${m.number !== undefined ? m.number : m.id + 1}, ${m.kind} · ${whoName(m.owner)}`));
    m.cards.forEach((cc, i) => {
      const box = el("span", "mc"); const ce = cardEl(cc, {small: true}); box.append(ce);
      const sf = m.stands_for && m.stands_for[i];
      if (m.wilds && m.wilds[i]) { ce.classList.add("wild"); const w = sf ? (sf.card_text || RANKS[sf.rank] || String(sf.rank)) : "wild"; box.append(el("span", "stands", `= ${labelText(w)}`)); ce.title += ` (wild: ${w})`; }
      d.append(box);
    });
    if (m.words) d.title = labelText(m.words);
    md.append(d);
  }
  // hands laid down: melds and what is left, with the points
  const laid = (v.facts && v.facts.laid_down) || [];
  laid.forEach((x, p) => {
    if (!x) return;
    const d = el("div", "meld"); d.append(el("span", "tag", `${whoName(p)} laid down`));
    const wild = (cc) => { const ce = cardEl(cc, {small: true}); if (cc === 80 || (o.wild_rank !== undefined && cc < 80 && (cc & 15) === o.wild_rank)) ce.classList.add("wild"); return ce; };
    for (const g of x.melds) { const gm = el("span", "group"); for (const cc of g) gm.append(wild(cc)); d.append(gm); }
    if (x.deadwood.length) { d.append(el("span", "tag", "left:")); for (const cc of x.deadwood) d.append(cardEl(cc, {small: true})); }
    d.append(el("span", "tag", `= ${x.points} points`)); md.append(d);
  });
  if (o.reserves) o.reserves.forEach((r, p) => {
    const d = el("div", "meld reserve"); d.append(el("span", "tag", `${whoName(p)}'s reserve`));
    r.forEach((cc, slot) => {
      if (cc === null) { d.append(el("span", "tag", "—")); return; }
      const ce = cardEl(cc, {small: true});
      const takes = p === v.seat && v.actions.some(a => isGapMove(a) && a.slot === slot);
      if (takes) { ce.classList.add("click", "playable"); ce.dataset.slot = slot; ce.onclick = () => clickSlot(slot); }
      if (p === v.seat && app.slot === slot) ce.classList.add("sel");
      d.append(ce);
    });
    md.append(d);
  });
}

function drawHand(v, o) {
  const h = $("hand"); h.innerHTML = "";
  const drawn = $("drawn"); drawn.innerHTML = "";
  if (!o.hand) { $("hand-title").textContent = v.seat === null ? "Watching (public view)" : ""; return; }
  const layout = {positions: app.fixedHand};
  $("hand-title").textContent = "Your hand" + (layout.positions ? " (its order is fixed: positions from 1)" : "");
  const handMoves = v.actions.filter(isHandMove);
  const inActs = new Set(); for (const a of handMoves) { for (const p of (a.positions || [])) inActs.add("p" + p); if (!a.positions) for (const c of (a.cards || [])) inActs.add("c" + c); }
  const goOut = new Set(); for (const a of v.actions) if (a.kind === "go_out") for (const c of (a.cards || [])) goOut.add(c);
  const gaps = new Set(v.actions.filter(isGapMove).filter(a => a.slot === undefined || a.slot === app.slot).map(a => a.position));
  const wantGap = v.actions.some(a => isGapMove(a) && a.slot === undefined) || app.slot !== null;
  const gap = (i) => {
    if (!wantGap || !gaps.has(i)) return;
    const b = el("button", "gap" + (app.gap === i ? " chosen" : ""), String(i + 1)); b.dataset.gap = i;
    b.title = `put the card at position ${i + 1}`; b.onclick = () => clickGap(i); h.append(b);
  };
  o.hand.forEach((c, i) => {
    gap(i);
    const d = cardEl(c); d.classList.add("click"); d.dataset.pos = i + 1;
    if (o.wild_rank !== undefined && c < 80 && (c & 15) === o.wild_rank) { d.classList.add("wild"); d.title += " (wild this round)"; }
    if (layout.positions) d.classList.add("pos");
    if (inActs.has("p" + i) || inActs.has("c" + c)) d.classList.add("playable");
    if (goOut.has(c)) { d.classList.add("goout"); d.title += " (discard it to go out)"; }
    if (app.sel.includes(i)) d.classList.add("sel");
    if (app.melds.some(m => m.includes(i))) { d.classList.add("inmeld"); d.title += " (in a chosen meld)"; }
    d.onclick = () => clickCard(v, o, i); h.append(d);
  });
  gap(o.hand.length);
  if (o.drawn_card !== null && o.drawn_card !== undefined) { drawn.append(el("span", "", "Drawn card: tap a numbered gap in your hand to put it there "), cardEl(o.drawn_card, {small: true})); }
}

function drawMoves(v, o) {
  const box = $("moves"), phase = $("phase"); box.innerHTML = ""; phase.innerHTML = "";
  const cancel = $("cancel");
  cancel.disabled = !(app.sel.length || app.gap !== null || app.slot !== null || app.target !== null || app.melds.length);
  cancel.onclick = () => { clearSelection(); app.melds = []; showRefusal(null); render(); };
  if (v.terminal) { $("act").hidden = true; return; }
  $("act").hidden = v.seat === null;
  if (!v.actions.length) { box.append(el("span", "wait", v.seat === null ? "" : "Waiting for the others…")); return; }
  const laydown = v.actions.some(a => a.kind === "go_down");
  // phase moves as buttons
  for (const a of v.actions) {
    if (isHandMove(a) || isGapMove(a) || (laydown && a.kind === "go_down")) continue;
    const b = el("button", "move phase", labelText(a.text)); b.dataset.action = a.id; b.dataset.kind = a.kind;
    b.onclick = () => act(a.id); phase.append(b);
  }
  if (laydown) drawLayDown(v, o, box);
  const m = matchSelection(v);
  const chosen = app.sel.length || app.gap !== null;
  if (m.ready.length) {
    if (m.ready.length > 1) box.append(el("span", "say", "Choose one:"));
    for (const a of m.ready.slice(0, 40)) {
      const b = el("button", "move confirm primary", "✔ " + labelText(a.text)); b.dataset.action = a.id; b.dataset.kind = a.kind;
      b.onclick = () => act(a.id); box.append(b);
    }
    if (m.wantTarget.length) box.append(el("span", "say", "or tap an outlined meld to put it there."));
  } else if (m.wantTarget.length) {
    box.append(el("span", "say", "Now tap the meld to put it on (outlined)."));
  } else if (chosen && !laydown) {
    // the engine's reason for a tapped card no move uses (update.card_reasons), else the prompt
    const o = v.observation || {};
    const why = (app.sel.map(p => (v.card_reasons || {})[String((o.hand || [])[p])]).find(Boolean));
    box.append(el("span", "say refusal-hint", why ? labelText(why) : "No legal move with this selection. " + labelText(v.prompt || "")));
  } else if (app.slot !== null) {
    box.append(el("span", "say", "Now tap a numbered gap in your hand to put the reserve card there."));
  } else if (!chosen && (v.actions.some(isHandMove) || v.actions.some(isGapMove))) {
    const gapOnly = !v.actions.some(isHandMove);
    // a reserve card goes in only after it is tapped (moves with a slot); a drawn card at once
    const reserveOnly = v.actions.filter(isGapMove).every(a => a.slot !== undefined);
    box.append(el("span", "say", gapOnly ? (reserveOnly ? "Tap one of your reserve cards, then a numbered gap in your hand to put it there."
                                                        : "Tap a numbered gap in your hand to put the card there.") : "Tap cards in your hand to choose a move" + (v.actions.some(isGapMove) ? ", or a reserve card then a gap." : ".")));
  }
}

function drawLayDown(v, o, box) {
  // going down with whole melds at once (the engine checks the contract)
  const d = el("div", "building"); d.id = "laydown";
  const n = app.melds.length;
  d.append(el("span", "", `Go down: ${n} meld${n === 1 ? "" : "s"} chosen `));
  for (const m of app.melds) { const x = el("span", "meld"); for (const p of m) x.append(cardEl(o.hand[p], {small: true})); d.append(x); }
  const add = el("button", "", "Add meld"); add.id = "add-meld"; add.disabled = !app.sel.length || app.melds.length >= 3;
  add.onclick = () => { app.melds.push([...app.sel]); app.sel = []; showRefusal(null); render(); };
  const go = el("button", "primary", "✔ Go down with these melds"); go.id = "go-down"; go.disabled = !app.melds.length && !app.sel.length;
  go.onclick = () => {
    if (app.sel.length && app.melds.length < 3) { app.melds.push([...app.sel]); app.sel = []; render(); }   // selected cards are a meld too
    const key = app.shownSeat; app.recapFrom[key] = app.logs[key].length;
    send({type: "laydown", melds: app.melds.map(m => m.map(p => o.hand[p])), version: v.version}); app.sel = [];
  };
  const clr = el("button", "", "Clear melds"); clr.onclick = () => { app.melds = []; showRefusal(null); render(); };
  d.append(add, go, clr);
  box.append(d);
}

// the score sheet: every scored round from the events (a seat's points and running total)
function drawScores(v, o, key) {
  const box = $("scores"); box.innerHTML = "";
  const rows = []; let cur = null;
  for (const e of (app.logs[key] || [])) {
    if (typeof e.points !== "number" || typeof e.total !== "number" || !(e.player >= 0)) continue;
    if (!cur || e.player in cur) { cur = {}; rows.push(cur); }
    cur[e.player] = [e.points, e.total];
  }
  box.hidden = !rows.length;
  if (!rows.length) return;
  box.append(el("h3", "", "Score sheet"));
  const t = el("table"); const hr = el("tr"); hr.append(el("th", "", "Round"));
  for (const s of app.seats) hr.append(el("th", "", s.name)); t.append(hr);
  rows.forEach((r, i) => { const tr = el("tr"); tr.append(el("td", "", String(i + 1))); app.seats.forEach((s, p) => tr.append(el("td", "", r[p] ? String(r[p][0]) : "–"))); t.append(tr); });
  const tot = el("tr", "total"); tot.append(el("td", "", "Total"));
  app.seats.forEach((s, p) => { let x = "–"; for (const r of rows) if (r[p]) x = String(r[p][1]); tot.append(el("td", "", x)); });
  t.append(tot); box.append(t);
}

function drawSummary(v, o) {
  const sm = $("summary"); sm.innerHTML = "";
  // the result once the paced story has told the last move (it came before the winning play)
  const key = app.shownSeat, told = (app.played[key] || 0) >= (app.logs[key] || []).length;
  sm.hidden = !v.terminal || !told;
  if (sm.hidden) return;
  sm.append(el("h3", "", "Game over"));
  sm.append(el("div", "winner", labelText(v.prompt || "")));
  if (v.returns) app.seats.forEach((s, p) => sm.append(el("div", "", `${s.name}: ${resultWord(v.returns, p)}${o.totals ? " · score " + o.totals[p] : ""}${o.chips ? " · chips " + o.chips[p] : ""}`)));
  const again = el("button", "primary", "Play again"); again.id = "play-again";
  again.onclick = playAgain; sm.append(again);
}
async function playAgain() {
  let body = null;
  try { body = JSON.parse(sessionStorage.getItem("krazy-req:" + app.table) || "null"); } catch (e) {}
  if (!body) {                               // not this tab's table: the same game and seats
    const t = await (await fetch(`/api/tables/${encodeURIComponent(app.table)}`)).json();
    body = {game: t.game, options: t.options, hotseat: t.hotseat, seats: t.seats.map(s => ({kind: s.kind, bot: s.bot || undefined, name: s.name}))};
  }
  await postTable(body);
}

function drawLog(key) {
  const log = $("log"); log.innerHTML = "";
  // the same line again (a hidden deal, card after card) is one line with a count
  const lines = [], n = app.played[key] || 0;
  for (const e of (app.logs[key] || []).slice(Math.max(0, n - 400), n)) {
    if (e.text === null || e.text === undefined) continue;    // bookkeeping: the engine says no line
    const t = labelText(e.text), last = lines[lines.length - 1];
    if (last && last[0] === t) last[1]++; else lines.push([t, 1]);
  }
  for (const [t, k] of lines.slice(-80).reverse()) log.append(el("li", "", k > 1 ? `${t} ×${k}` : t));   // newest first
}

// ------------------------------------------------------------------ pacing the others' moves
// Each update's events are shown one at a time (the board is already the latest): the
// sentence, who did it and the card are highlighted. The player's own moves show at once.
function pace() {
  if (app.pacer) return;
  const step = () => {
    app.pacer = null;
    const key = app.shownSeat; const log = app.logs[key] || [];
    let n = app.played[key] || 0;
    if (n >= log.length) return;
    const wait = speed();
    if (!wait) n = log.length;
    else { while (n < log.length && !log[n].text) n++; if (n < log.length) n++; }
    // bookkeeping and the player's own moves go by at once
    const seat = app.views[key] ? app.views[key].seat : null;
    while (n < log.length && (!log[n].text || log[n].player === seat)) n++;
    app.played[key] = n;
    const v = app.views[key];
    if (v && !$("table").hidden) {
      drawLog(key); drawPlayers(v, v.observation || {}); drawCenter(v, v.observation || {});
      if (n >= log.length) drawSummary(v, v.observation || {});
    }
    if (n < log.length) app.pacer = setTimeout(step, wait);
  };
  app.pacer = setTimeout(step, 0);
}

// ------------------------------------------------------------------ start
$("theme").onclick = () => { document.documentElement.classList.toggle("dark"); localStorage.setItem("krazy:dark", document.documentElement.classList.contains("dark") ? "1" : ""); };
if (localStorage.getItem("krazy:dark")) document.documentElement.classList.add("dark");
for (const [name, ms] of SPEEDS) { const op = el("option", "", name); op.value = ms; $("speed").append(op); }
$("speed").value = String(speed());
$("speed").onchange = () => { localStorage.setItem("krazy:speed", $("speed").value); pace(); };
$("rules-open").onclick = openRules;
$("rules-close").onclick = () => { $("rules").hidden = true; };
function route() {
  for (const ws of Object.values(app.conns)) { try { ws.onclose = null; ws.close(); } catch (e) {} }
  if (app.pacer) { clearTimeout(app.pacer); app.pacer = null; }
  Object.assign(app, {conns: {}, views: {}, logs: {}, played: {}, shownSeat: null, unlocked: null, sel: [], target: null, gap: null, slot: null, melds: [], single: null, error: null, recapFrom: {}, recap: null});
  showRefusal(null);
  const p = hashParams();
  $("rules-open").hidden = !p.table;
  if (p.table && p.invite) claimInvite(p); else if (p.table) startTable(p); else { drawLinks([]); lobby(); }
}
window.addEventListener("hashchange", route);
route();
