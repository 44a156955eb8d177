// What opens a private game once it is over: the seat tokens and host secrets this
// browser keeps (localStorage). A private game is listed, counted and replayed only for
// its people, so the history, the players' page and the replay send them (the server
// checks them: web/access.py). Nothing here is shown; it only goes back to the server.
const SEAT = "rummoli.seat.";
const HOST = "rummoli.host.";
// The pairs a listing sends at most (the server reads 200).
const MAX_GAMES = 200;

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function seatToken(id) {
  try {
    return (JSON.parse(read(`${SEAT}${id}`) || "null") || {}).token || null;
  } catch {
    return null;
  }
}

/** The headers that open one game: this browser's seat token there (a player's: the
 * chat too), and the host's secret, else the invitation or the spectator link. */
export function gameHeaders(id) {
  const headers = {};
  const token = seatToken(id);
  if (token) headers["X-Rummoli-Token"] = token;
  const key = read(`${HOST}${id}`) || read(`rummoli.invite.${id}`) || read(`rummoli.watch.${id}`);
  if (key) headers["X-Rummoli-Key"] = key;
  return headers;
}

/** The headers of a listing (history, players, statistics): every game this browser
 * sat at or hosted, as `id:secret` pairs, so its private games are listed to it. */
export function listingHeaders() {
  const pairs = [];
  try {
    for (let i = 0; i < localStorage.length && pairs.length < MAX_GAMES; i++) {
      const key = localStorage.key(i);
      if (!key) continue;
      if (key.startsWith(SEAT)) {
        const id = key.slice(SEAT.length);
        const token = seatToken(id);
        if (token) pairs.push(`${id}:${token}`);
      } else if (key.startsWith(HOST)) {
        pairs.push(`${key.slice(HOST.length)}:${read(key)}`);
      }
    }
  } catch {
    // a private window may refuse storage: the public games are listed all the same
  }
  return pairs.length ? { "X-Rummoli-Games": pairs.join(" ") } : {};
}

/** This browser's own id (128 random bits, kept): the table knows a spectator by it
 * after a reload (his name, whom he muted), and the host's removal follows it. It is
 * sent to the table's server only, and never shown. */
export function personId() {
  const KEY = "rummoli.person";
  let id = read(KEY);
  if (!id || !/^[A-Za-z0-9_-]{16,64}$/.test(id)) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    id = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    try {
      localStorage.setItem(KEY, id);
    } catch {
      // a private window may refuse storage: a new id for this page only
    }
  }
  return id;
}

/** A record's link: a click fetches it with this browser's secrets (a private game's
 * record is its people's) and saves it under the link's `download` name. */
export function recordLink(link, id) {
  link.addEventListener("click", async (event) => {
    const headers = gameHeaders(id);
    if (!Object.keys(headers).length) return; // a public game: the plain link
    event.preventDefault();
    const response = await fetch(link.href, { headers });
    if (!response.ok) return;
    const url = URL.createObjectURL(await response.blob());
    const save = document.createElement("a");
    save.href = url;
    save.download = link.getAttribute("download") || `${id}.json`;
    save.click();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  });
  return link;
}
