// What the table does, beyond drawing, as each frame is shown: the sounds of cards and
// chips, the narrator's lines for screen readers, and when it becomes this person's turn
// the turn sound, the focus on the decision's controls and, in a background tab, the
// title. table.js calls `cue` after drawing each frame, with that frame's events only
// (a reconnect's snapshot brings no events: nothing already seen is said or played again).
import { announce, liveRegion } from "./announce.js";
import { _ } from "./i18n.js";
import { playSound } from "./sound.js";

const CHIPS = new Set(["space", "poker_pot", "round_won", "settled", "bought", "pays", "returned"]);
// Where a person types (a checkbox or a button is not typed into).
const TEXT_ENTRY = "input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit]), textarea, select, [contenteditable]";

const turn = { mine: false, step: null, title: null };

// An enabled control inside `box` (each part of the selector scoped to it).
const control = (box) => `${box} button:not([disabled]), ${box} input:not([disabled]):not([tabindex='-1'])`;

/** Put the focus on the decision's first control (the actions', else the hand's: a
 * Rummy meld begins by choosing cards), unless the person is typing elsewhere (the chat,
 * a name, the pace): that is never taken from them. */
export function focusDecision() {
  const box = document.querySelector("#me");
  if (!box) return false;
  const active = document.activeElement;
  if (active && active !== document.body && !box.contains(active) && active.matches(TEXT_ENTRY)) return false;
  const first = document.querySelector(control("#actions")) || document.querySelector(control("#hand"));
  if (!first || box.contains(active)) return false;
  first.focus();
  return true;
}

function alertTitle() {
  if (turn.title === null) turn.title = document.title;
  document.title = _("● Your turn — Rummoli");
}

function restoreTitle() {
  if (turn.title !== null) document.title = turn.title;
  turn.title = null;
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) restoreTitle();
});

/**
 * After a frame is drawn. `events`: the frame's events; `lines`: the narrator's lines
 * for them; `mine`: whether this seat has a decision now; `step`: the game's step (a new
 * step at one's turn is a new decision).
 */
export function cue({ events, lines, mine, step }) {
  liveRegion();
  if (events.some((e) => e.type === "lay")) playSound("card");
  if (events.some((e) => CHIPS.has(e.type) && (e.chips || e.share))) playSound("chip");
  for (const said of lines) announce(said.text);
  const began = mine && !turn.mine;
  if (mine && (began || step !== turn.step)) {
    focusDecision();
    if (began) {
      announce(_("Your turn"));
      playSound("turn");
      if (document.hidden) alertTitle();
    }
  }
  if (!mine) restoreTitle();
  turn.mine = mine;
  turn.step = mine ? step : null;
}

/** Draw with `draw()` without losing the focus: the table redraws its controls and its
 * chat at every update, so a focused control (with what was typed in it, and the caret)
 * is found again by its test id. */
export function keepFocus(draw) {
  const active = document.activeElement;
  const id = active && active !== document.body ? active.dataset.testid : undefined;
  const value = active && "value" in active ? active.value : undefined;
  let caret = null;
  try {
    caret = active && typeof active.selectionStart === "number" ? [active.selectionStart, active.selectionEnd] : null;
  } catch {
    caret = null;
  }
  draw();
  if (!id || document.activeElement === active) return;
  const again = document.querySelector(`[data-testid="${CSS.escape(id)}"]`);
  if (!again) return;
  // The typed amount stays only while it is the same choice (the same range).
  const same = again.tagName === active.tagName && again.type === active.type && again.min === active.min && again.max === active.max;
  if (value !== undefined && same) again.value = value;
  again.focus({ preventScroll: true }); // (a redraw never moves the page under the reader)
  if (caret && same && again.setSelectionRange) {
    try {
      again.setSelectionRange(caret[0], caret[1]);
    } catch {
      // (a number input has no caret to put back)
    }
  }
}
