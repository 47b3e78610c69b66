// The page's own words in English and Russian; the rule file's labels come from the server in the
// language chosen. The language follows the browser's unless the switch was used.
"use strict";
const WORDS = {
  en: {
    "game": "Game", "players": "Players", "seats": "Seats", "create": "Create the room", "links": "Links",
    "links-help": "Send each person their own link: it is their seat, and a secret.", "watch": "Watch",
    "person": "person", "four-colour": "four colours", "log": "Moves", "play": "Play",
    "type-move": "type a move (play QS) or its number", "all-moves": "All moves", "next-deal": "Next deal",
    "deal": "deal", "dealer": "dealer", "to-move": "to move", "your-turn": "your turn", "game-over": "game over",
    "you": "you", "cards": "cards", "on-top-of": "on top of", "back": "back", "deal-over": "Deal {n} is over",
    "scores": "Scores", "winners": "Winners", "reconnecting": "connection lost: reconnecting…",
    "watching": "watching", "choose-square": "now click where it goes", "melds": "melds", "options": "Options",
    "open-seat": "open", "none": "none", "setting": "settings", "bot": "bot", "waiting": "waiting for the next deal",
    "empty": "—", "away": "away", "standin": "{bot} plays", "host": "host", "standins": "Who plays each seat",
    "host-link": "Host (bots for people who left)", "every-card": "every card",
    "your-file": "Your own rule file", "check": "Check it and add it",
  },
  ru: {
    "game": "Игра", "players": "Игроки", "seats": "Места", "create": "Создать стол", "links": "Ссылки",
    "links-help": "Отправьте каждому его ссылку: это его место, и она секретная.", "watch": "Смотреть",
    "person": "человек", "four-colour": "четыре цвета", "log": "Ходы", "play": "Ход",
    "type-move": "введите ход (play QS) или его номер", "all-moves": "Все ходы", "next-deal": "Следующая сдача",
    "deal": "сдача", "dealer": "сдаёт", "to-move": "ходит", "your-turn": "ваш ход", "game-over": "игра окончена",
    "you": "вы", "cards": "карт", "on-top-of": "поверх", "back": "назад", "deal-over": "Сдача {n} окончена",
    "scores": "Очки", "winners": "Победители", "reconnecting": "связь потеряна: подключаемся…",
    "watching": "зритель", "choose-square": "теперь выберите, куда", "melds": "комбинации", "options": "Настройки",
    "open-seat": "открыть", "none": "нет", "setting": "настройки", "bot": "бот", "waiting": "ждём следующей сдачи",
    "empty": "—", "away": "нет на месте", "standin": "играет {bot}", "host": "хозяин", "standins": "Кто играет за каждое место",
    "host-link": "Хозяин стола (боты за ушедших)", "every-card": "все карты",
    "your-file": "Свой файл правил", "check": "Проверить и добавить",
  },
};

function chosenLanguage() {
  const kept = localStorage.getItem("koloda-lang");
  if (kept && WORDS[kept]) return kept;
  return (navigator.language || "en").toLowerCase().startsWith("ru") ? "ru" : "en";
}

let LANG = chosenLanguage();

function word(key, values) {
  let text = (WORDS[LANG] && WORDS[LANG][key]) || WORDS.en[key] || key;
  for (const [k, v] of Object.entries(values || {})) text = text.replace("{" + k + "}", String(v));
  return text;
}

// every element with data-word gets its text; data-placeholder its placeholder
function applyWords() {
  document.documentElement.lang = LANG;
  for (const el of document.querySelectorAll("[data-word]")) el.textContent = word(el.dataset.word);
  for (const el of document.querySelectorAll("[data-placeholder]")) el.placeholder = word(el.dataset.placeholder);
}

function languageSwitch(onChange) {
  const box = document.getElementById("langs");
  box.replaceChildren();
  for (const code of Object.keys(WORDS)) {
    const b = document.createElement("button");
    b.textContent = code;
    b.className = "lang" + (code === LANG ? " chosen" : "");
    b.dataset.lang = code;
    b.addEventListener("click", () => {
      LANG = code;
      localStorage.setItem("koloda-lang", code);
      applyWords();
      languageSwitch(onChange);
      onChange(code);
    });
    box.append(b);
  }
}

// an element with text, never markup: everything from a rule file or a person goes in this way
function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
