// How to play: each game's rules as played (the server renders the game's rules text),
// and every house rule with its default and meaning, from /api/options.
import { $, api, fill, h, header, notice } from "./dom.js";

async function show(wanted) {
  try {
    const options = await api("/api/options");
    // The game asked for, else the first the server offers.
    const game = wanted in options.games ? wanted : Object.keys(options.games)[0];
    const rules = await api(`/api/rules/${encodeURIComponent(game)}`);
    fill(
      $("#games"),
      Object.entries(options.games).map(([key, g]) => h("a", { className: `btn ${key === game ? "primary" : ""}`, href: `/rules?game=${encodeURIComponent(key)}`, testid: `rules-game-${key}` }, g.title)),
    );
    // The game's own rules text, as the server's tree of plain elements: built with the
    // DOM, text written as text (no HTML is parsed).
    const build = (node) => (typeof node === "string" ? node : h(node[0], {}, node.slice(1).map(build)));
    fill($("#rules"), rules.blocks.map(build));
    document.title = `${rules.title}: how to play`;
    const about = options.games[game];
    fill(
      $("#house-rules"),
      h(
        "table",
        { className: "house-rules" },
        h("thead", {}, h("tr", {}, h("th", {}, "House rule"), h("th", {}, "Default"), h("th", {}, "Meaning"))),
        h(
          "tbody",
          {},
          about.rules.map((r) => h("tr", {}, h("td", {}, r.title || r.name.replaceAll("_", " ")), h("td", {}, r.default === null ? "by players" : String(r.default)), h("td", {}, r.help))),
        ),
      ),
    );
  } catch (error) {
    notice($("#rules"), error.message);
  }
}

document.body.prepend(header("rules"));
const params = new URLSearchParams(location.search);
show(params.get("game") || "");
