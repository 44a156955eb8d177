// Cards as the engine writes them ("TS", "QC", "7H") shown as people know them.
import { h } from "./dom.js";
import { _, pgettext, termForms } from "./i18n.js";

export const SUITS = ["C", "D", "H", "S"];
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };

export function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

export function isRed(card) {
  const suit = card.slice(-1);
  return suit === "D" || suit === "H";
}

/** "TS" -> "10♠" */
export function cardText(card) {
  return rankLabel(card.slice(0, -1)) + SUIT_SYMBOL[card.slice(-1)];
}

// A card's name for a screen reader ("queen of hearts"): the symbols are read badly.
const RANK_NAME = {
  2: () => pgettext("rank", "two"), 3: () => pgettext("rank", "three"), 4: () => pgettext("rank", "four"),
  5: () => pgettext("rank", "five"), 6: () => pgettext("rank", "six"), 7: () => pgettext("rank", "seven"),
  8: () => pgettext("rank", "eight"), 9: () => pgettext("rank", "nine"), T: () => pgettext("rank", "ten"),
  J: () => pgettext("rank", "jack"), Q: () => pgettext("rank", "queen"), K: () => pgettext("rank", "king"),
  A: () => pgettext("rank", "ace"),
};
// "queen of clubs" is one message per suit (as the terminal's, i18n/terms.py): Russian
// puts the suit in the genitive (дама треф), French after "de" (dame de trèfle).
const CARD_OF_SUIT = {
  C: (rank) => pgettext("card", "{rank} of clubs", { rank }), D: (rank) => pgettext("card", "{rank} of diamonds", { rank }),
  H: (rank) => pgettext("card", "{rank} of hearts", { rank }), S: (rank) => pgettext("card", "{rank} of spades", { rank }),
};

/** "QH" -> "queen of hearts"; with a case ("acc"), the rank in it (даму червей: the
 * glossary's forms, terms.js). */
export function cardName(card, rankCase = "") {
  const rank = RANK_NAME[card.slice(0, -1)];
  const ofSuit = CARD_OF_SUIT[card.slice(-1)];
  if (!rank || !ofSuit) return card;
  const forms = rankCase ? termForms(`rank.${card.slice(0, -1)}`) : null;
  return ofSuit((forms && forms.forms[rankCase]) || rank());
}

/** A card face. `opts`: small, button (clickable), testid, title, extra classes. */
export function cardNode(card, opts = {}) {
  const classes = ["card", isRed(card) ? "red" : "black", `suit-${card.slice(-1)}`];
  if (opts.small) classes.push("small");
  if (opts.playable) classes.push("playable");
  if (opts.className) classes.push(opts.className);
  const tag = opts.onClick ? "button" : "span";
  return h(
    tag,
    {
      className: classes.join(" "),
      testid: opts.testid,
      dataset: { card },
      title: opts.title || cardText(card),
      "aria-label": opts.label || cardName(card),
      // (A plain span's label is not read: a card that is not a button is an image
      // named for its card, "three of diamonds", never "3 ♦".)
      role: opts.onClick ? undefined : "img",
      type: opts.onClick ? "button" : undefined,
      onClick: opts.onClick,
    },
    h("span", { className: "rank" }, rankLabel(card.slice(0, -1))),
    h("span", { className: "suit" }, SUIT_SYMBOL[card.slice(-1)]),
  );
}

export function cardRow(cards, opts = {}) {
  return h("span", { className: "card-row" }, cards.map((c) => cardNode(c, { small: true, ...opts })));
}

// Every word below is looked up when it is said, never kept from the page's start: the
// language can change while a page is open (i18n.js, onLanguageChange).

// Board spaces as people read them: the pay cards by their indices, as the terminal and
// the rules write them (A-K♦, 7-8-9: the one card notation, docs/glossary.md "Cards").
const SPACE_CARDS = { "10S": "10♠", JD: "J♦", QC: "Q♣", KH: "K♥", AS: "A♠", AKD: "A-K♦", "789": "7-8-9" };

/** A board space's label: its cards, or its word ("Poker", "Rummoli"). */
export function spaceName(name) {
  if (name === "poker") return pgettext("space", "Poker");
  if (name === "rummoli") return pgettext("space", "Rummoli");
  return SPACE_CARDS[name] || name;
}

/** A space's name, for sentences ("the {space} space": la case poker, банк покера); the
 * pay cards keep their indices. */
export function spaceLabel(name) {
  if (name === "poker") return pgettext("space in a sentence", "Poker");
  if (name === "rummoli") return pgettext("space in a sentence", "Rummoli");
  return spaceName(name);
}

// The engine's poker categories (rummoli.poker.CATEGORY_NAMES), as people say them.
const POKER_HANDS = {
  "high card": () => pgettext("poker hand", "high card"),
  pair: () => pgettext("poker hand", "pair"),
  "two pair": () => pgettext("poker hand", "two pair"),
  "three of a kind": () => pgettext("poker hand", "three of a kind"),
  straight: () => pgettext("poker hand", "straight"),
  flush: () => pgettext("poker hand", "flush"),
  "full house": () => pgettext("poker hand", "full house"),
  "four of a kind": () => pgettext("poker hand", "four of a kind"),
  "straight flush": () => pgettext("poker hand", "straight flush"),
};

/** The poker hands, lowest first (the engine's categories). */
export const POKER_HAND_ORDER = Object.keys(POKER_HANDS);

/** A poker hand's name ("two pair") in the page's language. */
export function pokerHandName(name) {
  return POKER_HANDS[name] ? POKER_HANDS[name]() : name;
}

// The computer players' levels (the code words the server sends), as people read them.
const LEVELS = { random: () => pgettext("level", "random"), basic: () => pgettext("level", "basic"), strong: () => pgettext("level", "strong") };

/** A computer level's name ("basic": "simple", "базовый"); an unknown one as it is. */
export function levelName(level) {
  return LEVELS[level] ? LEVELS[level]() : level;
}

/** A seat's name as this page shows it: as given (names are never translated), but a
 * computer player's seat, which the server names "Bot 2" (a code: people may not take
 * it), in the page's language ("Robot 2", "Бот 2"). */
export function seatName(name) {
  const bot = /^Bot (\d+)$/.exec(name || "");
  return bot ? pgettext("computer player", "Bot {n}", { n: Number(bot[1]) }) : name;
}

/** "You" for this seat's own name, else the name (for lists: "Ann, you"). */
export function whoName(name, me) {
  return name === me ? _("you") : seatName(name);
}
