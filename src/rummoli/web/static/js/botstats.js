// The computer players on the players' page, counted apart from people: each game's
// levels (a computer is known by its level, "Expert", not by its seat's name,
// "Bot 4"), each with its games, wins and what it won.
import { listingHeaders } from "./access.js";
import { levelName } from "./cards.js";
import { api, errorText, fill, h, notice, withLanguage } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { percent, recentGames, signed, stat } from "./statistics.js";

function label(b) {
  return b.label || levelName(b.level);
}

function link(b) {
  return `/player?game=${encodeURIComponent(b.game)}&level=${encodeURIComponent(b.level)}`;
}

/** The list of computer levels that have played (from /api/players's `bots`). */
export function botList(bots) {
  if (!bots.length) return null;
  return [
    h("h3", {}, _("Computer players")),
    h(
      "ul",
      { className: "name-list", testid: "bot-list" },
      bots.map((b) =>
        h(
          "li",
          { testid: `bot-${b.game}-${b.level}` },
          h("a", { href: link(b), title: b.help }, _("{game}: {level}", { game: b.title, level: label(b) })),
          h("span", { className: "muted" }, " ", ngettext("{n} game", "{n} games", b.games)),
        ),
      ),
    ),
  ];
}

/** One computer level's statistics into `box`. */
export async function showBot(box, game, level) {
  try {
    const s = await api(withLanguage(`/api/bots/stats?game=${encodeURIComponent(game)}&level=${encodeURIComponent(level)}`), { headers: listingHeaders() });
    fill(
      box,
      h("h1", { testid: "player-name" }, _("{game}: {level}", { game: s.title, level: label(s) })),
      h("p", { className: "help" }, s.help),
      h(
        "div",
        { className: "stats", testid: "bot-stats" },
        stat(_("games"), s.games, "stat-games"),
        stat(_("wins"), s.wins, "stat-wins"),
        stat(_("win rate"), percent(s.win_rate), "stat-rate"),
        stat(s.amount === "chips" ? _("chips won") : _("points won"), signed(s.chips_won), "stat-chips"),
        stat(s.amount === "chips" ? _("chips a game") : _("points a game"), signed(s.mean_won), "stat-mean"),
      ),
      recentGames(s.recent, (g) => _("Seat {seat}: {amount} ({change}) with {players}", { seat: g.seat + 1, amount: g.chips, change: signed(g.change), players: g.players.join(", ") })),
    );
  } catch (error) {
    notice(box, errorText(error));
  }
}
