// Statistics of one player name over finished games: games, wins, chips won. People
// are counted by name; computer players apart, by game and level (botstats.js).
import { botList, showBot } from "./botstats.js";
import { $, api, fill, h, header, notice, when } from "./dom.js";
import { _ } from "./i18n.js";

function stat(label, value, testid) {
  return h("div", { className: "stat" }, h("span", { className: "stat-value", testid }, String(value)), h("span", { className: "stat-label" }, label));
}

async function show(name) {
  const box = $("#stats");
  if (!name) {
    fill(box);
    return;
  }
  try {
    const s = await api(`/api/players/stats?name=${encodeURIComponent(name)}`);
    fill(
      box,
      h("h1", { testid: "player-name" }, s.name),
      Object.entries(s.by_game).map(([game, stats]) => (SECTIONS[game] || amountSection)(s.name, stats)),
    );
  } catch (error) {
    notice(box, error.message);
  }
}

// A game counted in chips (or another amount): games, wins, the amount won, recent games.
function amountSection(name, s) {
  if (s.games === 0) return [h("h2", {}, s.title), h("p", { className: "muted" }, `No finished game of ${s.title} with this name yet.`)];
  return [
    h("h2", {}, s.title),
    h(
      "div",
      { className: "stats" },
      stat("games", s.games, "stat-games"),
      stat("wins", s.wins, "stat-wins"),
      stat("win rate", `${Math.round(s.win_rate * 100)}%`, "stat-rate"),
      stat("chips won", `${s.chips_won >= 0 ? "+" : ""}${s.chips_won}`, "stat-chips"),
    ),
    h("h3", {}, "Recent games"),
    h(
      "ol",
      { className: "history-list" },
      s.recent.map((g) =>
        h(
          "li",
          { className: "history-row" },
          h("div", { className: "history-head" }, h("span", { className: "muted" }, when(g.finished_at)), h("span", { className: g.won ? "up" : "" }, g.won ? "won" : "")),
          h("p", {}, `${g.chips} chip${g.chips === 1 ? "" : "s"} (${g.change >= 0 ? "+" : ""}${g.change}) with ${g.players.filter((p) => p !== name).join(", ")}`),
          h("a", { className: "btn small", href: `/replay/${encodeURIComponent(g.id)}?seat=${g.seat}` }, "Replay"),
        ),
      ),
    ),
  ];
}

// Basic Rummy apart from Rummoli: points are not chips. A stalemate hand is a loss for
// everyone (the seed's rule), so hands won + hands lost = hands played.
function rummySection(name, r) {
  if (!r || r.games === 0) return [h("h2", {}, r.title), h("p", { className: "muted" }, `No finished game of ${r.title} with this name yet.`)];
  return [
    h("h2", {}, r.title),
    h(
      "div",
      { className: "stats", testid: "rummy-stats" },
      stat("matches", r.games, "rummy-games"),
      stat("matches won", r.wins, "rummy-wins"),
      stat("points", r.points, "rummy-points"),
      stat("hands", r.hands, "rummy-hands"),
      stat("hands won", r.hands_won, "rummy-hands-won"),
      stat("hands lost", r.hands_lost, "rummy-hands-lost"),
      stat("stalemates (lost)", r.stalemates, "rummy-stalemates"),
      stat("going Rummy", r.going_rummy, "rummy-going-rummy"),
    ),
    h("p", { className: "help" }, "A stalemate (nobody can go out) counts as a lost hand for every player."),
    h(
      "ol",
      { className: "history-list" },
      r.recent.map((g) =>
        h(
          "li",
          { className: "history-row" },
          h("div", { className: "history-head" }, h("span", { className: "muted" }, when(g.finished_at)), h("span", { className: g.won ? "up" : "" }, g.won ? "won" : "")),
          h("p", {}, `${g.points} points, ${g.hands_won} of ${g.hands} hands won (${g.stalemates} stalemate${g.stalemates === 1 ? "" : "s"}) with ${g.players.filter((p) => p !== name).join(", ")}`),
          h("a", { className: "btn small", href: `/replay/${encodeURIComponent(g.id)}?seat=${g.seat}` }, "Replay"),
        ),
      ),
    ),
  ];
}

// Each game's section of a player's page, by the game's name; the default counts amounts.
const SECTIONS = { rummy: rummySection };

async function players() {
  const box = $("#players");
  try {
    const { players: list, bots } = await api("/api/players");
    fill(
      box,
      h("h3", {}, _("People")),
      list.length
        ? h("ul", { className: "name-list" }, list.map((p) => h("li", {}, h("a", { href: `/player?name=${encodeURIComponent(p.name)}` }, p.name), h("span", { className: "muted" }, ` ${p.games} game${p.games === 1 ? "" : "s"}`))))
        : h("p", { className: "muted" }, "Nobody has finished a game yet."),
      botList(bots || []),
    );
  } catch (error) {
    notice(box, error.message);
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
