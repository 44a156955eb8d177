// What the players' page shows of anyone who played, a person (player.js) or a computer
// level (botstats.js): figures, and the list of recent games with their replays.
import { h, when } from "./dom.js";
import { _, currentLanguage, number } from "./i18n.js";

/** One figure with its label ("12 games"). */
export function stat(label, value, testid) {
  return h("div", { className: "stat" }, h("span", { className: "stat-value", testid }, String(value)), h("span", { className: "stat-label" }, label));
}

/** An amount won or lost, signed: "+120", "-35". */
export function signed(n) {
  return `${n >= 0 ? "+" : ""}${number(n)}`;
}

/** A share as a percentage in the page's language ("50 %" in French). */
export function percent(rate) {
  return new Intl.NumberFormat(currentLanguage(), { style: "percent" }).format(rate);
}

/** The section of a game nobody of this name has finished yet, or its title. */
export function noGames(title) {
  return [h("h2", {}, title), h("p", { className: "muted" }, _("No finished game of {game} with this name yet.", { game: title }))];
}

/** Recent games, latest first: when, whether won, `said(g)` (the game's own line: what
 * this seat ended with), and its replay as that seat saw it. */
export function recentGames(games, said) {
  return h(
    "ol",
    { className: "history-list" },
    games.map((g) =>
      h(
        "li",
        { className: "history-row" },
        h("div", { className: "history-head" }, h("span", { className: "muted" }, when(g.finished_at)), h("span", { className: g.won ? "up" : "" }, g.won ? _("won") : "")),
        h("p", {}, said(g)),
        h("a", { className: "btn small", href: `/replay/${encodeURIComponent(g.id)}?seat=${g.seat}` }, _("Replay")),
      ),
    ),
  );
}
