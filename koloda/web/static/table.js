// The table page: one socket to the server, which sends this seat's view after every change; the
// page draws it and turns clicks into the compact spelling's tokens (only the choices the server
// sent are clickable). Nothing here knows any game: it draws piles, grids, melds and values.
"use strict";
const ROOM = decodeURIComponent(location.pathname.split("/").pop());
const TOKEN = decodeURIComponent(location.hash.slice(1));
const REPLAY = location.pathname.startsWith("/replay/");     // a transcript stepped through
let viewer = TOKEN || "all", at = 0;
let socket = null;
let last = null;          // the last table message
let picked = null;        // a card clicked whose move still needs a place
let endedSeen = -1;       // the last deal whose summary this page has closed

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/${REPLAY ? "ws-replay" : "ws"}/${encodeURIComponent(ROOM)}`);
  socket.addEventListener("open", () => {
    document.getElementById("connection").hidden = true;
    if (REPLAY) show(at);
    else send({ type: "hello", token: TOKEN, lang: LANG });
  });
  socket.addEventListener("message", (event) => {
    let data;
    try { data = JSON.parse(event.data); } catch (e) { return; }
    if (data.type === "table") { last = data; picked = null; notice(""); draw(data); }
    else if (data.type === "refused" || data.type === "error") notice(data.text);
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4403 || event.code === 4404) return;       // no seat here: retrying will not help
    const box = document.getElementById("connection");
    box.textContent = word("reconnecting");
    box.hidden = false;
    setTimeout(connect, 1000);
  });
}

function show(k) {
  send({ type: "show", viewer: viewer, at: k, lang: LANG });
}

// a replay's controls: step, jump to a deal's start, see as one seat or with every card shown
function drawReplay(m) {
  const box = document.getElementById("replay");
  box.hidden = !m.replay;
  if (!m.replay) return;
  const r = m.replay;
  at = r.at;
  viewer = r.viewer;
  document.getElementById("position").textContent = ` ${r.at} / ${r.total} `;
  const select = document.getElementById("viewer");
  if (select.options.length !== r.viewers.length) {
    select.replaceChildren(...r.viewers.map((v) => {
      const o = el("option", null, v === "all" ? word("every-card") : v === "watch" ? word("watching") : v);
      o.value = v;
      return o;
    }));
  }
  select.value = r.viewer;
  const deals = document.getElementById("deals");
  deals.replaceChildren(...r.deals.map((d) => {
    const b = el("button", "deal" + (d.at <= r.at ? " passed" : ""), `${word("deal")} ${d.deal}`);
    b.addEventListener("click", () => show(d.at));
    return b;
  }));
}

function notice(text) {
  document.getElementById("notice").textContent = text || "";
}

// ------------------------------------------------------------ drawing
function draw(m) {
  const t = m.table;
  document.getElementById("title").textContent = t.title;
  document.title = t.title + " · koloda";
  const you = m.seat >= 0 ? "P" + (m.seat + 1) : word("watching");
  let status = `${word("deal")} ${t.deal} · ${word("dealer")} ${seatName(t.dealer, m.seat)} · `;
  if (t.terminal) status += word("game-over");
  else status += t.current === m.seat ? word("your-turn") : `${seatName(t.current, m.seat)} ${word("to-move")}`;
  document.getElementById("status").textContent = status;
  drawSeats(m, you);
  const tokens = m.moves ? m.moves.tokens : [];
  const byCard = new Map(), byZone = new Map();
  for (const tok of tokens) {
    if (tok.card !== undefined) { if (!byCard.has(tok.card)) byCard.set(tok.card, []); byCard.get(tok.card).push(tok); }
    else if (tok.zone !== undefined) { if (!byZone.has(tok.zone)) byZone.set(tok.zone, []); byZone.get(tok.zone).push(tok); }
  }
  const ctx = { m, byCard, byZone, shown: new Set() };
  const others = document.getElementById("others"), shared = document.getElementById("shared"),
    mine = document.getElementById("mine");
  others.replaceChildren(); shared.replaceChildren(); mine.replaceChildren();
  for (const pile of t.piles) {
    const box = pileElement(pile, ctx);
    (pile.owner === null ? shared : pile.mine ? mine : others).append(box);
  }
  const grids = document.getElementById("grids");
  grids.replaceChildren(...t.grids.map((g) => gridElement(g, ctx)));
  drawMelds(t, ctx);
  drawValues(t);
  const log = document.getElementById("log");
  log.replaceChildren(...m.log.map((line) => el("li", null, line)));
  log.scrollTop = log.scrollHeight;
  drawTurn(m, ctx);
  drawReplay(m);
  drawEnded(m);
  drawResult(m);
  document.body.dataset.drawn = String(Number(document.body.dataset.drawn || 0) + 1);   // for tests to wait on
}

function seatName(p, seat) {
  if (p === null || p === undefined) return "";
  return p === seat ? word("you") : "P" + (p + 1);
}

function drawSeats(m, you) {
  const box = document.getElementById("seats");
  box.replaceChildren();
  for (const [i, s] of m.seats.entries()) {
    let text = `${s.label} · ${s.kind === "person" ? word("person") : s.kind}` + (s.you ? ` (${word("you")})` : "");
    if (s.standin) text += ` · ${word("standin", { bot: s.standin })}`;
    else if (s.present === false) text += ` · ${word("away")}`;
    box.append(el("span", "seat" + (s.you ? " you" : "") + (m.table.current === i ? " current" : ""), text));
  }
  if (m.seat < 0) box.append(el("span", "seat", word(m.host ? "host" : "watching")));
  drawHost(m);
}

// the host's page: a bot may stand in for a person who has left, and hand the seat back
function drawHost(m) {
  const box = document.getElementById("host");
  box.hidden = !m.host;
  box.replaceChildren();
  if (!m.host) return;
  box.append(el("h2", null, word("standins")));
  for (const s of m.seats) {
    if (s.kind !== "person") continue;
    const row = el("div", "standin");
    row.append(el("span", null, s.label + (s.present ? "" : ` (${word("away")})`) + " "));
    const choice = el("select");
    choice.dataset.seat = s.seat;
    for (const k of ["person", "random", "greedy", "ismcts"]) {
      const o = el("option", null, k === "person" ? word("person") : k);
      o.value = k;
      choice.append(o);
    }
    choice.value = s.standin ? s.standin.split(":")[0] : "person";
    choice.addEventListener("change", () =>
      send({ type: "standin", seat: s.seat, bot: choice.value === "person" ? null : choice.value }));
    row.append(choice);
    box.append(row);
  }
}

function ownerTitle(owner, label) {
  if (owner === null) return label;
  return owner === "you" ? `${word("you")} · ${label}` : `${owner} · ${label}`;
}

function pileElement(pile, ctx) {
  const box = el("div", "pile" + (pile.mine ? " mine" : ""));
  box.dataset.zone = pile.zone;
  box.append(el("div", "label", ownerTitle(pile.owner, pile.label)));
  const row = el("div", "cards" + (pile.mine ? " fan" : ""));
  if (pile.cards) {
    if (!pile.cards.length) row.append(el("span", "empty", word("empty")));
    pile.cards.forEach((name, i) => {
      const holder = el("span", "slot");
      holder.append(clickable(cardElement(name), name, ctx, pile.mine));
      if (pile.by && pile.by[i] !== null && i >= pile.recent) holder.append(el("span", "by", pile.by[i]));
      row.append(holder);
    });
    if (pile.owner === null && pile.size > 1 && !pile.by) row.append(el("span", "size", `(${pile.size})`));
  } else if (pile.top !== undefined) {
    row.append(clickable(cardElement(pile.top), pile.top, ctx, false));
    if (pile.size > 1) row.append(el("span", "size", `${word("on-top-of")} ${pile.size - 1}`));
  } else if (pile.size > 0) {
    row.append(countElement(pile.size));
  } else {
    row.append(el("span", "empty", word("empty")));
  }
  box.append(row);
  zoneClicks(box, pile.zone, ctx);
  return box;
}

function gridElement(g, ctx) {
  const box = el("div", "grid");
  box.append(el("div", "label", ownerTitle(g.owner, g.label)));
  const table = el("div", "cells");
  for (const row of g.rows) {
    const line = el("div", "row");
    for (const cell of row) {
      const c = el("div", "cell");
      c.dataset.zone = cell.zone;
      if (cell.size === 0) c.append(el("span", "rank", cell.rank || "·"));
      else if (!cell.open) c.append(countElement(cell.size));
      else c.append(clickable(cardElement(cell.top, true), cell.top, ctx, false));
      if (cell.size > 1) c.append(el("span", "under", "+" + (cell.size - 1)));
      zoneClicks(c, cell.zone, ctx);
      line.append(c);
    }
    table.append(line);
  }
  box.append(table);
  return box;
}

function drawMelds(t, ctx) {
  const box = document.getElementById("melds");
  box.replaceChildren();
  const owners = new Map();
  for (const meld of t.melds) {
    if (!owners.has(meld.owner)) owners.set(meld.owner, []);
    owners.get(meld.owner).push(meld);
  }
  for (const [owner, melds] of owners) {
    const group = el("div", "meld-group");
    group.append(el("div", "label", ownerTitle(owner, word("melds"))));
    for (const meld of melds) {
      const line = el("div", "meld");
      line.dataset.zone = meld.zone;
      line.append(el("span", "number", `${meld.number} ${meld.kind || ""}`));
      for (const name of meld.cards) line.append(cardElement(name, true));
      zoneClicks(line, meld.zone, ctx);
      group.append(line);
    }
    box.append(group);
  }
}

function drawValues(t) {
  const box = document.getElementById("values");
  box.replaceChildren();
  const shared = t.vars.filter((v) => v.owner === null);
  const owned = new Map();
  for (const v of t.vars) if (v.owner !== null) {
    if (!owned.has(v.label)) owned.set(v.label, []);
    owned.get(v.label).push(v);
  }
  for (const v of shared) box.append(el("div", "value", `${v.label}: ${v.value}`));
  for (const [label, vs] of owned) box.append(el("div", "value", `${label}: ` + vs.map((v) => `${v.owner} ${v.value}`).join(", ")));
  for (const s of t.show) box.append(el("div", "value", `${s.label}: ${Array.isArray(s.value) ? s.value.join(" ") : s.value}`));
  const said = document.getElementById("said");
  said.replaceChildren(...t.said.map((s) => el("div", "said", "» " + (typeof s === "string" ? s : s.text || JSON.stringify(s)))),
    ...t.facts.map((f) => el("div", "fact", f)));
}

// a card the seat may click: it stands for the tokens naming it; a card of one's own hand that
// names none is asked about, so the page can say why it cannot be played
function clickable(elem, name, ctx, own) {
  if (name === null || name === undefined) return elem;
  const card = String(name).split("=")[0];
  const toks = ctx.byCard.get(card);
  if (toks) {
    ctx.shown.add(card);
    elem.classList.add("choice");
    if (picked === card) elem.classList.add("picked");
    elem.addEventListener("click", () => chooseCard(card, toks));
  } else if (own && ctx.m.moves) {
    elem.classList.add("refusable");
    elem.addEventListener("click", () => send({ type: "try", card: card }));
  }
  return elem;
}

function zoneClicks(elem, zone, ctx) {
  const direct = ctx.byZone.get(zone);
  const placing = picked !== null && (ctx.byCard.get(picked) || []).find((t) => t.zone === zone);
  if (placing) {
    elem.classList.add("target");
    elem.addEventListener("click", (e) => { e.stopPropagation(); token(placing); });
  } else if (direct && direct.length === 1) {
    elem.classList.add("target");
    elem.addEventListener("click", () => token(direct[0]));
  }
}

function chooseCard(card, toks) {
  notice("");
  if (toks.length === 1 && toks[0].zone === undefined) return token(toks[0]);
  if (toks.some((t) => t.zone !== undefined)) {        // the card is chosen; now where it goes
    picked = picked === card ? null : card;
    draw(last);
    if (picked) notice(word("choose-square"));
    return;
  }
  const box = document.getElementById("tokens");
  box.replaceChildren(...toks.map((t) => tokenButton(t)));
}

function token(t) {
  send({ type: "token", token: t.token, at: last.at, prefix: last.moves.prefix });
}

function tokenButton(t) {
  const b = el("button", "token", t.text);
  b.dataset.token = t.token;
  b.addEventListener("click", () => token(t));
  return b;
}

function drawTurn(m, ctx) {
  const turn = document.getElementById("turn");
  const moves = m.moves;
  turn.hidden = !moves;
  const tokens = document.getElementById("tokens"), groups = document.getElementById("groups"),
    spelling = document.getElementById("spelling");
  tokens.replaceChildren(); groups.replaceChildren(); spelling.replaceChildren();
  if (!moves) return;
  if (moves.prefix.length) {
    spelling.append(el("span", "prefix", moves.prefix_text));
    const back = el("button", "back", word("back"));
    back.addEventListener("click", () => send({ type: "back" }));
    spelling.append(back);
  }
  // a card picked: its moves that name no place (discard it, say) beside the places it may go
  if (picked !== null) for (const t of ctx.byCard.get(picked) || []) if (t.zone === undefined) tokens.append(tokenButton(t));
  // the choices no card or place on the table stands for are buttons
  for (const t of moves.tokens) {
    if (t.card !== undefined && ctx.shown.has(t.card)) continue;
    if (t.card === undefined && t.zone !== undefined && ctx.byZone.get(t.zone).length === 1 &&
        document.querySelector(`[data-zone="${t.zone}"]`)) continue;
    tokens.append(tokenButton(t));
  }
  for (const g of moves.groups) {
    const line = el("div", "group");
    line.append(el("span", "head", g.head));
    for (const mv of g.moves) {
      const b = el("button", "move", `${mv.number}) ` + (mv.words || g.head));
      b.dataset.move = mv.id;
      b.addEventListener("click", () => send({ type: "move", id: mv.id, at: m.at }));
      line.append(b);
    }
    groups.append(line);
  }
}

function drawEnded(m) {
  const box = document.getElementById("ended");
  const ended = m.ended && m.ended.length ? m.ended[m.ended.length - 1] : null;
  if (!ended || (m.seat < 0 && !m.replay && ended.deal <= endedSeen)) { box.hidden = true; return; }
  document.getElementById("ended-title").textContent = word("deal-over", { n: ended.deal });
  const hands = document.getElementById("ended-hands");
  hands.replaceChildren();
  for (const h of ended.hands) {
    const line = el("div", "hand");
    line.append(el("span", "label", h.label));
    if (!h.cards.length) line.append(el("span", "empty", word("empty")));
    for (const c of h.cards) line.append(cardElement(c, true));
    hands.append(line);
  }
  document.getElementById("ended-scores").textContent =
    `${word("scores")}: ` + ended.scores.map((s) => `${s.player} ${s.score}`).join(", ");
  box.hidden = false;
  box.dataset.deal = ended.deal;
}

function drawResult(m) {
  const box = document.getElementById("result");
  if (!m.result) { box.hidden = true; return; }
  box.replaceChildren(el("h2", null, word("game-over")),
    el("p", null, `${word("scores")}: ` + m.result.scores.map((s) => `${s.player} ${s.score}`).join(", ")),
    el("p", "winners", `${word("winners")}: ${m.result.winners}`));
  box.hidden = false;
}

// ------------------------------------------------------------ keyboard and buttons
document.addEventListener("DOMContentLoaded", () => {
  applyWords();
  languageSwitch((code) => REPLAY ? show(at) : send({ type: "lang", lang: code }));
  const total = () => (last && last.replay ? last.replay.total : 0);
  document.getElementById("first").addEventListener("click", () => show(0));
  document.getElementById("prev").addEventListener("click", () => show(Math.max(0, at - 1)));
  document.getElementById("forward").addEventListener("click", () => show(Math.min(total(), at + 1)));
  document.getElementById("last").addEventListener("click", () => show(total()));
  document.getElementById("viewer").addEventListener("change", (e) => { viewer = e.target.value; show(at); });
  const four = document.getElementById("four");
  four.checked = localStorage.getItem("koloda-four") === "1";
  document.body.classList.toggle("four", four.checked);
  four.addEventListener("change", () => {
    localStorage.setItem("koloda-four", four.checked ? "1" : "0");
    document.body.classList.toggle("four", four.checked);
  });
  document.getElementById("next").addEventListener("click", () => {
    const box = document.getElementById("ended");
    endedSeen = Number(box.dataset.deal);
    box.hidden = true;
    if (last && last.replay) show(last.replay.at + 1);
    else if (last && last.seat >= 0) send({ type: "next" });
  });
  document.getElementById("typed").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = document.getElementById("typed-move");
    const text = input.value.trim();
    if (!text || !last || !last.moves) return;
    if (/^\d+$/.test(text)) {            // a number of the move list, as at the terminal
      const mv = last.moves.groups.flatMap((g) => g.moves).find((x) => String(x.number) === text);
      if (mv) send({ type: "move", id: mv.id, at: last.at });
      else notice(text + "?");
    } else {
      send({ type: "typed", text: text });
    }
    input.value = "";
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && picked !== null) { picked = null; draw(last); }
    if (REPLAY && e.key === "ArrowRight") show(Math.min(total(), at + 1));
    if (REPLAY && e.key === "ArrowLeft") show(Math.max(0, at - 1));
  });
  connect();
});
