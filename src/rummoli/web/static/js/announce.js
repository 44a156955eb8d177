// The one polite live region of a page: what a screen reader says as the game goes on.
// The table feeds it the narrator's lines as each frame is shown (so a run is announced at
// the pace it is drawn, one laid card at a time), never the whole log at once: the log
// itself is redrawn at every update and is not a live region.
import { h } from "./dom.js";

const KEEP = 12;
let region = null;

/** The region, created once, visually hidden, at the end of the page. */
export function liveRegion() {
  if (!region) {
    region = h("div", {
      className: "visually-hidden",
      "aria-live": "polite",
      "aria-relevant": "additions",
      testid: "announcer",
    });
    document.body.append(region);
  }
  return region;
}

/** Say one line (added as a new node, so it is read even when it repeats the last). */
export function announce(text) {
  if (!text) return;
  const node = liveRegion();
  node.append(h("p", {}, text));
  while (node.childElementCount > KEEP) node.firstElementChild.remove();
}
