// A short guided first round for a newcomer: a few callouts, each at the moment it
// matters (the board and its pay spaces, the widow, the poker hand, the Rummoli phase's
// runs and its stops), skippable, and remembered in this browser (localStorage) so it is
// shown once. Each game has its own steps, looked up by the game's name (as the table's
// clients are); a game with none has no tour.
import { focusDecision } from "./cues.js";
import { h } from "./dom.js";
import { _ } from "./i18n.js";

export const TOUR_KEY = "rummoli.tour";

// A step: its id, when it is due (from the seat's view), whether it can come at all at
// this table (from its house rules: no widow, no widow step), the part of the table it
// points at, and what it says.
const RUMMOLI = [
  {
    id: "board",
    when: (v) => v.phase !== "over",
    target: "#board",
    text: () => _("This is the board. Each pay space (10♠, J♦, Q♣, K♥, A♠, A-K♦, 7-8-9) holds chips: whoever lays that card in the Rummoli phase takes them. The centre goes to the first player out of cards, the poker space to the best poker hand."),
  },
  {
    id: "widow",
    when: (v) => v.phase === "widow" || v.phase === "auction",
    can: (rules) => rules.widow !== "none",
    target: "#actions",
    text: () => _("The widow is an extra hand nobody sees. The dealer may swap his hand for it, unseen; if he keeps his hand, the others may bid for it, and the highest bid pays the dealer. A hand holding a pay card may not take it."),
  },
  {
    id: "poker",
    when: (v) => v.phase === "betting",
    can: (rules) => rules.poker === "betting",
    target: "#me",
    text: () => _("Poker: your best five cards make your poker hand, named under your hand. Bet, call or fold: a fold gives up the poker space only, you still play the rest of the round."),
  },
  {
    id: "runs",
    when: (v) => v.phase === "play",
    target: "#laid",
    text: () => _("The Rummoli phase: the leader lays his lowest card; whoever holds the next card of that suit must lay it, and so on up the suit. Lay a pay space's card to take its chips. The first player out of cards wins the centre, and one chip for each card the others hold."),
  },
  {
    id: "stops",
    when: (v) => v.phase === "play" && (v.laid || []).length > 0,
    target: "#log",
    text: () => _("A run stops when the next card is in the widow, was laid already, or after an ace: the log says why. Whoever laid the last card leads again, his lowest card of the other colour (red after black, black after red)."),
  },
];

const RUMMY = [
  {
    id: "piles",
    when: (v) => v.phase === "draw",
    target: "#board",
    text: () => _("Start your turn by drawing: the top of the stock, or the top of the discard pile."),
  },
  {
    id: "melds",
    when: (v) => v.phase === "play",
    target: "#me",
    text: () => _("Select three or more cards of a rank, or in sequence of a suit, to meld them; one card to lay it off on a meld, or to discard it, which ends your turn. The first out of cards scores the others' cards."),
  },
];

const TOURS = { rummoli: RUMMOLI, rummy: RUMMY };

function saved() {
  try {
    const value = JSON.parse(localStorage.getItem(TOUR_KEY) || "null");
    return value && typeof value === "object" ? value : { seen: [], off: false };
  } catch {
    return { seen: [], off: false };
  }
}

function save(value) {
  localStorage.setItem(TOUR_KEY, JSON.stringify(value));
}

/** Whether the tour is over for this browser (skipped, or every step seen). */
export function tourOff() {
  return saved().off;
}

let node = null;
let highlighted = null;

function clear() {
  if (highlighted) highlighted.classList.remove("tour-target");
  highlighted = null;
  if (node) node.remove();
  node = null;
}

/**
 * Show the step due now, if any: ctx = {game, view, seat, redraw}. Only a seated
 * person gets the tour (a spectator watches).
 */
export function renderTour(ctx) {
  // Only the steps that can come at this table are counted ("2 of 4", not "2 of 5").
  const steps = (TOURS[ctx.game] || []).filter((s) => !s.can || !ctx.rules || s.can(ctx.rules));
  const state = saved();
  if (state.off || ctx.seat === null || !ctx.view || !steps.length) {
    clear();
    return;
  }
  const index = steps.findIndex((s) => !state.seen.includes(s.id) && s.when(ctx.view));
  if (index < 0) {
    clear();
    return;
  }
  const step = steps[index];
  if (node && node.dataset.step === step.id) return;
  clear();
  // After the callout, the focus goes back where the person was (the decision, when it
  // is his turn), never to the page's top.
  const before = document.activeElement;
  const back = () => {
    if (focusDecision()) return;
    if (before && before !== document.body && document.contains(before)) before.focus({ preventScroll: true });
  };
  const next = () => {
    const now = saved();
    now.seen = [...new Set([...now.seen, step.id])];
    if (steps.every((s) => now.seen.includes(s.id))) now.off = true;
    save(now);
    clear();
    ctx.redraw();
    back();
  };
  const skip = () => {
    save({ ...saved(), off: true });
    clear();
    ctx.redraw();
    back();
  };
  node = h(
    "aside",
    { className: "tour", testid: "tour", role: "dialog", "aria-live": "polite", "aria-label": _("Learning to play"), dataset: { step: step.id } },
    h("p", { className: "tour-count muted" }, _("First round guide: {n} of {total}", { n: index + 1, total: steps.length })),
    h("p", { className: "tour-text", testid: "tour-text" }, step.text()),
    h(
      "div",
      { className: "buttons" },
      h("button", { type: "button", className: "btn primary small", testid: "tour-next", onClick: next }, _("Got it")),
      h("button", { type: "button", className: "btn small", testid: "tour-skip", onClick: skip }, _("Skip the guide")),
    ),
  );
  highlighted = document.querySelector(step.target);
  if (highlighted) highlighted.classList.add("tour-target");
  // On a laptop the callout sits over the log's foot, clear of the players and the
  // decision; on a phone, in the page, just above what it points at.
  const inFlow = !window.matchMedia("(min-width: 960px)").matches && highlighted;
  node.classList.toggle("in-flow", Boolean(inFlow));
  if (inFlow) highlighted.before(node);
  else document.body.append(node);
}
