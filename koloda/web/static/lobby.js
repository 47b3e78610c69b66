// The lobby: a game, its options and players, each seat a person or a bot; then a room, with a
// secret link for each person and one for onlookers.
"use strict";
let GAMES = [];

async function loadGames() {
  const answer = await fetch(`/api/games?lang=${LANG}`);
  const data = await answer.json();
  GAMES = data.games;
  document.getElementById("upload").hidden = !data.upload;
  const select = document.getElementById("game");
  const wanted = new URLSearchParams(location.search).get("game") || select.value || "pony";
  select.replaceChildren(...GAMES.map((g) => {
    const o = el("option", null, g.title);
    o.value = g.name;
    return o;
  }));
  select.value = GAMES.some((g) => g.name === wanted) ? wanted : GAMES[0].name;
  chooseGame();
}

let fileName = "";

async function upload() {
  const text = document.getElementById("rule-text").value;
  const answer = await fetch("/api/rules", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ text: text, name: fileName }),
  });
  const data = await answer.json();
  const box = document.getElementById("upload-errors");
  box.replaceChildren(...(data.errors || []).map((e) => el("pre", null, e)));
  if (answer.ok) {
    history.replaceState(null, "", "?game=" + encodeURIComponent(data.game));
    await loadGames();
  }
}

function game() {
  return GAMES.find((g) => g.name === document.getElementById("game").value);
}

function chooseGame() {
  const g = game();
  const errors = document.getElementById("errors");
  errors.replaceChildren(...(g.errors || []).map((e) => el("pre", null, e)));
  const players = document.getElementById("players");
  players.replaceChildren();
  if (g.errors) { document.getElementById("options").replaceChildren(); drawSeats(0); return; }
  for (let n = g.players[0]; n <= g.players[1]; n++) {
    const o = el("option", null, n);
    o.value = n;
    players.append(o);
  }
  players.value = g.players[2];
  const options = document.getElementById("options");
  options.replaceChildren();
  if (g.options.length) options.append(el("h2", null, word("options")));
  for (const opt of g.options) {
    const label = el("label", "option");
    label.append(el("span", null, opt.name));
    let input;
    if (opt.choices) {
      input = el("select");
      for (const c of opt.choices) { const o = el("option", null, c); o.value = c; input.append(o); }
      input.value = opt.default;
    } else if (opt.type === "bool") {
      input = el("input"); input.type = "checkbox"; input.checked = !!opt.default;
    } else {
      input = el("input"); input.type = opt.type === "int" ? "number" : "text"; input.value = opt.default;
      if (opt.low !== null) input.min = opt.low;
      if (opt.high !== null) input.max = opt.high;
    }
    input.dataset.option = opt.name;
    label.append(input);
    if (opt.help) label.append(el("small", null, opt.help));
    options.append(label);
  }
  drawSeats(Number(players.value));
}

function drawSeats(n) {
  const box = document.getElementById("seats");
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const row = el("div", "seat-row");
    row.append(el("span", null, "P" + (i + 1)));
    const kind = el("select");
    kind.className = "kind";
    for (const k of ["human", "random", "greedy", "ismcts"]) {
      const o = el("option", null, k === "human" ? word("person") : k);
      o.value = k;
      kind.append(o);
    }
    kind.value = i === 0 ? "human" : "greedy";
    const settings = el("input");
    settings.className = "settings";
    settings.placeholder = "iterations=200";
    row.append(kind, settings);
    box.append(row);
  }
}

async function create() {
  const g = game();
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    options[input.dataset.option] = input.type === "checkbox" ? input.checked : input.value;
  }
  const seats = [...document.querySelectorAll(".seat-row")].map((row) => {
    const kind = row.querySelector(".kind").value;
    const settings = row.querySelector(".settings").value.trim();
    return settings && kind !== "human" ? `${kind}:${settings}` : kind;
  });
  const answer = await fetch("/api/rooms", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ game: g.name, options: options, seats: seats }),
  });
  const data = await answer.json();
  const problem = document.getElementById("problem");
  if (!answer.ok) { problem.textContent = data.error; return; }
  problem.textContent = "";
  const list = document.getElementById("seat-links");
  list.replaceChildren();
  for (const s of data.seats) {
    const item = el("li");
    const a = el("a", "seat-link", location.origin + s.link);
    a.href = s.link;
    a.target = "_blank";
    a.dataset.seat = s.seat;
    item.append(el("span", null, s.seat + " "), a);
    list.append(item);
  }
  const watch = document.getElementById("watch-link");
  watch.textContent = location.origin + data.watch;
  watch.href = data.watch;
  const host = document.getElementById("host-link");
  host.textContent = location.origin + data.host;
  host.href = data.host;
  document.getElementById("links").hidden = false;
}

document.addEventListener("DOMContentLoaded", () => {
  applyWords();
  languageSwitch(() => loadGames());
  document.getElementById("game").addEventListener("change", chooseGame);
  document.getElementById("players").addEventListener("change", (e) => drawSeats(Number(e.target.value)));
  document.getElementById("create").addEventListener("click", create);
  document.getElementById("check").addEventListener("click", upload);
  document.getElementById("rule-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    fileName = file.name;
    document.getElementById("rule-text").value = await file.text();
  });
  loadGames();
});
