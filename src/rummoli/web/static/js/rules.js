// How to play: each game's rules as played (the server renders the game's rules text),
// and every house rule with its default and meaning, from /api/options.
import { $, api, errorText, fill, h, header, notice, withLanguage } from "./dom.js";
import { _, number } from "./i18n.js";

/** A house rule's default as people read it. */
function defaultText(value) {
  if (value === null) return _("by players");
  if (value === false) return _("off");
  if (value === true) return _("on");
  return typeof value === "number" ? number(value) : String(value);
}

async function show(wanted) {
  try {
    const options = await api(withLanguage("/api/options"));
    // The game asked for, else the first the server offers.
    const game = wanted in options.games ? wanted : Object.keys(options.games)[0];
    const rules = await api(withLanguage(`/api/rules/${encodeURIComponent(game)}`));
    fill(
      $("#games"),
      Object.entries(options.games).map(([key, g]) => h("a", { className: `btn ${key === game ? "primary" : ""}`, href: `/rules?game=${encodeURIComponent(key)}`, testid: `rules-game-${key}` }, g.title)),
    );
    // The game's own rules text, as the server's tree of plain elements: built with the
    // DOM, text written as text (no HTML is parsed).
    const build = (node) => (typeof node === "string" ? node : h(node[0], {}, node.slice(1).map(build)));
    fill($("#rules"), rules.blocks.map(build));
    document.title = _("{game}: how to play", { game: rules.title });
    const about = options.games[game];
    fill(
      $("#house-rules"),
      h(
        "table",
        { className: "house-rules" },
        h("thead", {}, h("tr", {}, h("th", {}, _("House rule")), h("th", {}, _("Default")), h("th", {}, _("Meaning")))),
        h(
          "tbody",
          {},
          about.rules.map((r) => h("tr", {}, h("td", {}, r.title || r.name.replaceAll("_", " ")), h("td", {}, defaultText(r.default)), h("td", {}, r.help))),
        ),
      ),
    );
  } catch (error) {
    notice($("#rules"), errorText(error));
  }
}

document.body.prepend(header("rules"));
const params = new URLSearchParams(location.search);
show(params.get("game") || "");
