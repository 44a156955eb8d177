// The table from the keyboard. Every control is a real button or input, reachable with
// Tab in the page's order (the hand's playable cards, then the decision's buttons and
// amounts); these shortcuts are the common choices in one key. A key typed into a text
// field (the chat, an amount) is that field's, never a shortcut.
import { h } from "./dom.js";
import { _, pgettext } from "./i18n.js";

// [the key's position (KeyboardEvent.code), the controls it presses or focuses (the first
// present), what it does]. By position, not by letter: on a Russian keyboard the key of
// C types "с", on a French one the key of A is where Q is on an English one; each works
// where its letter is on an English keyboard, and the list shows it with the letter this
// keyboard prints on it (navigator.keyboard's layout map, where the browser has it).
const SHORTCUTS = [
  ["KeyC", ["action-check", "action-call"], () => _("Check or call")],
  ["KeyF", ["action-fold"], () => _("Fold")],
  ["KeyR", ["raise-amount", "bid-amount"], () => _("Type a bet or a bid (then Enter)")],
  ["KeyA", ["raise-max", "bid-max"], () => _("All in, or the highest bid")],
  ["KeyK", ["action-keep"], () => _("Keep my hand")],
  ["KeyX", ["action-exchange"], () => _("Take the widow")],
  ["KeyP", ["action-pass"], () => _("Pass")],
  ["KeyL", ["lay-"], () => _("Lay the card (with a choice: to the first card, then Tab)")],
];
// The letter printed on each key of this keyboard ("KeyQ" -> "a" on a French one).
let layout = null;
if (navigator.keyboard && navigator.keyboard.getLayoutMap) {
  navigator.keyboard.getLayoutMap().then((map) => {
    layout = map;
  }).catch(() => {});
}
const keyLabel = (code) => ((layout && layout.get(code)) || code.slice(3)).toUpperCase();
// Where a person types (a checkbox or a button is not typed into).
const TEXT_ENTRY = "input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit]), textarea, select, [contenteditable]";

// The control a shortcut works, and whether it is one of several (then it is focused,
// not pressed: the person chooses among them).
function target(ids) {
  for (const id of ids) {
    const found = id.endsWith("-")
      ? [...document.querySelectorAll(`#actions [data-testid^="${id}"]`)]
      : [...document.querySelectorAll(`#actions [data-testid="${id}"]`)];
    const enabled = found.filter((c) => !c.disabled);
    if (enabled.length) return [enabled[0], enabled.length > 1];
  }
  return [null, false];
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
  if (event.target instanceof Element && event.target.closest(TEXT_ENTRY)) return;
  if (event.key === "?" || (event.code === "Slash" && event.shiftKey)) {
    const help = document.querySelector("[data-testid=keys-help]");
    if (help) {
      help.open = !help.open;
      // The list in view, wherever the page was scrolled.
      if (help.open) (help.querySelector("dl") || help).scrollIntoView({ block: "nearest" });
    }
    return;
  }
  const shortcut = SHORTCUTS.find(([code]) => code === event.code);
  if (!shortcut) return;
  const [control, several] = target(shortcut[1]);
  if (!control) return;
  event.preventDefault();
  if (control.tagName === "INPUT") {
    control.focus();
    control.select();
  } else if (several) control.focus();
  else control.click();
}

let listening = false;

/** The keys' help (a disclosure listing the shortcuts), and the shortcuts switched on
 * (once: the help is drawn again in a new language). */
export function keyboardHelp() {
  if (!listening) document.addEventListener("keydown", onKey);
  listening = true;
  return h(
    "details",
    { className: "keys-help", testid: "keys-help" },
    h("summary", { title: _("Keyboard shortcuts (?)"), "aria-label": _("Keyboard shortcuts") }, "⌨ ?"),
    h(
      "dl",
      {},
      h("dt", {}, h("kbd", {}, pgettext("key", "Tab"))),
      h("dd", {}, _("Move between the choices; Enter or Space chooses")),
      SHORTCUTS.map(([code, , text]) => [h("dt", {}, h("kbd", {}, keyLabel(code))), h("dd", {}, text())]),
      h("dt", {}, h("kbd", {}, "?")),
      h("dd", {}, _("Show or hide this list")),
    ),
  );
}
