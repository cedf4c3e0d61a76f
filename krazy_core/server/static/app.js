// krazy_core browser table: plain JS, no build step. Talks to krazy serve over one
// WebSocket per seat (schemas/protocol.json); a seat's token goes in the socket's first
// message, never in a URL the server sees. Hot-seat: this device holds several seats' tokens
// and hides each hand until its owner taps "Take the seat"; otherwise the creator holds its
// own seat and invite links, and an invitee's token is minted when it opens its link.
"use strict";
const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
// the game's words (moves, prompts, reasons, the narrated log, the table's facts) come from
// the engine in every message (State.describe_action/prompt/explain/narrate_event/facts):
// this page shows them, it never writes its own
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
  conns: {}, views: {}, logs: {}, shownSeat: null, unlocked: null, sel: [], melds: [], spectator: null,
};

// the engine's texts count seats, melds and hand positions from 1 already; the Joker is a
// word here (fonts without the 🃏 glyph)
function labelText(t) { return String(t).replace(/🃏/g, "Joker"); }
function hashParams() { const p = new URLSearchParams(location.hash.slice(1)); return Object.fromEntries(p.entries()); }
// the game's result in words (the returns are 1 for a win, shares on a tie; KrassKariert's
// one loser gets the least, KA-15), not the raw numbers ("result 0", "Me: 1")
function plural(n, w) { return `${n} ${w}${n === 1 ? "" : "s"}`; }
function resultWord(ret, p) {
  const hi = Math.max(...ret), lo = Math.min(...ret), tops = ret.filter(x => x === hi).length;
  if (hi === lo) return "tied";
  if (app.game === "krass-kariert") return ret[p] === lo ? "lost" : "not the loser";
  return ret[p] === hi ? (tops > 1 ? "tied for the win" : "won") : "lost";
}
function outcomeWords(ret) {
  const names = (x) => app.seats.filter((s, p) => ret[p] === x).map(s => s.name);
  const hi = Math.max(...ret), lo = Math.min(...ret);
  if (hi === lo) return "A tie";
  if (app.game === "krass-kariert") return `${names(lo).join(", ")} lost`;
  const w = names(hi); return w.length > 1 ? "Tied: " + w.join(", ") : `${w[0]} wins`;
}
function setStatus(t) { $("status").textContent = t; }
function clearError() { if (app.error) { app.error = null; setStatus("connected"); } }

// ------------------------------------------------------------------ lobby
async function lobby() {
  show("lobby");
  const info = await (await fetch("/api/games")).json();
  app.gameInfo = info;
  const sel = $("game"); sel.innerHTML = "";
  for (const g of info.games) { const o = el("option", "", g.name); o.value = g.id; sel.append(o); }
  sel.onchange = () => { const g = info.games.find(x => x.id === sel.value); $("players").min = g.min_players; $("players").max = g.max_players; $("players").value = g.default_players; seatRows(); };
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
// the seat rows follow the Players box as it is typed in: rows are added or removed at the
// end, never rebuilt (a click on a name box was lost when a blur rebuilt every row), and the
// count stays in the game's range
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
  const body = {game: $("game").value, seats, think: +$("think").value, hotseat: $("hotseat").checked};
  const res = await fetch("/api/tables", {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
  const j = await res.json();
  if (!res.ok) { setStatus(j.error); return; }
  // the creator's tokens: every human seat of a hot-seat table, else its own seat only (the
  // others get invite links, their tokens minted when the invitees open them)
  const tokens = {}; for (const s of j.seats) if (s.token) tokens[s.seat] = s.token;
  sessionStorage.setItem("krazy:" + j.table, JSON.stringify(tokens));
  // the per-seat links show on the table page (in the lobby they were hidden at once by the
  // move to the table, a fresh user's find): kept with the tokens, for this tab only
  const others = j.hotseat ? j.seats : j.seats.filter(s => !s.token);
  sessionStorage.setItem("krazy-links:" + j.table, JSON.stringify(others.map(s => [s.name, s.url])));
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
  if (m.type === "hello") { app.game = m.game; app.gameName = m.name; app.seats = m.seats; app.logs[key] = []; app.practice = m.practice; app.hotseatTable = m.hotseat; return; }
  if (m.type === "seats") { app.seats = m.seats; render(); return; }
  if (m.type === "update") {
    if (m.first_event === 0) app.logs[key] = [];
    const was = app.views[key], hand = (v) => JSON.stringify(v && v.observation && v.observation.hand);
    // positions of another hand (key is a number, shownSeat a string: compare as strings)
    if (app.melds.length && String(key) === String(app.shownSeat) && hand(was) !== hand(m)) app.melds = [];
    app.logs[key].push(...m.events); app.views[key] = m; app.seats = m.seats;
    clearError();                       // a refusal is answered by the next move
    app.hint = null; render(); return;
  }
  if (m.type === "error") { app.error = m; setStatus(`${m.code}: ${labelText(m.reason)}`); if (m.code === "illegal") render(); return; }
  if (m.type === "hint") { app.hint = m.action; $("hint-text").textContent = "Hint: " + labelText(m.action.text); highlightHint(); return; }
}
function send(msg) {
  const ws = app.conns[app.shownSeat]; if (!ws) return;
  ws.send(JSON.stringify(msg));
}
function act(id) { const v = app.views[app.shownSeat]; app.sel = []; send({type: "action", action: id, version: v.version}); }

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
  const box = $("link-list"); box.innerHTML = ""; $("links").hidden = !links.length;
  for (const [name, url] of links) { const p = el("p"); const a = el("a", "seat-link", `${name}: ${url}`); a.href = url; p.append(a); box.append(p); }
  show("table");
  if (params.token) connect(-1, params.token);   // one seat; its number comes in hello
  const seats = Object.keys(tokens).map(Number);
  for (const s of seats) connect(s, tokens[s]);
  if (!params.token && seats.length === 0) connect(null, null);
  app.hotseat = seats.length > 1;
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

function render() {
  const key = chooseSeat(); if (key === null) return;
  const prev = app.shownSeat; app.shownSeat = key;
  const v = app.views[key]; if (!v) return;
  if (prev !== key) app.sel = [];
  // hot-seat: hide the table until the seat to move is taken on this device
  if (app.hotseat && app.unlocked !== key && !v.terminal) {
    show("handover");
    const name = app.seats[+key] ? app.seats[+key].name : `Seat ${+key + 1}`;
    $("handover-text").textContent = `Pass the device to ${name}. The hand stays hidden until ${name} taps below.`;
    $("take-seat").onclick = () => { app.unlocked = key; show("table"); render(); };
    return;
  }
  show("table");
  drawTable(v, key);
}

function show(which) { for (const s of ["lobby", "handover", "table"]) $(s).hidden = s !== which; }

// ------------------------------------------------------------------ drawing
function drawTable(v, key) {
  const o = v.observation || {}; const g = app.game; const me = v.seat;
  const dirText = o.direction === undefined ? "" : (o.direction === 1 ? " · direction ↻ clockwise" : " · direction ↺ counter-clockwise");
  const whoName = (p) => app.seats[p] ? app.seats[p].name : `Seat ${p + 1}`;
  let info = `${app.gameName || g} · table ${app.table}`;
  if (o.round !== undefined) info += ` · round ${o.round}` + (o.wild_rank !== undefined ? ` · wild rank ${RANKS[o.wild_rank] || o.wild_rank}` : "");
  if (o.hand_no !== undefined) info += ` · hand ${o.hand_no}, trick ${o.trick_no}`;
  info += dirText;
  if (app.practice) info += " · practice table (its seed was chosen)";
  if (app.hotseatTable) info += " · hot-seat table";
  info += v.terminal ? " · game over" : ` · to move: ${whoName(v.to_move)}` + (me !== null && v.to_move === me ? " (you)" : "");
  $("info").textContent = info;
  const turn = $("turn");
  const mine = me !== null && v.to_move === me && !v.terminal;
  turn.className = mine ? "mine" : (v.terminal ? "over" : "");
  // the engine's prompt: what this seat decides now, with the rule (a buy offer out of turn
  // says whose turn it is), or whose turn it is
  turn.textContent = v.terminal ? "Game over" : mine ? labelText(v.prompt || "Your turn")
    : `${whoName(v.to_move)}'s turn` + (app.seats[v.to_move] && app.seats[v.to_move].kind === "bot" ? " — the bot is thinking…" : "");
  drawFacts(v.facts || {});
  // players
  const row = $("players-row"); row.innerHTML = "";
  app.seats.forEach((s, p) => {
    const d = el("div", "player" + (p === v.to_move && !v.terminal ? " to-move" : ""));
    d.dataset.seat = p;
    d.append(el("div", "", `${s.name}${p === me ? " (you)" : ""}${s.kind === "bot" ? " · bot " + s.bot : ""}${s.connected ? "" : " · away"}`));
    const bits = [];
    if (o.hand_sizes) bits.push(plural(o.hand_sizes[p], "card"));
    const total = o.totals || (g === "kings-rummy" ? o.scores : null);   // Kings Rummy: totals is scores
    if (total) bits.push(`score ${total[p]}`);
    if (o.chips) bits.push(`chips ${o.chips[p]}`);
    if (o.down && o.down[p]) bits.push("down");
    if (o.buys) bits.push(`buys ${o.buys[p]}`);
    if (o.dealer === p) bits.push("dealer");
    if (v.returns) bits.push(resultWord(v.returns, p));
    d.append(el("div", "n", bits.join(" · "))); row.append(d);
  });
  // center
  const c = $("center"); c.innerHTML = "";
  // back: a face-down pile (the stock); an empty face-up pile is an empty slot, not a card back
  const pile = (label, card, n, back) => { const d = el("div", "pile"); d.append(back || (card !== null && card !== undefined) ? cardEl(back ? null : card) : el("div", "card empty", "—")); d.append(el("div", "", label + (n !== undefined ? ` (${n})` : ""))); return d; };
  if (o.stock_size !== undefined) c.append(pile("stock", null, o.stock_size, true));
  // Crazy Rummy: the pile's top is the up-card while it is on offer; show it once
  if (o.top_card !== undefined && !(o.up_card !== undefined && o.up_card !== null && o.up_card === o.top_card)) c.append(pile("top card", o.top_card, o.discard_pile ? o.discard_pile.length : undefined));
  if (o.up_card !== undefined && o.up_card !== null) c.append(pile((o.phase === "buy_or_pass" ? "up-card: buy offer" : "up-card") + (o.discard_pile ? ` (${o.discard_pile.length})` : ""), o.up_card));
  if (o.roll) { const d = el("div", "pile"); d.append(el("div", "dice", DIE[o.roll[0]] + DIE[o.roll[1]]), el("div", "", `dice ${o.roll[0]}+${o.roll[1]}`)); c.append(d); }
  if (o.open_roll) c.append(el("div", "pile", `open roll ${o.open_roll.join("+")}`));
  if (o.challenger !== undefined && o.challenger !== null) c.append(el("div", "pile", `challenge by ${whoName(o.challenger)}`));
  if (o.phase) c.append(el("div", "pile", `phase: ${o.phase.replace(/_/g, " ")}`));
  if (g === "krass-kariert") {
    const t = el("div", "pile"); t.append(el("div", "", "trick"));
    const cs = el("div", "cards"); for (const x of (o.trick || [])) { const m = el("div", "meld"); m.append(el("span", "tag", whoName(x.player))); for (const cc of x.cards) m.append(cardEl(cc, {small: true})); cs.append(m); }
    t.append(cs); c.append(t);
    if (o.pile_size !== undefined) c.append(pile("draw pile", null, o.pile_size, true));
  }
  // melds
  const md = $("melds"); md.innerHTML = "";
  // melds as melds (facts): each with its number from 1 and its words, a wild marked with
  // what it stands for (CR-2); hands laid down as melds and leftovers (KR-12)
  const fm = (v.facts && v.facts.melds) || o.melds || [];
  if (fm.length) { md.append(el("div", "", "Melds on the table")); for (const m of fm) { const d = el("div", "meld"); d.dataset.meld = m.id; d.append(el("span", "tag", `meld ${m.number !== undefined ? m.number : m.id + 1}, ${m.kind} · ${whoName(m.owner)}`)); m.cards.forEach((cc, i) => { const ce = cardEl(cc, {small: true}); const sf = m.stands_for && m.stands_for[i]; if (m.wilds && m.wilds[i]) { ce.classList.add("wild"); ce.title += sf ? ` (wild: ${sf.card_text || "rank " + sf.rank})` : " (wild)"; } d.append(ce); }); if (m.words) d.title = labelText(m.words); md.append(d); } }
  const laid = (v.facts && v.facts.laid_down) || [];
  laid.forEach((x, p) => { if (x) { const d = el("div", "meld"); d.append(el("span", "tag", `${whoName(p)} laid down`)); for (const g of x.melds) { const gm = el("span", "group"); for (const cc of g) gm.append(cardEl(cc, {small: true})); d.append(gm); } if (x.deadwood.length) { d.append(el("span", "tag", "left:")); for (const cc of x.deadwood) d.append(cardEl(cc, {small: true})); } d.append(el("span", "tag", `= ${x.points}`)); md.append(d); } });
  if (o.reserves) o.reserves.forEach((r, p) => { const d = el("div", "meld"); d.append(el("span", "tag", `${whoName(p)} reserve`)); for (const cc of r) d.append(cc === null ? el("span", "tag", "—") : cardEl(cc, {small: true})); md.append(d); });
  // my hand and moves
  drawHand(v, o);
  drawMoves(v, o);
  // summary
  const sm = $("summary"); sm.hidden = true;
  if (v.terminal) { sm.hidden = false; sm.innerHTML = ""; sm.append(el("h3", "", "Game over"));
    if (v.returns) sm.append(el("div", "winner", outcomeWords(v.returns))); app.seats.forEach((s, p) => sm.append(el("div", "", `${s.name}: ${v.returns ? resultWord(v.returns, p) : ""}${(o.totals || (g === "kings-rummy" && o.scores)) ? " · score " + (o.totals || o.scores)[p] : ""}${o.chips ? " · chips " + o.chips[p] : ""}`))); }
  else if (o.last_round) { sm.hidden = false; sm.innerHTML = ""; sm.append(el("div", "", `Round ${o.last_round.round}: ` + o.last_round.points.map((x, p) => `${whoName(p)} ${x}`).join(", "))); }
  else if (o.scores && g === "contract-rummy" && o.scores.length) { const last = o.scores[o.scores.length - 1]; sm.hidden = false; sm.textContent = `Round ${last[0]} scores: ` + last[1].map((x, p) => `${whoName(p)} ${x}`).join(", "); }
  // log
  const log = $("log"); log.innerHTML = "";
  // the same line again (a hidden deal, card after card) is one line with a count
  const lines = [];
  for (const e of (app.logs[key] || []).slice(-400)) {
    const t = e.text === null || e.text === undefined ? null : labelText(e.text), last = lines[lines.length - 1];
    if (t === null) continue;           // bookkeeping (a card dealt, a turn starting): the engine says no line
    if (last && last[0] === t) last[1]++; else lines.push([t, 1]);
  }
  for (const [t, n] of lines.slice(-60)) log.append(el("li", "", n > 1 ? `${t} ×${n}` : t));
  log.scrollTop = log.scrollHeight;
  $("hint").disabled = !(v.actions && v.actions.length);
  $("hint").onclick = () => { send({type: "hint", version: v.version}); $("hint-text").textContent = "thinking…"; };
  if (!app.hint) $("hint-text").textContent = "";
}

function drawFacts(f) {
  // what the table shows beside the observation, from the engine (State.facts): the roll to
  // match, what is to beat and who won the last trick, the best arrangement of the hand
  const box = $("facts"); if (!box) return; box.innerHTML = "";
  const lines = [];
  if (f.to_match) lines.push("To match: " + f.to_match.text);
  if (f.to_beat) lines.push("To beat: " + f.to_beat.text);
  if (f.last_trick_text) lines.push("Last trick: " + f.last_trick_text);
  if (f.arrangement_text) lines.push("Best now: " + f.arrangement_text);
  if (f.last_turn_text) lines.push(f.last_turn_text);
  if (f.contract_text) lines.push("Contract: " + f.contract_text);
  for (const t of lines) box.append(el("div", "", labelText(t)));
  box.hidden = !lines.length;
}

function drawHand(v, o) {
  const h = $("hand"); h.innerHTML = ""; $("reserve").innerHTML = "";
  if (!o.hand) { $("hand-title").textContent = v.seat === null ? "Watching (public view)" : ""; return; }
  const fixed = app.game === "krass-kariert";
  $("hand-title").textContent = "Your hand" + (fixed ? " (fixed order: select 1–3 adjacent cards)" : "") + (app.game === "contract-rummy" && canGoDown(v) ? " — select a meld's cards, then Add meld" : "");
  const inActs = new Set(); for (const a of v.actions) for (const c of (a.cards || [])) inActs.add(c);
  o.hand.forEach((c, i) => {
    const d = cardEl(c); d.classList.add("click");
    if (o.wild_rank !== undefined && c < 80 && (c & 15) === o.wild_rank) { d.classList.add("wild"); d.title += " (wild this round)"; } d.dataset.pos = i + 1; if (fixed) d.classList.add("pos");   // positions from 1, as the moves' texts
    if (inActs.has(c)) d.classList.add("playable");
    if (app.sel.includes(i)) d.classList.add("sel");
    if (app.melds.some(m => m.includes(i))) { d.classList.add("inmeld"); d.title += " (in a chosen meld)"; }
    d.onclick = () => clickCard(v, o, i); h.append(d);
  });
  if (o.drawn_card !== null && o.drawn_card !== undefined) { const r = $("reserve"); r.append(el("span", "", "Drawn card to insert: "), cardEl(o.drawn_card, {small: true})); }
}

function canGoDown(v) { return v.actions.some(a => a.kind === "go_down"); }

function clickCard(v, o, i) {
  if (app.game === "krass-kariert") {
    const s = app.sel;
    if (s.includes(i)) app.sel = (i === s[0] || i === s[s.length - 1]) ? s.filter(x => x !== i) : [i];
    else if (s.length && s.length < 3 && (i === s[0] - 1 || i === s[s.length - 1] + 1)) app.sel = [...s, i].sort((a, b) => a - b);
    else app.sel = [i];
  } else {
    if (app.melds.some(m => m.includes(i))) return;            // already in a chosen meld
    app.sel = app.sel.includes(i) ? app.sel.filter(x => x !== i) : [...app.sel, i];
    const cards = app.sel.map(p => o.hand[p]);
    let match = v.actions.filter(a => a.cards && a.cards.length === 1 && cards.length === 1 && a.cards[0] === cards[0] && ["play", "discard"].includes(a.kind));
    // a play that leaves one card calls "last card" (KK-19): the card itself never plays the trap
    if (match.some(a => a.announce)) match = match.filter(a => a.announce);
    if (match.length === 1 && !(app.game === "contract-rummy" && canGoDown(v))) { act(match[0].id); return; }
  }
  render();
}

function drawMoves(v, o) {
  const box = $("moves"); box.innerHTML = "";
  if (v.terminal) return;
  if (!v.actions.length) { box.append(el("span", "", v.seat === null ? "" : "Waiting for others…")); return; }
  let acts = v.actions;
  if (app.sel.length && o.hand) {
    if (app.game === "krass-kariert") acts = acts.filter(a => a.positions && a.positions.join() === app.sel.join());
    else { const cards = app.sel.map(p => o.hand[p]); acts = acts.filter(a => a.cards && cards.every(c => a.cards.includes(c))); }
  }
  if (app.game === "contract-rummy" && canGoDown(v)) drawLayDown(v, o, box);
  const shown = acts.slice(0, 80);
  for (const a of shown) {
    const b = el("button", "move", labelText(a.text)); b.dataset.action = a.id; b.dataset.kind = a.kind;
    b.onclick = () => act(a.id); box.append(b);
  }
  if (app.sel.length) { const b = el("button", "", "clear selection"); b.onclick = () => { app.sel = []; render(); }; box.append(b); }
  highlightHint();
}

function drawLayDown(v, o, box) {
  // Crazy Rummy (CR-10): choose whole melds, then go down with all of them at once
  const d = el("div", "building"); d.id = "laydown";
  // app.melds: each chosen meld as positions in the hand, so a card goes in one meld only; kept
  // when the server refuses them (its reason shows here), gone when the hand changes
  const n = app.melds.length;
  d.append(el("span", "", `Go down: ${n} meld${n === 1 ? "" : "s"} chosen `));
  for (const m of app.melds) { const x = el("span", "meld"); for (const p of m) x.append(cardEl(o.hand[p], {small: true})); d.append(x); }
  const add = el("button", "", "Add meld"); add.id = "add-meld"; add.disabled = !app.sel.length || app.melds.length >= 3;   // a contract is at most 3 melds (CR-4)
  add.onclick = () => { app.melds.push([...app.sel]); app.sel = []; app.layMode = true; clearError(); render(); };
  const go = el("button", "primary", "Go down with these melds"); go.id = "go-down"; go.disabled = !app.melds.length && !app.sel.length;
  go.onclick = () => {
    // cards selected but not added are a meld too (they were dropped without a word)
    if (app.sel.length && app.melds.length < 3) { app.melds.push([...app.sel]); app.sel = []; render(); }
    send({type: "laydown", melds: app.melds.map(m => m.map(p => o.hand[p])), version: v.version}); app.sel = [];
  };
  const clr = el("button", "", "Clear melds"); clr.onclick = () => { app.melds = []; app.layMode = false; clearError(); render(); };
  d.append(add, go, clr);
  if (app.error && app.error.code === "illegal") { const w = el("div", "refusal", labelText(app.error.reason)); w.id = "laydown-refusal"; d.append(w); }
  box.append(d);
}

function highlightHint() {
  if (!app.hint) return;
  for (const b of document.querySelectorAll("#moves button.move")) b.classList.toggle("primary", +b.dataset.action === app.hint.id);
}

// ------------------------------------------------------------------ start
$("theme").onclick = () => { document.documentElement.classList.toggle("dark"); localStorage.setItem("krazy:dark", document.documentElement.classList.contains("dark") ? "1" : ""); };
if (localStorage.getItem("krazy:dark")) document.documentElement.classList.add("dark");
function route() {
  for (const ws of Object.values(app.conns)) { try { ws.onclose = null; ws.close(); } catch (e) {} }
  Object.assign(app, {conns: {}, views: {}, logs: {}, shownSeat: null, unlocked: null, sel: [], melds: [], single: null, error: null});
  const p = hashParams();
  if (p.table && p.invite) claimInvite(p); else if (p.table) startTable(p); else lobby();
}
window.addEventListener("hashchange", route);
route();
