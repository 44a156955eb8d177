// The waiting table: who sits where, the invitation (shown only to whoever holds it), and
// the form that takes a free seat. Drawn by the table page (table.js) until the game starts.
import { personId } from "./access.js";
import { api, errorText, fill, h, notice } from "./dom.js";
import { _, ngettext, pgettext } from "./i18n.js";
import { levelHelp, levelTitle } from "./options.js";

/** The name last used in this browser, offered again when taking a seat. */
export const NAME_KEY = "rummoli.name";

/**
 * Draw the waiting table into `box` (hidden once the game has started). `secret`: the
 * invitation this browser holds, if any; `onSeated(answer)`: the join's answer (token,
 * seat, name), once a seat is taken.
 */
export function renderWaiting(box, { table, seat, secret, tableId, onSeated }) {
  if (!table || table.status !== "waiting") {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const free = table.seats.filter((s) => !s.bot && !s.name);
  // The invitation is shown only to whoever holds it (the host, the invited): never a
  // spectator's, who came with a spectator link or to a public table.
  const inviteUrl = secret ? `${location.origin}/table/${encodeURIComponent(table.id)}#invite=${secret}` : `${location.origin}/table/${encodeURIComponent(table.id)}`;
  const showInvite = Boolean(secret) || table.public;
  const seated = seat !== null;
  const inviteInput = h("input", { type: "text", readonly: true, value: inviteUrl, testid: "invite-link", "aria-label": _("Invitation link") });
  const copy = h("button", { type: "button", className: "btn small", testid: "copy-invite", onClick: async () => {
    inviteInput.select();
    try {
      await navigator.clipboard.writeText(inviteUrl);
      copy.textContent = _("Copied");
    } catch {
      document.execCommand("copy");
    }
  } }, _("Copy"));
  const seats = h(
    "ol",
    { className: "seat-list", testid: "seats" },
    table.seats.map((s) =>
      h(
        "li",
        { testid: `seat-${s.seat}`, className: s.name ? "taken" : "free" },
        h("span", { className: "seat-no" }, _("Seat {seat}", { seat: s.seat + 1 })),
        s.bot ? h("span", {}, s.name, " ", h("span", { className: "badge bot", title: levelHelp(table.game, s.bot) }, levelTitle(table.game, s.bot))) : s.name ? h("span", {}, s.name) : h("span", { className: "muted" }, _("free")),
        s.seat === seat ? h("span", { className: "you" }, pgettext("badge", "you")) : null,
      ),
    ),
  );
  let join = null;
  if (!seated && free.length && showInvite) {
    const name = h("input", { type: "text", maxlength: 40, required: true, autocomplete: "nickname", placeholder: _("Your name"), value: localStorage.getItem(NAME_KEY) || "", testid: "join-name", "aria-label": _("Your name") });
    const seatSelect = h("select", { testid: "join-seat", "aria-label": _("Seat") }, free.map((s) => h("option", { value: String(s.seat) }, _("Seat {seat}", { seat: s.seat + 1 }))));
    const message = h("div", { testid: "join-error" });
    join = h(
      "form",
      { className: "join", testid: "join-form", onSubmit: async (event) => {
        event.preventDefault();
        try {
          const answer = await api(`/api/tables/${encodeURIComponent(tableId)}/join`, { method: "POST", body: { name: name.value, seat: Number(seatSelect.value), invite: secret, person: personId() } });
          localStorage.setItem(NAME_KEY, answer.name);
          onSeated(answer);
        } catch (error) {
          notice(message, errorText(error));
        }
      } },
      h("label", {}, _("Take a seat")),
      h("div", { className: "amount-row" }, name, seatSelect, h("button", { type: "submit", className: "btn primary", testid: "join-submit" }, _("Join"))),
      message,
    );
  }
  const missing = free.length;
  fill(
    box,
    h("h2", {}, _("Waiting for players")),
    h("p", { className: "muted" }, ngettext("The game starts when {n} more player joins.", "The game starts when {n} more players join.", missing)),
    showInvite ? h("div", { className: "invite" }, h("label", {}, table.public ? _("Anyone may sit; or send this link") : _("Invite friends with this link (it seats them: send it only to them)")), h("div", { className: "amount-row" }, inviteInput, copy)) : h("p", { className: "muted", testid: "private-note" }, _("A private table: only its invitation seats a player.")),
    seats,
    join,
    seated ? h("p", { className: "muted" }, _("You have a seat. Keep this tab, or come back with the same browser.")) : null,
  );
}
