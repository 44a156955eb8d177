// Cards as the engine writes them ("TS", "QC", "7H") shown as people know them.
import { h } from "./dom.js";
import { pgettext } from "./i18n.js";

export const SUITS = ["C", "D", "H", "S"];
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

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
const SUIT_SPOKEN = {
  C: () => pgettext("suit", "clubs"), D: () => pgettext("suit", "diamonds"),
  H: () => pgettext("suit", "hearts"), S: () => pgettext("suit", "spades"),
};

/** "QH" -> "queen of hearts" */
export function cardName(card) {
  const rank = RANK_NAME[card.slice(0, -1)];
  const suit = SUIT_SPOKEN[card.slice(-1)];
  if (!rank || !suit) return card;
  return pgettext("card", "{rank} of {suit}", { rank: rank(), suit: suit() });
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

/** Board spaces as people read them. */
export const SPACE_LABEL = {
  poker: "Poker",
  "10S": "10♠",
  JD: "J♦",
  QC: "Q♣",
  KH: "K♥",
  AS: "A♠",
  AKD: "A♦ K♦",
  "789": "7 8 9",
  rummoli: "Rummoli",
};
