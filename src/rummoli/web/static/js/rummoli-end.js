// Rummoli's end of a round and of the game, in words: the round summary (who went out,
// the poker pot, the pay spaces won, what was paid for cards left) and the final standings.
import { standings } from "./board.js";
import { seatName, whoName } from "./cards.js";
import { fill, h } from "./dom.js";
import { _, number } from "./i18n.js";
import { nameList, narrate } from "./narrate.js";
import { space as spaceTerm, amount } from "./terms.js";

// The events of the end-of-game settlement (the board's chips dealt out by poker or a cut).
const SETTLEMENT = new Set(["settle_cut", "settle_hand", "settled"]);

/** The round summary `s` (narrate.js roundSummary) into `box`; `you`: this seat's name. */
export function renderRummoliSummary(box, s, you) {
  const lines = [];
  if (s.deadlock) lines.push(_("Deadlock: nobody could lead the colour; one chip per card went to the Rummoli space."));
  if (s.winner) {
    const params = { name: seatName(s.winner), chips: amount(s.pot) };
    lines.push(s.winner === you ? _("You went out first and took the Rummoli space ({chips}).", params) : _("{name} went out first and took the Rummoli space ({chips}).", params));
  }
  for (const p of s.poker) {
    const params = { name: seatName(p.winners[0]), names: nameList(p.winners, you), chips: amount(p.chips) };
    if (p.winners.length > 1) lines.push(_("Poker: {names} split {chips}.", params));
    else lines.push(p.winners[0] === you ? _("Poker: you took {chips}.", params) : _("Poker: {name} took {chips}.", params));
  }
  for (const sp of s.spaces) {
    const params = { name: seatName(sp.player), space: spaceTerm(sp.space), chips: amount(sp.chips) };
    lines.push(sp.player === you ? _("You took the {space} space: {chips}.", params) : _("{name} took the {space} space: {chips}.", params));
  }
  if (s.pays.length) {
    const paid = s.pays.map((p) => _("{name} ({chips})", { name: whoName(p.player, you), chips: amount(p.chips) }));
    lines.push(_("Paid for cards left: {list}.", { list: paid.join(", ") }));
  }
  fill(box, h("h3", {}, _("Round {round} summary", { round: s.round })), h("ul", {}, lines.map((l) => h("li", {}, l))));
}

/** The final standings (chips, and the change from `start`), how the board was settled
 * (`events`: the last round's, with the settlement's: the chips that made a player jump),
 * then `buttons`. `you`: this seat's name. */
export function renderRummoliStandings(box, view, start, buttons, events = [], you = null) {
  const settled = events.filter((e) => SETTLEMENT.has(e.type)).map((e) => narrate(e, you)).filter(Boolean);
  const rows = standings(view, start);
  const best = rows.length ? rows[0].chips : 0;
  fill(
    box,
    h("h2", {}, _("Final standings")),
    h(
      "ol",
      { className: "standings", testid: "standings" },
      rows.map((r) =>
        h(
          "li",
          { className: r.chips === best ? "winner" : "" },
          h("span", { className: "player-name" }, seatName(r.name)),
          h("span", { className: "chips" }, h("i", { className: "chip-icon" }), number(r.chips)),
          r.change === null ? null : h("span", { className: r.change >= 0 ? "up" : "down" }, `${r.change >= 0 ? "+" : ""}${number(r.change)}`),
        ),
      ),
    ),
    settled.length
      ? h("div", { className: "settlement", testid: "settlement" }, h("h3", {}, _("How the board was settled")), h("ul", {}, settled.map((l) => h("li", { className: l.kind }, l.text))))
      : null,
    buttons,
  );
}
