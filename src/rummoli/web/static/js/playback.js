// The Rummoli phase card by card. The engine lays every forced card inside one action, so
// one update can bring a whole run; here it is shown one laid card at a time: the events
// are cut into steps (each laid card with what follows it: a space won, a stop), and each
// step is drawn from the update's view with the cards still to come taken back. Nothing
// is invented: every card shown was in the update, and the final view is shown at the end.
import { RANKS, SUITS } from "./cards.js";

export const PACES = { slow: 1100, normal: 650, fast: 300, instant: 0 };
export const DEFAULT_PACE = "normal";
const PACE_KEY = "rummoli.pace";

/** The pace chosen in this browser (milliseconds between two laid cards). */
export function paceName() {
  const saved = localStorage.getItem(PACE_KEY);
  return saved && saved in PACES ? saved : DEFAULT_PACE;
}

export function setPace(name) {
  if (name in PACES) localStorage.setItem(PACE_KEY, name);
}

/** The events cut into steps: everything before the first laid card is the first step;
 * then each laid card, with the events after it up to the next one. */
export function steps(events) {
  const out = [[]];
  for (const e of events) {
    if (e.type === "lay" && out[out.length - 1].some((x) => x.type === "lay")) out.push([]);
    out[out.length - 1].push(e);
  }
  return out;
}

const order = (card) => SUITS.indexOf(card.slice(-1)) * 13 + RANKS.indexOf(card.slice(0, -1));

/** ``view`` as it was before the ``later`` events (laid cards taken back into hands, pay
 * spaces' chips back on the board); no decision is offered while the run is shown. */
export function before(view, later) {
  if (!later.length) return view;
  const names = view.players.map((p) => p.name);
  const shown = structuredClone(view);
  const lays = later.filter((e) => e.type === "lay");
  shown.laid = view.laid.slice(0, Math.max(0, view.laid.length - lays.length));
  for (const e of lays) {
    const seat = names.indexOf(e.player);
    if (seat < 0) continue;
    const player = shown.players[seat];
    player.cards += 1;
    player.laid = player.laid.filter((c) => c !== e.card);
    if (seat === view.seat && shown.hand) shown.hand = [...shown.hand, e.card].sort((a, b) => order(a) - order(b));
  }
  for (const e of later) {
    if (e.type === "space" && e.space in shown.board) {
      shown.board[e.space] += e.chips;
      const seat = names.indexOf(e.player);
      if (seat >= 0) shown.players[seat].chips -= e.chips;
    }
  }
  shown.phase = "play";
  shown.to_move = null;
  shown.round_winner = null;
  delete shown.legal_actions;
  delete shown.poker_hand;
  return shown;
}

/** The frames to show for one update: ``[view, events of this step]`` each, the last
 * being the update's own view. A Rummy view (no laid cards) is one frame. */
export function frames(view, events) {
  const parts = steps(events);
  if (!view || !Array.isArray(view.laid) || parts.length < 2) return [[view, events]];
  const out = [];
  for (let i = 0; i < parts.length; i++) {
    const later = parts.slice(i + 1).flat();
    out.push([before(view, later), parts[i]]);
  }
  return out;
}
