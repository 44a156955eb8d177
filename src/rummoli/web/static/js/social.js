// The people around a game: the table's chat and reactions, muting, the host's powers,
// the rematch. Everything here is text written with textContent (dom.js), like names.
import { api, errorText, fill, h, notice } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { roundCode } from "./options.js";

// The host's end button in the game's own word for a round (Basic Rummy plays hands).
function endWords(table) {
  if (roundCode(table.game) === "hand") return table.last_round ? _("This hand is the last") : _("End after this hand");
  return table.last_round ? _("This round is the last") : _("End after this round");
}

export const EMOTES = { thumbs_up: "👍", clap: "👏", laugh: "😄", wow: "😮", sad: "😢", party: "🎉" };
const CHAT_LINES = 200;
// What each reaction means (a button's title).
const EMOTE_NAMES = { thumbs_up: () => _("thumbs up"), clap: () => _("clap"), laugh: () => _("laugh"), wow: () => _("wow"), sad: () => _("sad"), party: () => _("party") };

/** The chat of one table page: lines kept, who is muted, and how to draw it. */
export function chatState() {
  return { lines: [], me: null, muted: new Set(), listening: false };
}

/** A change of this person's mutes (`{who, on}`: the server sends changes, never the
 * whole list again), or the list a fresh snapshot brings. */
export function applyMuted(chat, message) {
  if (message.who === undefined) return;
  if (message.on) chat.muted.add(message.who);
  else chat.muted.delete(message.who);
  if (message.on) chat.lines = chat.lines.filter((l) => l.from !== message.who);
}

export function addChat(chat, line) {
  chat.lines.push(line);
  if (chat.lines.length > CHAT_LINES) chat.lines = chat.lines.slice(-CHAT_LINES);
}

/** The chat panel: lines (a name, a mute button, the text or the emote), the box to
 * write in, the reactions, and (for a player) reading the spectators' chat too. */
export function renderChat(node, chat, { seat, table, send }) {
  if (!table) {
    node.hidden = true;
    return;
  }
  node.hidden = false;
  const channel = seat === null ? "spectators" : "players";
  const lines = chat.lines.map((line) =>
    h(
      "li",
      { className: `chat-line ${line.channel}${line.kind === "emote" ? " emote" : ""}`, testid: `chat-line-${line.n}`, dataset: { from: line.from, channel: line.channel } },
      h("span", { className: "chat-name" }, line.name),
      line.channel === "spectators" && seat !== null ? h("span", { className: "muted" }, " ", _("(watching)")) : null,
      ": ",
      h("span", { className: "chat-text" }, line.kind === "emote" ? EMOTES[line.text] || line.text : line.text),
      line.from !== chat.me
        ? h("button", { type: "button", className: "link small", testid: `chat-mute-${line.from}`, title: _("Mute {name} for yourself", { name: line.name }), onClick: () => send({ type: "mute", who: line.from, on: true }) }, _("mute"))
        : null,
    ),
  );
  const input = h("input", { type: "text", maxlength: 300, placeholder: seat === null ? _("Talk with the other spectators") : _("Talk with the players"), testid: "chat-input", "aria-label": _("Chat message") });
  const form = h(
    "form",
    { className: "chat-form", testid: "chat-form", onSubmit: (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (text && send({ type: "chat", channel, text })) input.value = "";
    } },
    input,
    h("button", { type: "submit", className: "btn small", testid: "chat-send" }, _("Send")),
  );
  const reactions = h(
    "div",
    { className: "reactions" },
    Object.entries(EMOTES).map(([name, emoji]) => h("button", { type: "button", className: "btn small", testid: `react-${name}`, title: EMOTE_NAMES[name] ? EMOTE_NAMES[name]() : name, onClick: () => send({ type: "react", emote: name }) }, emoji)),
  );
  const muted = [...chat.muted];
  fill(
    node,
    h("h3", {}, seat === null ? _("Spectators' chat") : _("Players' chat")),
    h("ol", { className: "chat", testid: "chat" }, lines),
    form,
    reactions,
    seat !== null
      ? h("label", { className: "inline small" }, h("input", { type: "checkbox", testid: "listen-spectators", checked: chat.listening, onChange: (e) => send({ type: "listen", spectators: e.target.checked }) }), " ", _("show the spectators' chat"))
      : null,
    muted.length
      ? h("p", { className: "muted small", testid: "muted-list" }, _("Muted: {n}.", { n: muted.length }), " ", h("button", { type: "button", className: "link small", testid: "unmute-all", onClick: () => muted.forEach((who) => send({ type: "mute", who, on: false })) }, _("unmute all")))
      : null,
  );
}

/** The host's controls: the seats to take back and an early start before the game,
 * ending it during the game, listing it, a spectator link, opening the players' chat. */
export function renderHost(node, { table, host, tableId }) {
  if (!host || !table || table.status === "finished") {
    node.hidden = true;
    fill(node);
    return;
  }
  node.hidden = false;
  const message = h("div", { testid: "host-error" });
  const act = async (what, args = {}) => {
    try {
      return await api(`/api/tables/${encodeURIComponent(tableId)}/host`, { method: "POST", body: { host, do: what, ...args } });
    } catch (error) {
      notice(message, errorText(error));
      return null;
    }
  };
  const buttons = [];
  if (table.status === "waiting") {
    buttons.push(h("button", { type: "button", className: "btn primary small", testid: "host-start", onClick: () => act("start") }, _("Start now: computers in the empty seats")));
    for (const seat of table.seats) {
      if (!seat.bot && seat.name) {
        buttons.push(h("button", { type: "button", className: "btn small", testid: `host-release-${seat.seat}`, onClick: () => act("release", { seat: seat.seat }) }, _("Free seat {seat} ({name})", { seat: seat.seat + 1, name: seat.name })));
        // Removing bans the person from this table: his name, his seat token, his browser.
        buttons.push(h("button", { type: "button", className: "btn small", testid: `host-remove-${seat.seat}`, title: _("{name} may not sit or watch here again", { name: seat.name }), onClick: () => act("remove", { seat: seat.seat }) }, _("Remove {name}", { name: seat.name })));
      }
    }
  } else {
    buttons.push(h("button", { type: "button", className: "btn small", testid: "host-end", disabled: table.last_round, onClick: () => act("end") }, endWords(table)));
  }
  buttons.push(h("button", { type: "button", className: "btn small", testid: "host-public", onClick: () => act("public", { value: !table.public }) }, table.public ? _("Make it private") : _("List it in the lobby")));
  buttons.push(h("button", { type: "button", className: "btn small", testid: "host-players-chat", onClick: () => act("players_chat", { value: !table.players_chat_public }) }, table.players_chat_public ? _("Close the players' chat to spectators") : _("Let spectators read the players' chat")));
  const link = h("input", { type: "text", readonly: true, testid: "watch-link", "aria-label": _("Spectator link"), hidden: true });
  buttons.push(h("button", { type: "button", className: "btn small", testid: "host-watch-link", onClick: async () => {
    const answer = await act("watch_link");
    if (answer) {
      link.value = `${location.origin}/table/${encodeURIComponent(tableId)}#watch=${answer.secret}`;
      link.hidden = false;
      link.select();
    }
  } }, _("Make a spectator link")));
  fill(node, h("h3", {}, _("You host this table")), h("div", { className: "buttons" }, buttons), link, message);
}

/** The rematch: a button for each player once the game is over, and who accepted. */
export function rematchPart({ table, seat, send }) {
  if (!table || table.status !== "finished" || seat === null) return null;
  const rematch = table.rematch;
  const accepted = rematch ? rematch.accepted.length : 0;
  return h(
    "div",
    { className: "rematch", testid: "rematch" },
    h("button", { type: "button", className: "btn primary", testid: "rematch-button", onClick: () => send({ type: "rematch" }) }, rematch ? _("Accept the rematch") : _("Rematch: same players, same rules")),
    rematch ? h("span", { className: "muted", testid: "rematch-status" }, " ", ngettext("{n} accepted", "{n} accepted", accepted)) : null,
  );
}
