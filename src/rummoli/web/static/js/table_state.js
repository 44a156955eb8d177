// The table page's state, shared by its modules: the table's keys in this browser, the
// page's parts, what the server last sent, and the page's own actions (``hooks``, set by
// table.js: the drawing (table_draw.js) sends and redraws through them, so that the
// connection stays in one module and no import goes in a circle).
import { $ } from "./dom.js";
import { chatState } from "./social.js";

export const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
export const SEAT_KEY = `rummoli.seat.${tableId}`;
export const HOST_KEY = `rummoli.host.${tableId}`;
export const INVITE_KEY = `rummoli.invite.${tableId}`;
export const WATCH_KEY = `rummoli.watch.${tableId}`;
// The step and part of it this tab last showed: a reload in the middle of a run goes on
// from that card (the hello says it; the server answers with the rest of the run).
export const SHOWN_KEY = `rummoli.shown.${tableId}`;
export const LOG_LINES = 300;
// The lines of the round's story beside the laid cards.
export const STORY_LINES = 4;

export function invite() {
  return localStorage.getItem(INVITE_KEY);
}

export const ui = {
  root: $("#table"),
  status: $("#status"),
  notice: $("#notice"),
  waiting: $("#waiting"),
  game: $("#game"),
  players: $("#players"),
  board: $("#board"),
  laid: $("#laid"),
  me: $("#me"),
  hand: $("#hand"),
  actions: $("#actions"),
  hint: $("#hint"),
  away: $("#away"),
  showdown: $("#showdown"),
  summary: $("#summary"),
  standings: $("#standings"),
  log: $("#log"),
  paused: $("#paused"),
  connection: $("#connection"),
  chat: $("#chat-panel"),
  host: $("#host-panel"),
};

export const st = {
  socket: null,
  seat: null,
  table: null,
  view: null,
  step: 0,
  log: [],
  roundEvents: [],
  summary: null,
  pending: false,
  retry: 0,
  deadline: null,
  // Rummy: the cards of this seat's hand selected for a meld, a lay-off or a discard.
  selected: [],
  chat: chatState(),
  // Updates waiting to be shown while a run is shown card by card (playback.js), and the
  // timer of the next card; a fresh "state" cancels both.
  queue: [],
  playing: null,
  // The update being shown: its frames (playback.js) and the one on screen.
  parts: [],
  partIndex: 0,
  // The last hint this seat was given (hint.js), and the step it was asked at.
  hint: null,
  hintAsked: null,
  // What the computer did for this seat while it was away (a "while_away" frame), shown
  // until dismissed.
  whileAway: null,
};

// The table's house rules (how a lead is chosen, for the story), once known.
export function rules() {
  return st.table ? st.table.rules : null;
}

// The game of this table, as the server names it (its view, or the table before a view).
export function gameName() {
  return (st.view && st.view.game) || (st.table && st.table.game) || "";
}

export function saved() {
  try {
    return JSON.parse(localStorage.getItem(SEAT_KEY) || "null");
  } catch {
    return null;
  }
}

export function me() {
  return st.seat;
}

export function myName() {
  return st.seat === null || !st.view ? null : st.view.players[st.seat].name;
}

/** The page's own actions, given by table.js when it starts. */
export const hooks = {
  play: (_action) => {},
  send: (_message) => {},
  render: () => {},
  reconnect: () => {},
  timerText: () => "",
};
