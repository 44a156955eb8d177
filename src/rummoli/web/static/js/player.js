// Statistics of one player name over finished games: games, wins, chips won. People
// are counted by name; computer players apart, by game and level (botstats.js).
import { listingHeaders } from "./access.js";
import { botList, showBot } from "./botstats.js";
import { $, api, errorText, fill, h, header, notice, withLanguage } from "./dom.js";
import { _, currentLanguage, ngettext, pgettext } from "./i18n.js";
import { seatName } from "./cards.js";
import { noGames, percent, recentGames, signed, stat } from "./statistics.js";

async function show(name) {
  const box = $("#stats");
  if (!name) {
    fill(box);
    return;
  }
  try {
    const s = await api(`/api/players/stats?name=${encodeURIComponent(name)}`, { headers: listingHeaders() });
    fill(
      box,
      h("h1", { testid: "player-name" }, seatName(s.name)),
      Object.entries(s.by_game).map(([game, stats]) => (SECTIONS[game] || amountSection)(s.name, stats)),
    );
  } catch (error) {
    notice(box, errorText(error));
  }
}

// The other players of a game of `name`'s, as the list says them.
function others(g, name) {
  return g.players.filter((p) => p !== name).map(seatName).join(", ");
}

// A game counted in chips (or another amount): games, wins, the amount won, recent games.
function amountSection(name, s) {
  const title = pgettext("game", s.title);
  if (s.games === 0) return noGames(title);
  return [
    h("h2", {}, title),
    h(
      "div",
      { className: "stats" },
      stat(_("games"), s.games, "stat-games"),
      stat(_("wins"), s.wins, "stat-wins"),
      stat(_("win rate"), percent(s.win_rate), "stat-rate"),
      stat(_("chips won"), signed(s.chips_won), "stat-chips"),
    ),
    h("h3", {}, _("Recent games")),
    recentGames(s.recent, (g) => ngettext("{n} chip ({change}) with {players}", "{n} chips ({change}) with {players}", g.chips, { change: new Intl.NumberFormat(currentLanguage(), { signDisplay: "exceptZero" }).format(g.change), players: others(g, name) })),
  ];
}

// Basic Rummy apart from Rummoli: points are not chips. A stalemate hand is a loss for
// everyone (the seed's rule), so hands won + hands lost = hands played.
function rummySection(name, r) {
  const title = r ? pgettext("game", r.title) : "";
  if (!r || r.games === 0) return noGames(title);
  return [
    h("h2", {}, title),
    h(
      "div",
      { className: "stats", testid: "rummy-stats" },
      stat(_("matches"), r.games, "rummy-games"),
      stat(_("matches won"), r.wins, "rummy-wins"),
      stat(_("points"), r.points, "rummy-points"),
      stat(_("hands"), r.hands, "rummy-hands"),
      stat(_("hands won"), r.hands_won, "rummy-hands-won"),
      stat(_("hands lost"), r.hands_lost, "rummy-hands-lost"),
      stat(_("stalemates (lost)"), r.stalemates, "rummy-stalemates"),
      stat(_("going Rummy"), r.going_rummy, "rummy-going-rummy"),
    ),
    h("p", { className: "help" }, _("A stalemate (nobody can go out) counts as a lost hand for every player.")),
    recentGames(r.recent, (g) => _("{points}, {won} of {hands} hands won ({stalemates}) with {players}", { points: ngettext("{n} point", "{n} points", g.points), won: g.hands_won, hands: g.hands, stalemates: ngettext("{n} stalemate", "{n} stalemates", g.stalemates), players: others(g, name) })),
  ];
}

// Each game's section of a player's page, by the game's name; the default counts amounts.
const SECTIONS = { rummy: rummySection };

async function players() {
  const box = $("#players");
  try {
    const { players: list, bots } = await api(withLanguage("/api/players"), { headers: listingHeaders() });
    fill(
      box,
      h("h3", {}, _("People")),
      list.length
        ? h("ul", { className: "name-list" }, list.map((p) => h("li", {}, h("a", { href: `/player?name=${encodeURIComponent(p.name)}` }, p.name), h("span", { className: "muted" }, " ", ngettext("{n} game", "{n} games", p.games)))))
        : h("p", { className: "muted" }, _("Nobody has finished a game yet.")),
      botList(bots || []),
    );
  } catch (error) {
    notice(box, errorText(error));
  }
}

document.body.prepend(header("player"));
const query = new URLSearchParams(location.search);
const name = query.get("name") || "";
$("#name").value = name;
$("#find").addEventListener("submit", (event) => {
  event.preventDefault();
  const value = $("#name").value.trim();
  history.replaceState(null, "", value ? `/player?name=${encodeURIComponent(value)}` : "/player");
  show(value);
});
if (query.get("level") && query.get("game")) showBot($("#stats"), query.get("game"), query.get("level"));
else show(name);
players();
