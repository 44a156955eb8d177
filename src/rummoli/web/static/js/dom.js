// Building the page safely: every piece of text goes in with textContent, never as
// markup, so a player named "<img src=x onerror=alert(1)>" is shown as exactly that.
// No module of this site parses strings as HTML (a test reads the sources to make sure).
import { _, currentLanguage, languageSwitch } from "./i18n.js";

/**
 * Create an element. `props`: className, dataset (object), testid, attributes
 * (everything else, set with setAttribute) and on<Event> handlers. Children are nodes
 * or strings (strings become text nodes).
 */
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "className") node.className = value;
    else if (key === "testid") node.dataset.testid = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "text") node.textContent = String(value);
    else if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "value") node.value = value;
    else if (key === "checked") node.checked = Boolean(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace all children of `node`. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

/** GET or POST JSON; errors carry the server's message ("detail") and its wording
 * (`text` and `params`: the sentence as a message id, for errorText). Answers are in
 * the page's language where the server words something (`?lang=`). */
export async function api(path, { method = "GET", body, headers = {} } = {}) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? headers : { "Content-Type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const detail = data && data.detail;
    const message = typeof detail === "string" ? detail : `request failed (${response.status})`;
    const error = new Error(message);
    error.text = data && typeof data.text === "string" ? data.text : typeof detail === "string" ? detail : null;
    error.params = (data && data.params) || {};
    error.status = response.status;
    throw error;
  }
  return data;
}

/** A refusal from the server (an HTTP error from api(), or a WebSocket error frame) in
 * the page's language: its message id (`text`) and values (`params`), else its English. */
export function errorText(error) {
  if (error && typeof error.text === "string" && error.text) return _(error.text, error.params || {});
  if (error && error.status) return _("The request failed ({status}).", { status: error.status });
  return _((error && error.message) || "Something went wrong.");
}

/** An API path with the page's language (`?lang=`), for answers the server words. */
export function withLanguage(path) {
  return `${path}${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(currentLanguage())}`;
}

/** The site's header with its navigation and the language switch; `current` is
 * highlighted. */
export function header(current) {
  const link = (href, label, key) =>
    h("a", { href, className: key === current ? "current" : "", testid: `nav-${key}` }, label);
  return h(
    "header",
    { className: "site" },
    h("a", { href: "/", className: "brand" }, h("span", { className: "brand-mark" }, "♦"), "Rummoli"),
    h(
      "nav",
      {},
      link("/", _("Tables"), "lobby"),
      link("/history", _("History"), "history"),
      link("/player", _("Players"), "player"),
      link("/rules", _("Rules"), "rules"),
    ),
    languageSwitch(),
  );
}

export function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return date.toLocaleString(currentLanguage(), { dateStyle: "medium", timeStyle: "short" });
}

/** A message in a status line (role=status), e.g. an error from the server. */
export function notice(node, text, kind = "error") {
  fill(node, text ? h("div", { className: `notice ${kind}`, role: "status" }, text) : null);
}
