// The Rummoli phase card by card. The engine lays every forced card inside one action, so
// one update can bring a whole run; it is shown one laid card at a time, each step with
// the view the server made of it from the engine (chips move with their card, the centre
// only when the round ends), at the pace chosen in this browser.
import { applyPatch } from "./patch.js";

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

/** The frames to show for one update: ``[view, events of this step]`` each, the last
 * being the update's own view. The server cuts an action shown in several steps (a run
 * of laid cards, card by card) and sends each step's share of the events and its view,
 * the engine's, as a patch of the update's view (``parts``: rummoli.web.runs); any other
 * update is one frame. */
export function frames(view, events, parts) {
  if (!parts || !view) return [[view, events]];
  const out = [];
  let start = 0;
  parts.forEach(([count, patch], index) => {
    const shown = index === parts.length - 1 ? view : applyPatch(view, patch);
    out.push([shown, events.slice(start, start + count)]);
    start += count;
  });
  return out;
}
