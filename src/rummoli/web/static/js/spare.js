// The board a table plays on, as its view declares it (the game's layout: its shape,
// spaces and what it calls its spare hand), kept for the sentences that are not given
// a view (the log's lines). Set by board.js each time it draws a board; a view without
// a layout is Rummoli's octagon (its widow, its Rummoli phase).
import { SUIT_SYMBOL } from "./cards.js";
import { _, pgettext } from "./i18n.js";

let current = null;

export function setLayout(layout) {
  current = layout || null;
}

/** The drawn board's layout, or null (Rummoli's octagon). */
export function currentLayout() {
  return current;
}

/** What the spare hand is called: "widow" (Rummoli's), "dead hand", "talon" (the rest of
 * a deal by count), or "spare hand" (any other game's word the page has no sentences for). */
export function spareKind(layout = current) {
  if (!layout || layout.spare === "widow") return "widow";
  if (layout.spare === "dead hand" || layout.spare === "talon") return layout.spare;
  return "spare hand";
}

/** Whether the board is Rummoli's octagon (its own pots: Rummoli and poker). */
export function isOctagon(layout = current) {
  return !layout || layout.shape === "octagon";
}

const SUIT_OF = { C: "C", D: "D", H: "H", S: "S" };

/** A space's label from its cards, as the rules write them: "A♥", "Q-K♥", "8-9-10". */
export function cardsLabel(cards) {
  const rank = (text) => text.slice(0, -1);
  const suits = new Set(cards.map((text) => text.slice(-1)));
  const one = suits.size === 1 ? [...suits][0] : null;
  const mark = (suit) => (SUIT_OF[suit] ? SUIT_SYMBOL[suit] : suit === "+" ? pgettext("space", " of trumps") : "");
  if (one) return cards.map(rank).join("-") + mark(one);
  return cards.map((text) => rank(text) + mark(text.slice(-1))).join(" ");
}

// The pools a game calls by their own name (STOPS.md): Poch's Poch (the Pochen's pool)
// and centre, Pope Joan's Game, each with what it pays. Keyed by the space's name, which
// the layout gives; other pots and kitties take their role's word.
const NAMED_POOLS = {
  poch: {
    word: () => pgettext("space", "Poch"),
    pays: () => _("Poch: the winner of the Pochen takes these chips."),
  },
  centre: {
    word: () => pgettext("space", "Centre"),
    pays: () => _("Centre: the first player out of cards takes these chips."),
  },
  game: {
    word: () => pgettext("space", "Game"),
    pays: () => _("Game: the first player out of cards takes these chips."),
  },
};

/** What a pool its game calls by its own name pays, or null (any other space). */
export function namedPoolPays(space) {
  const pool = NAMED_POOLS[space.name];
  return pool ? pool.pays() : null;
}

/** A space's label on another game's board: a pool's own name, a pot's word, or its cards. */
export function spaceLabelOf(space) {
  const pool = NAMED_POOLS[space.name];
  if (pool) return pool.word();
  if (space.role === "poker") return pgettext("space", "Pot");
  if (space.role === "kitty") return pgettext("space", "Kitty");
  return cardsLabel(space.cards);
}

/** The label of the drawn board's space `name`, or null (no such space, or Rummoli's
 * octagon, whose spaces have their own words: cards.js). */
export function layoutSpaceLabel(name) {
  const space = current && current.spaces.find((s) => s.name === name);
  return space ? spaceLabelOf(space) : null;
}
