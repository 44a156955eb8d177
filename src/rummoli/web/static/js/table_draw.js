// The table page's drawing for each game (its client: how its table, summary, final
// standings and log are drawn and said), and the parts every game shares (the waiting
// room, the away notice, the chat, the final buttons). It reads the page's state
// (table_state.js) and acts through its hooks.
import { renderActions, renderBoard, renderHand, renderLaid, renderPlayers, renderShowdown, renderStatus } from "./board.js";
import { recordLink } from "./access.js";
import { levelName } from "./cards.js";
import { cue, keepFocus } from "./cues.js";
import { fill, h } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { narrate, tell } from "./narrate.js";
import { renderRummoliStandings, renderRummoliSummary } from "./rummoli-end.js";
import {
  narrateRummy,
  renderMelds,
  renderPiles,
  renderRummyActions,
  renderRummyHand,
  renderRummyPlayers,
  renderRummyStatus,
  renderRummySummary,
  rummyChoices,
  renderRummyStandings,
} from "./rummy.js";
import { rematchPart, renderChat, renderHost } from "./social.js";
import { renderWaiting } from "./waiting.js";
import { HOST_KEY, hooks, invite, LOG_LINES, me, myName, rules, gameName, SEAT_KEY, st, STORY_LINES, tableId, ui } from "./table_state.js";

// Each game's client: how its table, final standings and log are drawn, looked up by the
// game's name. A game whose page is not written yet is drawn by the default (Rummoli's).
export function client() {
  return CLIENTS[gameName()] || CLIENTS.rummoli;
}

export function cueFrame(events) {
  const view = st.view;
  const mine = Boolean(view && st.seat !== null && view.to_move === st.seat && view.phase !== "over" && (view.legal_actions || []).length);
  const before = st.log.slice(Math.max(0, st.log.length - events.length - 40), st.log.length - events.length);
  cue({ events, lines: client().tell(events, myName(), rules(), before), mine, step: st.step });
}

function renderRummoli(view, table) {
  renderStatus(ui.status, view, table, me(), hooks.timerText());
  renderPlayers(ui.players, view, table, me());
  renderBoard(ui.board, view);
  // The story of the run beside its cards, while cards are laid (and at the round's end).
  const story = ["play", "next_round"].includes(view.phase) ? client().tell(st.roundEvents, myName(), rules()).slice(-STORY_LINES) : null;
  renderLaid(ui.laid, view, story);
  renderShowdown(ui.showdown, view, st.roundEvents);
  renderAway();
  if (st.seat !== null) {
    ui.me.hidden = false;
    const canAct = view.to_move === st.seat;
    renderHand(ui.hand, view, canAct ? hooks.play : null);
    renderActions(ui.actions, view, canAct ? hooks.play : null, st.table ? { events: st.roundEvents, rules: st.table.rules } : null);
  } else {
    ui.me.hidden = true;
  }
  renderSummary();
  renderStandings();
  renderLog();
}

// ------------------------------------------------------------------ Basic Rummy

function rummyControl(view) {
  if (st.seat === null || view.to_move !== st.seat || !(view.legal_actions || []).length) {
    st.selected = [];
    return null;
  }
  const hand = view.hand || [];
  st.selected = hand.filter((c) => st.selected.includes(c));
  const choose = (cards) => {
    st.selected = hand.filter((c) => cards.includes(c));
    hooks.render();
  };
  return {
    choices: rummyChoices(view),
    selected: st.selected,
    send: (action) => {
      st.selected = [];
      hooks.play(action);
    },
    toggle: (card) => choose(st.selected.includes(card) ? st.selected.filter((c) => c !== card) : [...st.selected, card]),
    select: (cards) => choose(cards),
    clear: () => choose([]),
  };
}

function renderRummy(view, table) {
  const ctl = rummyControl(view);
  renderRummyStatus(ui.status, view, table, me(), hooks.timerText());
  renderRummyPlayers(ui.players, view, table, me());
  renderPiles(ui.board, view, ctl);
  renderMelds(ui.laid, view, ctl);
  ui.showdown.hidden = true;
  renderAway();
  if (st.seat !== null) {
    ui.me.hidden = false;
    renderRummyHand(ui.hand, view, ctl);
    renderRummyActions(ui.actions, view, ctl);
  } else {
    ui.me.hidden = true;
  }
  renderSummary();
  renderStandings();
  renderLog();
}

export function renderWaitingTable() {
  renderWaiting(ui.waiting, {
    table: st.table,
    seat: st.seat,
    secret: invite(),
    tableId,
    onSeated: (answer) => {
      localStorage.setItem(SEAT_KEY, JSON.stringify({ token: answer.token, seat: answer.seat, name: answer.name }));
      hooks.reconnect();
    },
  });
}

function renderSummary() {
  const s = st.summary;
  if (!s || !st.view) {
    ui.summary.hidden = true;
    return;
  }
  ui.summary.hidden = false;
  client().summary(ui.summary, s, myName());
}

function renderAway() {
  const seat = st.seat !== null && st.table ? st.table.seats[st.seat] : null;
  if (seat && !seat.away && st.whileAway) {
    // Back: what the computer did in this seat meanwhile, until "OK".
    const lines = client().tell(st.whileAway.events, myName(), rules());
    ui.away.hidden = false;
    fill(
      ui.away,
      h(
        "div",
        { className: "while-away", testid: "while-away" },
        h("strong", {}, _("While you were away, the computer ({level}) played for you:", { level: levelName(st.whileAway.level) })),
        lines.length ? h("ul", {}, lines.map((l) => h("li", {}, l.text))) : h("p", {}, _("Nothing was played for you.")),
      ),
      h("button", { type: "button", className: "btn", testid: "while-away-ok", onClick: () => { st.whileAway = null; hooks.render(); } }, _("OK")),
    );
    return;
  }
  if (!seat || !seat.away) {
    ui.away.hidden = true;
    fill(ui.away);
    return;
  }
  ui.away.hidden = false;
  fill(
    ui.away,
    h("span", {}, _("You were away past the turn timer: the computer ({level}) plays for you.", { level: levelName(st.table.standin) })),
    h("button", { type: "button", className: "btn primary", testid: "back-button", onClick: () => hooks.send({ type: "back" }) }, _("I'm back")),
  );
}

function renderStandings() {
  const view = st.view;
  if (!view || view.phase !== "over") {
    ui.standings.hidden = true;
    return;
  }
  ui.standings.hidden = false;
  client().standings(ui.standings, view, finalButtons());
}

function finalButtons() {
  const replaySeat = st.seat === null ? "" : `?seat=${st.seat}`;
  const prefix = gameName() || "game";
  return h(
    "div",
    { className: "buttons" },
    h("a", { className: "btn primary", href: `/replay/${encodeURIComponent(tableId)}${replaySeat}`, testid: "replay-link" }, _("Replay")),
    recordLink(h("a", { className: "btn", href: `/api/games/${encodeURIComponent(tableId)}/record`, download: `${prefix}-${tableId}.json`, testid: "record-link" }, _("Download record")), tableId),
    h("a", { className: "btn", href: "/" }, _("New table")),
    rematchPart({ table: st.table, seat: st.seat, send: hooks.send }),
  );
}

export function renderSocial() {
  keepFocus(() => {
    renderChat(ui.chat, st.chat, { seat: st.seat, table: st.table, send: hooks.send });
    renderHost(ui.host, { table: st.table, host: localStorage.getItem(HOST_KEY), tableId });
  });
}

function renderLog() {
  const atBottom = ui.log.scrollHeight - ui.log.scrollTop - ui.log.clientHeight < 40;
  const lines = client().tell(st.log.slice(-LOG_LINES), myName(), rules());
  fill(ui.log, lines.map((line) => h("li", { className: line.kind }, line.text)));
  if (atBottom) ui.log.scrollTop = ui.log.scrollHeight;
}

// A table whose people have all left waits for them: a spectator is told why nothing moves.
export function renderPaused() {
  const paused = st.table && st.table.status === "playing" ? st.table.paused : null;
  ui.paused.hidden = !paused;
  if (!paused) return;
  const hours = Math.max(1, Math.round(paused.abandon_in / 3600));
  fill(ui.paused, ngettext("The players have all left: the table waits for them (it ends as abandoned in {n} hour).", "The players have all left: the table waits for them (it ends as abandoned in {n} hours).", hours));
}

export const CLIENTS = {
  rummoli: {
    render: renderRummoli,
    summary: renderRummoliSummary,
    standings: (box, view, buttons) => renderRummoliStandings(box, view, st.table ? st.table.rules.starting_chips : undefined, buttons, st.roundEvents, myName()),
    narrate,
    tell,
  },
  rummy: { render: renderRummy, summary: renderRummySummary, standings: renderRummyStandings, narrate: narrateRummy, tell: tellEach(narrateRummy) },
};

// A game whose events are said one by one, each on its own.
function tellEach(say) {
  return (events, me) => events.map((e) => say(e, me)).filter(Boolean);
}
