// The table page: one WebSocket to the server, which sends this seat's view after every
// action; this page only draws it and sends the player's choices back.
import { renderStatus } from "./board.js";
import { personId } from "./access.js";
import { keepFocus } from "./cues.js";
import { $, errorText, fill, h, header, notice } from "./dom.js";
import { refusalWorded, renderHint } from "./hint.js";
import { _, onLanguageChange } from "./i18n.js";
import { renderLearning } from "./learning.js";
import { roundSummary } from "./narrate.js";
import { loadOptions } from "./options.js";
import { frames, PACES, paceName, setPace } from "./playback.js";
import { tablePrefs } from "./prefs.js";
import { rummyHandSummary } from "./rummy.js";
import { addChat, applyMuted } from "./social.js";
import { client, CLIENTS, cueFrame, renderPaused, renderSocial, renderWaitingTable } from "./table_draw.js";
import { HOST_KEY, hooks, INVITE_KEY, invite, LOG_LINES, me, saved, SEAT_KEY, SHOWN_KEY, st, tableId, ui, WATCH_KEY } from "./table_state.js";
import { NAME_KEY } from "./waiting.js";

// An invitation (#invite=...) or a spectator link (#watch=...) brings its secret in the
// address's fragment, which browsers never send to a server; it is kept in this browser.
function readFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get("invite")) localStorage.setItem(INVITE_KEY, fragment.get("invite"));
  if (fragment.get("watch")) localStorage.setItem(WATCH_KEY, fragment.get("watch"));
}
readFragment();
// A link opened on this very page (only its fragment differs) does not reload it.
window.addEventListener("hashchange", () => {
  readFragment();
  reconnect();
});

// ------------------------------------------------------------------ the connection

// The connection's state in the status line (`problem`: not connected, always shown).
function said(text, problem) {
  fill(ui.connection, text);
  ui.connection.classList.toggle("problem", problem);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(`${scheme}${location.host}/ws/${encodeURIComponent(tableId)}`);
  st.socket = socket;
  said(_("connecting…"), true);
  socket.addEventListener("open", () => {
    const seat = saved();
    const hello = { type: "hello", person: personId() };
    if (seat && seat.token) {
      hello.token = seat.token;
    } else {
      const key = invite() || localStorage.getItem(WATCH_KEY);
      if (key) hello.key = key;
      if (localStorage.getItem(NAME_KEY)) hello.name = localStorage.getItem(NAME_KEY);
    }
    const shown = shownBefore();
    if (shown) hello.shown = shown;
    socket.send(JSON.stringify(hello));
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    receive(message);
  });
  socket.addEventListener("close", (event) => {
    if (st.socket !== socket) return;
    st.socket = null;
    if (event.code === 4404) {
      said(_("no such table"), true);
      notice(ui.notice, _("There is no such table. Check the link, or create a table in the lobby."));
      return;
    }
    if (event.code === 4410) {
      localStorage.removeItem(SEAT_KEY);
      fill(ui.connection, _("removed"));
      ui.root.dataset.status = "removed";
      notice(ui.notice, _("The host removed you from this table."));
      return;
    }
    if (event.code === 4403) {
      said(_("private table"), true);
      ui.root.dataset.status = "private";
      notice(ui.notice, _("This table is private: you need its invitation link (or a spectator link) to sit or watch."));
      return;
    }
    if (event.code === 4401) {
      localStorage.removeItem(SEAT_KEY);
      notice(ui.notice, _("Your seat token is not valid for this table: you are watching."), "info");
    }
    st.retry = Math.min(st.retry + 1, 6);
    const wait = event.code === 4401 ? 0 : 500 * 2 ** (st.retry - 1);
    said(_("reconnecting…"), true);
    setTimeout(connect, wait);
  });
}

function send(message) {
  if (st.socket && st.socket.readyState === WebSocket.OPEN) {
    st.socket.send(JSON.stringify(message));
    return true;
  }
  return false;
}

function play(action) {
  if (st.pending) return;
  if (send({ type: "action", action, step: st.step })) {
    st.pending = true;
    ui.actions.classList.add("pending");
  }
}

// ------------------------------------------------------------------ updates, card by card

// What this tab had shown, if it left in the middle of a run: {step, part}.
function shownBefore() {
  try {
    const shown = JSON.parse(sessionStorage.getItem(SHOWN_KEY) || "null");
    if (shown && Number.isInteger(shown.step) && Number.isInteger(shown.part) && shown.part < shown.of - 1) {
      return { step: shown.step, part: shown.part };
    }
  } catch {
    // a private window may refuse storage: the page starts from the table as it is
  }
  return null;
}

function rememberShown() {
  try {
    sessionStorage.setItem(SHOWN_KEY, JSON.stringify({ step: st.step, part: st.partIndex, of: st.parts.length }));
  } catch {
    // as above
  }
}

// A step (or a part of one) is now on screen: remembered for a reload, and said to
// whoever listens (the browser tests read the page at every shown step).
function shownNow() {
  rememberShown();
  document.dispatchEvent(new CustomEvent("rummoli:shown", { detail: { step: st.step, part: st.partIndex, of: st.parts.length } }));
}

function stopPlayback() {
  if (st.playing) clearTimeout(st.playing);
  st.playing = null;
  st.queue = [];
  if (ui.skip) ui.skip.hidden = true;
}

// Show the next queued update: at once, or (a run of laid cards at a pace other than
// instant) one laid card at a time, each step's events joining the log as it is shown.
function playNext() {
  st.playing = null;
  const message = st.queue.shift();
  if (!message) return;
  st.table = message.table;
  st.step = message.step;
  st.pending = false;
  const pace = PACES[paceName()];
  let parts = frames(message.view, message.events, message.parts);
  // A page back in the middle of a run (``from``: the card it had shown) draws that card
  // again at once, and goes on from the next.
  const from = message.from === undefined ? -1 : Math.min(message.from, parts.length - 1);
  if (!pace) parts = [[message.view, parts.slice(from + 1).flatMap(([, events]) => events)]];
  st.parts = parts;
  if (pace && from >= 0) {
    st.partIndex = from;
    st.view = parts[from][0];
    ui.root.dataset.playing = "true";
    ui.skip.hidden = false;
    setTimer();
    render();
    shownNow();
    st.playing = setTimeout(() => showPart(from + 1, pace), pace);
    return;
  }
  showPart(0, pace);
}

function showPart(index, pace) {
  st.partIndex = index;
  const [view, events] = st.parts[index];
  st.view = view;
  logEvents(events);
  const more = index < st.parts.length - 1;
  ui.root.dataset.playing = String(more);
  ui.skip.hidden = !(more || st.queue.length);
  setTimer();
  render();
  shownNow();
  cueFrame(events);
  if (more) st.playing = setTimeout(() => showPart(index + 1, pace), pace);
  // The next update waits its turn too when this one ended on a laid card, so two
  // cards never appear at once.
  else if (st.queue.length) st.playing = setTimeout(playNext, events.some((e) => e.type === "lay") ? pace : 0);
  else {
    st.playing = null;
    // Only after a run shown card by card: the table may be waiting for this page (a
    // message after every update would spend the connection's allowance of messages).
    if (st.parts.length > 1) watched();
  }
}

function logEvents(events) {
  for (const e of events) {
    st.log.push(e);
    track(e);
  }
  if (st.log.length > LOG_LINES * 2) st.log = st.log.slice(-LOG_LINES);
}

// "Skip": the rest of the run and every update waiting behind it, shown at once (their
// lines still join the log), and the table told this page has seen them.
function skipRun() {
  if (!st.playing) return;
  clearTimeout(st.playing);
  st.playing = null;
  for (const [view, events] of st.parts.slice(st.partIndex + 1)) {
    st.view = view;
    logEvents(events);
  }
  for (const message of st.queue.splice(0)) {
    st.table = message.table;
    st.step = message.step;
    st.view = message.view;
    logEvents(message.events);
  }
  st.parts = [[st.view, []]];
  st.partIndex = 0;
  st.pending = false;
  ui.root.dataset.playing = "false";
  ui.skip.hidden = true;
  setTimer();
  render();
  shownNow();
  cueFrame([]);
  watched();
}

// The table waits for its seated people to see a run before its next move: tell it this
// page's pace and the last step it has shown (at a pace the server knows, it would
// otherwise wait the whole run's length).
function watched() {
  send({ type: "watching", pace: PACES[paceName()], seen: st.step });
}

function receive(message) {
  switch (message.type) {
    case "state":
      stopPlayback();
      st.retry = 0;
      st.seat = message.seat;
      st.table = message.table;
      st.view = message.view;
      st.step = message.step;
      st.log = message.log || [];
      st.chat.lines = message.chat || [];
      st.chat.me = message.me || null;
      st.chat.muted = new Set(message.muted || []);
      st.roundEvents = [];
      for (const e of st.log) track(e);
      st.pending = false;
      said(message.seat === null ? _("watching") : _("connected"), false);
      if (message.resume) {
        // Back in the middle of a run: the rest of it, then what happened after it.
        const { update, from, after } = message.resume;
        st.queue.push({ ...update, table: message.table, from });
        if (after.length || message.step !== update.step) {
          st.queue.push({ type: "update", step: message.step, events: after, view: message.view, table: message.table });
        }
        playNext();
        break;
      }
      st.view = message.view;
      st.step = message.step;
      st.partIndex = 0;
      st.parts = [[message.view, []]];
      setTimer();
      render();
      shownNow();
      cueFrame([]);
      watched();
      break;
    case "update":
      st.queue.push(message);
      if (!st.playing) playNext();
      break;
    case "hint":
      st.hint = message;
      render();
      break;
    case "while_away":
      st.whileAway = message;
      render();
      break;
    case "table":
      st.table = message.table;
      setTimer();
      render();
      break;
    case "error":
      st.pending = false;
      ui.actions.classList.remove("pending");
      st.hintAsked = null;
      if (message.code === "released" || message.code === "removed") localStorage.removeItem(SEAT_KEY);
      if (message.code !== "bad_token") notice(ui.notice, errorText(message.code === "illegal" ? refusalWorded(message, st.view) : message));
      break;
    case "chat":
      addChat(st.chat, message);
      renderSocial();
      break;
    case "muted":
      applyMuted(st.chat, message);
      renderSocial();
      break;
    case "listening":
      st.chat.listening = message.spectators;
      renderSocial();
      break;
    case "rematch": {
      // The same seat token serves at the rematch's table (and the host's secret too).
      const seat = saved();
      if (seat) localStorage.setItem(`rummoli.seat.${message.table}`, JSON.stringify({ ...seat, seat: message.seat }));
      const host = localStorage.getItem(HOST_KEY);
      if (host) localStorage.setItem(`rummoli.host.${message.table}`, host);
      location.href = `/table/${encodeURIComponent(message.table)}`;
      break;
    }
    default:
      break;
  }
}

function track(event) {
  if (event.type === "dealer") st.roundEvents = [];
  st.roundEvents.push(event);
  if (event.type === "round_over") st.summary = roundSummary(st.roundEvents);
  if (event.type === "hand_over") st.summary = rummyHandSummary(st.roundEvents);
}

// ------------------------------------------------------------------ the timer

function setTimer() {
  const turn = st.table && st.table.turn;
  st.deadline = turn && turn.seconds_left !== null ? performance.now() + turn.seconds_left * 1000 : null;
  tick();
}

function timerText() {
  if (st.deadline === null) return "";
  const left = Math.max(0, Math.ceil((st.deadline - performance.now()) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

function tick() {
  const timer = $("[data-testid=timer]");
  if (timer) timer.textContent = timerText();
}

setInterval(tick, 250);

// ------------------------------------------------------------------ drawing

function render() {
  keepFocus(draw);
}

function draw() {
  const table = st.table;
  const view = st.view;
  ui.root.dataset.status = table ? table.status : "";
  ui.root.dataset.step = String(st.step);
  ui.root.dataset.seat = st.seat === null ? "" : String(st.seat);
  ui.root.dataset.phase = view ? view.phase : "";
  ui.root.dataset.toMove = view && view.to_move !== null ? String(view.to_move) : "";
  ui.root.dataset.myTurn = String(Boolean(view && st.seat !== null && view.to_move === st.seat));
  ui.root.dataset.game = table ? table.game || "rummoli" : "";
  ui.actions.classList.toggle("pending", st.pending);
  renderPaused();
  renderWaitingTable();
  renderSocial();
  renderLearning({ view, table, seat: st.seat, redraw: render });
  if (!view) {
    ui.game.hidden = true;
    renderStatus(ui.status, null, table, me(), "");
    return;
  }
  ui.game.hidden = false;
  for (const name of Object.keys(CLIENTS)) ui.game.classList.toggle(name, name === view.game);
  client().render(view, table);
  renderHint(ui.hint, { view, seat: st.seat, step: st.step, hint: st.hint, asked: st.hintAsked, ask: askHint });
}

function askHint() {
  if (send({ type: "hint", step: st.step })) {
    st.hintAsked = st.step;
    render();
  }
}

// Sounds, the screen reader's lines and the turn's alert for the frame just drawn (its
// events said with what came before them: a lead says why).
function reconnect() {
  const old = st.socket;
  st.socket = null;
  if (old) old.close();
  connect();
}

// The pace of a run of laid cards: chosen here, remembered in this browser.
const paceSelect = $("#pace");
paceSelect.value = paceName();
paceSelect.addEventListener("change", () => {
  setPace(paceSelect.value);
  if (paceSelect.value === "instant") skipRun();
  watched();
});
ui.skip = h("button", { type: "button", testid: "skip", className: "skip", hidden: true, onClick: skipRun }, _("Skip the run"));
paceSelect.closest("label").after(ui.skip);
let prefs = tablePrefs();
$(".status-right").prepend(prefs);

document.body.prepend(header("table"));
// A new language: everything drawn again in it, in place (a run goes on where it is).
onLanguageChange(() => {
  $("header.site").replaceWith(header("table"));
  const fresh = tablePrefs();
  prefs.replaceWith(fresh);
  prefs = fresh;
  ui.skip.textContent = _("Skip the run");
  if (st.socket) said(st.seat === null ? _("watching") : _("connected"), false);
  render();
  loadOptions(() => st.table && render()).catch(() => {});
});
// The drawing acts through these (table_state.js: hooks).
Object.assign(hooks, { play, send, render, reconnect, timerText });
$("#table-id").textContent = tableId;
connect();
// The computer players' labels and the house rules' titles: drawn once they arrive.
loadOptions(() => st.table && render()).catch(() => {});
// (Exported for the browser tests: nothing here is needed by the page itself.)
window.rummoliTable = { state: st };
