// A finished game, step by step, from one seat's point of view. The server builds each
// frame from that seat's view (or a spectator's); the page only steps through them.
import { renderBoard, renderHand, renderLaid, renderPlayers, renderShowdown, renderStatus } from "./board.js";
import { gameHeaders, recordLink } from "./access.js";
import { $, api, errorText, fill, h, header, notice } from "./dom.js";
import { announce } from "./announce.js";
import { _, onLanguageChange } from "./i18n.js";
import { narrate, tell } from "./narrate.js";
import { frames } from "./playback.js";
import { choiceWords } from "./hint.js";
import { applySuitColours } from "./prefs.js";
import { narrateRummy, renderMelds, renderPiles, renderRummyHand, renderRummyPlayers, renderRummyStatus } from "./rummy.js";
import { seatName } from "./cards.js";

applySuitColours();

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const params = new URLSearchParams(location.search);
let seat = params.has("seat") && params.get("seat") !== "" ? Number(params.get("seat")) : null;
let data = null;
let index = 0;
let timer = null;

async function load() {
  stop();
  try {
    // A player's seat token (kept by this browser) brings the game's chat with it; it,
    // or the host's secret, opens a private game's replays.
    const headers = gameHeaders(gameId);
    data = await api(`/api/games/${encodeURIComponent(gameId)}/replay${seat === null ? "" : `?seat=${seat}`}`, { headers });
    // Every laid card is a step of its own, as at the table (a frame is one action, and
    // one action may lay a whole run: the server sends each card's view, ``parts``).
    data.frames = data.frames.flatMap((f) => frames(f.view, f.events, f.parts).map(([view, events], part) => ({ ...f, view, events, part })));
  } catch (error) {
    notice($("#notice"), errorText(error));
    return;
  }
  $("#record").setAttribute("download", `${(data.game && data.game.game) || "rummoli"}-${gameId}.json`);
  const select = $("#seat");
  fill(select, h("option", { value: "" }, _("a spectator")), data.names.map((name, i) => h("option", { value: String(i), selected: i === seat }, seatName(name))));
  $("#slider").max = String(data.frames.length - 1);
  show(Math.min(index, data.frames.length - 1));
}

// Each game's replay client, looked up by the game's name; the default is Rummoli's.
const CLIENTS = {
  rummoli: {
    table(view, story) {
      renderStatus($("#status"), view, null, seat, "");
      renderPlayers($("#players"), view, null, seat);
      renderBoard($("#board"), view);
      renderLaid($("#laid"), view, story);
      renderShowdown($("#showdown"), view);
    },
    hand: (view) => renderHand($("#hand"), view, null),
    tell: (events, me, before) => tell(events, me, data && data.rules, before),
  },
  rummy: {
    table(view) {
      renderRummyStatus($("#status"), view, null, seat, "");
      renderRummyPlayers($("#players"), view, null, seat);
      renderPiles($("#board"), view, null);
      renderMelds($("#laid"), view, null);
      $("#showdown").hidden = true;
    },
    hand: (view) => renderRummyHand($("#hand"), view, null),
    tell: (events, me) => events.map((e) => narrateRummy(e, me)).filter(Boolean),
  },
};

function show(i) {
  if (!data) return;
  index = Math.max(0, Math.min(i, data.frames.length - 1));
  const frame = data.frames[index];
  const view = frame.view;
  const root = $("#table");
  root.dataset.step = String(index);
  root.dataset.phase = view.phase;
  $("#slider").value = String(index);
  $("#counter").textContent = _("step {step} of {last}", { step: index, last: data.frames.length - 1 });
  const game = CLIENTS[view.game] || CLIENTS.rummoli;
  root.dataset.game = view.game || "rummoli";
  for (const name of Object.keys(CLIENTS)) $("#game").classList.toggle(name, name === view.game);
  const me = seat === null ? null : data.names[seat];
  // The events so far, said as they happened (a lead says why); the round's for the story.
  const first = Math.max(1, index - 400);
  const shown = data.frames.slice(first, index + 1).map((f) => f.events);
  const earlier = shown.slice(0, -1).flat();
  const lines = game.tell(shown.flat(), me);
  const fresh = game.tell(frame.events, me, earlier);
  const roundStart = earlier.map((e) => e.type).lastIndexOf("dealer");
  const story = ["play", "next_round"].includes(view.phase) ? game.tell(earlier.slice(Math.max(0, roundStart)).concat(frame.events), me).slice(-4) : null;
  game.table(view, story);
  if (seat !== null) {
    $("#me").hidden = false;
    game.hand(view);
    // In the page's words ("passez, enchérissez 1–30"), not the engine's ("pass, bid").
    const choices = (view.legal_actions || []).map((a) => choiceWords(a, view));
    fill($("#choices"), choices.length ? _("Choices: {list}", { list: `${choices.slice(0, 12).join(", ")}${choices.length > 12 ? " …" : ""}` }) : "");
  } else {
    $("#me").hidden = true;
  }
  const log = $("#log");
  fill(log, lines.map((line, i) => h("li", { className: `${line.kind}${i >= lines.length - fresh.length ? " new" : ""}` }, line.text)));
  log.scrollTop = log.scrollHeight;
  // A screen reader hears the step it moved to (the page's live region).
  for (const line of fresh) announce(line.text);
  // The chat, said up to this step: only a player's replay has it (the server decides).
  const chat = $("#replay-chat");
  if (data.chat) {
    chat.hidden = false;
    fill(
      $("#replay-chat-lines"),
      data.chat.filter((c) => c.step <= frame.step).map((c) => h("li", { className: `chat-line ${c.channel}`, testid: `replay-chat-${c.n}` }, h("span", { className: "chat-name" }, c.name), c.channel === "spectators" ? ` ${_("(watching)")}` : "", ": ", c.text)),
    );
  } else {
    chat.hidden = true;
  }
  // Said to whoever listens (the browser tests read the page at every step).
  document.dispatchEvent(new CustomEvent("rummoli:shown", { detail: { step: frame.step, part: frame.part, index } }));
}

function stop() {
  if (timer !== null) clearInterval(timer);
  timer = null;
  $("#play").textContent = _("Play");
}

function play() {
  if (timer !== null) return stop();
  $("#play").textContent = _("Pause");
  timer = setInterval(() => {
    if (!data || index >= data.frames.length - 1) return stop();
    show(index + 1);
  }, 700);
}

document.body.prepend(header("history"));
// A new language: the page drawn again in it, at the same step.
onLanguageChange(() => {
  $("header.site").replaceWith(header("history"));
  const select = $("#seat");
  fill(select, h("option", { value: "" }, _("a spectator")), (data ? data.names : []).map((name, i) => h("option", { value: String(i), selected: i === seat }, seatName(name))));
  $("#play").textContent = timer === null ? _("Play") : _("Pause");
  show(index);
});
$("#record").href = `/api/games/${encodeURIComponent(gameId)}/record`;
recordLink($("#record"), gameId);
$("#record").setAttribute("download", `game-${gameId}.json`);
$("#first").addEventListener("click", () => show(0));
$("#prev").addEventListener("click", () => show(index - 1));
$("#next").addEventListener("click", () => show(index + 1));
$("#last").addEventListener("click", () => show(data ? data.frames.length - 1 : 0));
$("#play").addEventListener("click", play);
$("#slider").addEventListener("input", (event) => show(Number(event.target.value)));
$("#seat").addEventListener("change", (event) => {
  seat = event.target.value === "" ? null : Number(event.target.value);
  history.replaceState(null, "", seat === null ? location.pathname : `${location.pathname}?seat=${seat}`);
  load();
});
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  if (event.key === "ArrowRight") show(index + 1);
  if (event.key === "ArrowLeft") show(index - 1);
});
load();
