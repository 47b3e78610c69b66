// Cards drawn as SVG from their names (`QS`, `10H`, `JK`, `JK=QC` for a wild card standing for one,
// null for a card lying face down). Text goes in with textContent, never as markup.
"use strict";
const SVG = "http://www.w3.org/2000/svg";
const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

function cardParts(name) {
  const [card, stands] = String(name).split("=");
  if (card === "JK") return { rank: "🃏", suit: "", letter: "J", stands: stands || null, joker: true };
  const letter = card.slice(-1);
  // a card of a deck's own suit (`21T`) or named alone (`EX`, `RJ`): drawn by its whole name
  if (!(letter in SUIT)) return { rank: card, suit: "", letter: "other", stands: stands || null, joker: false };
  return { rank: card.slice(0, -1), suit: SUIT[letter] || letter, letter: letter, stands: stands || null, joker: false };
}

function cardLabel(name) {
  if (name === null || name === undefined) return "▒▒";
  const p = cardParts(name);
  return p.joker ? "🃏" + (p.stands ? "=" + cardLabel(p.stands) : "") : p.rank + p.suit + (p.stands ? "=" + cardLabel(p.stands) : "");
}

// a card: <svg class="card ..."> with its name in data-card and an accessible label
function cardElement(name, small) {
  const w = 60, h = 84;
  const box = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "card" + (small ? " small" : ""), role: "img" });
  if (name === null || name === undefined) {
    box.classList.add("back");
    box.append(svg("rect", { x: 1, y: 1, width: w - 2, height: h - 2, rx: 6, class: "back-face" }));
    box.append(svg("rect", { x: 6, y: 6, width: w - 12, height: h - 12, rx: 4, class: "back-pattern" }));
    box.setAttribute("aria-label", "face down");
    return box;
  }
  const p = cardParts(name);
  box.dataset.card = String(name).split("=")[0];
  box.classList.add("suit-" + (p.joker ? "joker" : p.letter));
  box.setAttribute("aria-label", cardLabel(name));
  box.append(svg("title", {}, cardLabel(name)));
  box.append(svg("rect", { x: 1, y: 1, width: w - 2, height: h - 2, rx: 6, class: "face" }));
  if (p.joker) {
    // drawn, not the 🃏 character: a system without an emoji font shows that as a box
    box.append(svg("text", { x: 6, y: 16, class: "corner" }, "JK"));
    box.append(svg("text", { x: w / 2, y: h / 2 + 10, "text-anchor": "middle", class: "big" }, "★"));
    if (p.stands) box.append(svg("text", { x: w / 2, y: h - 8, "text-anchor": "middle", class: "corner" }, "=" + cardLabel(p.stands)));
    return box;
  }
  box.append(svg("text", { x: 6, y: 16, class: "corner" }, p.rank));
  box.append(svg("text", { x: 6, y: 29, class: "corner" }, p.suit));
  box.append(svg("text", { x: w / 2, y: h / 2 + 12, "text-anchor": "middle", class: "big" }, p.suit));
  box.append(svg("text", { x: w - 6, y: h - 8, "text-anchor": "end", class: "corner" }, p.rank + p.suit));
  if (p.stands) box.append(svg("text", { x: w / 2, y: h - 22, "text-anchor": "middle", class: "corner" }, "=" + cardLabel(p.stands)));
  return box;
}

// a hidden pile: one back with its count on it
function countElement(size) {
  const box = cardElement(null);
  box.append(svg("text", { x: 30, y: 50, "text-anchor": "middle", class: "count" }, String(size)));
  box.setAttribute("aria-label", size + " cards");
  return box;
}
