// The table's own settings, kept in this browser: sound on or off, and the four-colour
// deck (clubs green, diamonds blue, so the four suits differ by more than a shape: easier
// at a glance and for people who cannot tell red from black).
import { h } from "./dom.js";
import { _ } from "./i18n.js";
import { keyboardHelp } from "./keys.js";
import { setSound, soundOn } from "./sound.js";

const SUITS_KEY = "rummoli.suits";

export function fourColours() {
  return localStorage.getItem(SUITS_KEY) === "four";
}

/** The page drawn in this browser's suit colours (any page that shows cards calls it). */
export function applySuitColours() {
  document.documentElement.classList.toggle("four-colour", fourColours());
}

// A toggle button: a short mark on screen, its full name for screen readers and tooltips.
function toggle(testid, mark, label, isOn, set) {
  const button = h("button", { type: "button", className: "btn small toggle", testid, title: label, "aria-label": label, "aria-pressed": String(isOn()) }, mark);
  button.addEventListener("click", () => {
    set(!isOn());
    button.setAttribute("aria-pressed", String(isOn()));
  });
  return button;
}

/** The toggles and the keys' help, for the table's status line. */
export function tablePrefs() {
  applySuitColours();
  return h(
    "span",
    { className: "prefs" },
    toggle("sound-toggle", "♪", _("Sound"), soundOn, setSound),
    toggle("suits-toggle", h("span", { className: "four-mark", "aria-hidden": "true" }, "♣♦"), _("Four-colour suits"), fourColours, (on) => {
      localStorage.setItem(SUITS_KEY, on ? "four" : "two");
      applySuitColours();
    }),
    keyboardHelp(),
  );
}
