// The table from the keyboard. Every control is a real button or input, reachable with
// Tab in the page's order (the hand's playable cards, then the decision's buttons and
// amounts); these shortcuts are the common choices in one key. A key typed into a text
// field (the chat, an amount) is that field's, never a shortcut.
import { h } from "./dom.js";
import { _, pgettext } from "./i18n.js";

// [key, the controls it presses or focuses (the first present), what it does]
const SHORTCUTS = [
  ["c", ["action-check", "action-call"], () => _("Check or call")],
  ["f", ["action-fold"], () => _("Fold")],
  ["r", ["raise-amount", "bid-amount"], () => _("Type a bet or a bid (then Enter)")],
  ["a", ["raise-max", "bid-max"], () => _("All in, or the highest bid")],
  ["k", ["action-keep"], () => _("Keep my hand")],
  ["x", ["action-exchange"], () => _("Take the widow")],
  ["p", ["action-pass"], () => _("Pass")],
  ["l", ["lay-"], () => _("Lay the card (with a choice: to the first card, then Tab)")],
];
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
  if (event.key === "?") {
    const help = document.querySelector("[data-testid=keys-help]");
    if (help) help.open = !help.open;
    return;
  }
  const shortcut = SHORTCUTS.find(([key]) => key === event.key.toLowerCase());
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
      SHORTCUTS.map(([key, , text]) => [h("dt", {}, h("kbd", {}, key.toUpperCase())), h("dd", {}, text())]),
      h("dt", {}, h("kbd", {}, "?")),
      h("dd", {}, _("Show or hide this list")),
    ),
  );
}
