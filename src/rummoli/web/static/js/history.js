// Finished games, the latest first: who played, the result, the replay and the record.
import { listingHeaders, recordLink } from "./access.js";
import { $, api, errorText, h, header, notice, when } from "./dom.js";
import { _, ngettext, number, pgettext } from "./i18n.js";
import { levelTitle, loadOptions } from "./options.js";
import { seatName } from "./cards.js";

const PAGE = 30;
let offset = 0;
const list = h("ol", { className: "history-list" });

function mySeat(game) {
  // The seat this browser played, if it still has the token of that table.
  try {
    const saved = JSON.parse(localStorage.getItem(`rummoli.seat.${game.id}`) || "null");
    return saved ? saved.seat : null;
  } catch {
    return null;
  }
}

function row(game) {
  const seat = mySeat(game);
  const replay = `/replay/${encodeURIComponent(game.id)}${seat === null ? "" : `?seat=${seat}`}`;
  return h(
    "li",
    { testid: `history-row-${game.id}`, className: "history-row" },
    h(
      "div",
      { className: "history-head" },
      h("span", { className: "muted" }, when(game.finished_at)),
      h("span", { className: "pill game", testid: `history-game-${game.id}` }, pgettext("game", game.title)),
      played(game),
      game.abandoned
        ? h("span", { className: "pill warn", testid: `history-abandoned-${game.id}`, title: _("Everyone left before the end: this game counts in nobody's statistics.") }, pgettext("game", "abandoned"))
        : null,
    ),
    h(
      "ul",
      { className: "result" },
      [...game.players]
        .sort((a, b) => b.chips - a.chips || a.seat - b.seat)
        .map((p) =>
          h(
            "li",
            { className: p.won ? "winner" : "" },
            h("a", { href: `/player?name=${encodeURIComponent(p.name)}`, className: "player-name" }, seatName(p.name)),
            p.bot ? h("span", { className: "badge bot" }, levelTitle(game.game, p.bot)) : null,
            p.seat === seat ? h("span", { className: "you" }, pgettext("badge", "you")) : null,
            game.amount === "points"
              ? h("span", { className: "score" }, ngettext("{n} pt", "{n} pts", p.chips))
              : h("span", { className: "chips" }, h("i", { className: "chip-icon" }), number(p.chips)),
          ),
        ),
    ),
    h(
      "div",
      { className: "buttons" },
      h("a", { className: "btn primary small", href: replay, testid: `replay-${game.id}` }, _("Replay")),
      recordLink(h("a", { className: "btn small", href: `/api/games/${encodeURIComponent(game.id)}/record`, download: `${game.game || "rummoli"}-${game.id}.json` }, _("Record (JSON)")), game.id),
    ),
  );
}

// How long the game was: the rounds (Rummy: the hands) it played, as stored when it
// ended (games older than that keep no number: none is said).
function played(game) {
  const n = game.rounds_played;
  if (n === null || n === undefined) return null;
  const text = game.amount === "points" ? ngettext("{n} hand", "{n} hands", n) : ngettext("{n} round", "{n} rounds", n);
  return h("span", { className: "muted", testid: `history-rounds-${game.id}` }, text);
}

async function more() {
  const box = $("#games");
  try {
    // This browser's private games are listed to it: it sends their secrets.
    const { games } = await api(`/api/history?limit=${PAGE}&offset=${offset}`, { headers: listingHeaders() });
    if (offset === 0) box.replaceChildren(games.length ? list : h("p", { className: "muted" }, _("No finished games yet.")));
    for (const game of games) list.append(row(game));
    offset += games.length;
    $("#more").hidden = games.length < PAGE;
  } catch (error) {
    notice(box, errorText(error));
  }
}

document.body.prepend(header("history"));
$("#more").addEventListener("click", more);
// The computer players' names for people (Beginner, Casual, Expert) come with the options.
loadOptions()
  .catch(() => null)
  .then(more);
