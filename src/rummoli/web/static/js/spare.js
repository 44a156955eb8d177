// The board a table plays on, as its view declares it (the game's layout: its shape,
// spaces and what it calls its spare hand), kept for the sentences that are not given
// a view (the log's lines). Set by board.js each time it draws a board; a view without
// a layout is Rummoli's octagon (its widow, its Rummoli phase).
let current = null;

export function setLayout(layout) {
  current = layout || null;
}

/** The drawn board's layout, or null (Rummoli's octagon). */
export function currentLayout() {
  return current;
}

/** What the spare hand is called: "widow" (Rummoli's), "dead hand", or "spare hand"
 * (any other game's word the page has no sentences for). */
export function spareKind(layout = current) {
  if (!layout || layout.spare === "widow") return "widow";
  return layout.spare === "dead hand" ? "dead hand" : "spare hand";
}

/** Whether the board is Rummoli's octagon (its own pots: Rummoli and poker). */
export function isOctagon(layout = current) {
  return !layout || layout.shape === "octagon";
}
