// The lobby: open tables, and the form that creates one. The form is built from
// /api/options: for each game (Rummoli, Basic Rummy) its house rules, their defaults and
// help, presets, computer levels and seats.
import { $, api, errorText, fill, h, header, notice, withLanguage } from "./dom.js";
import { _, ngettext, number } from "./i18n.js";
import { levelHelp, levelTitle, loadOptions, rulesLine } from "./options.js";

const NAME_KEY = "rummoli.name";
const GAME_KEY = "rummoli.game";
const MAIN_RULES = new Set(["starting_chips", "rounds"]);

let allOptions = null;
// The chosen game's part of the options (rules, presets, levels, seats).
let options = null;
// The chosen game, by name; the default is the first game the server lists.
let game = "";

function defaultGame() {
  return Object.keys(allOptions.games)[0];
}

async function loadTables() {
  const list = $("#tables");
  try {
    const { tables } = await api("/api/tables");
    if (!tables.length) {
      fill(list, h("p", { className: "muted" }, _("No open tables. Create one below.")));
      return;
    }
    fill(
      list,
      h(
        "ul",
        { className: "table-list", testid: "open-tables" },
        tables.map((t) => {
          const free = t.seats.filter((s) => s.free).length;
          const about = (allOptions && allOptions.games[t.game]) || { title: t.game, round_word: _("round") };
          const names = t.seats.map((s) => s.name || "—");
          return h(
            "li",
            { testid: `table-row-${t.id}` },
            h(
              "div",
              { className: "table-row-main" },
              h("span", { className: "pill game", testid: `table-game-${t.id}` }, about.title),
              h("span", { className: `pill status-${t.status}` }, t.status === "waiting" ? ngettext("{n} seat free", "{n} seats free", free) : _("{word} {n}", { word: about.round_word, n: t.round })),
              h("span", { className: "names" }, names.join(", ")),
            ),
            rulesLine(t.game, t.changed, `table-rules-${t.id}`),
            h(
              "div",
              { className: "buttons" },
              h("a", { className: `btn ${t.status === "waiting" ? "primary" : ""}`, href: `/table/${encodeURIComponent(t.id)}` }, t.status === "waiting" ? _("Join") : _("Watch")),
            ),
          );
        }),
      ),
    );
  } catch (error) {
    notice(list, errorText(error));
  }
}

function seatSelect(index, value) {
  const levels = options.levels;
  return h(
    "label",
    { className: "seat-choice" },
    h("span", {}, index === 0 ? _("Seat 1 (you)") : _("Seat {seat}", { seat: index + 1 })),
    h(
      "select",
      { testid: `seat-kind-${index}`, name: `seat-${index}`, disabled: index === 0 },
      h("option", { value: "human" }, _("Person")),
      levels.map((level) => h("option", { value: level, selected: value === level, title: levelHelp(game, level) }, levelTitle(game, level))),
    ),
  );
}

function renderSeats(count) {
  const box = $("#seat-kinds");
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  const fallback = options.levels.includes("basic") ? "basic" : options.levels[0];
  fill(box, Array.from({ length: count }, (_unused, i) => seatSelect(i, before[i] || (i === 0 ? "human" : fallback))));
}

function ruleInput(rule) {
  const id = `rule-${rule.name}`;
  let input;
  if (rule.kind === "bool") {
    input = h("input", { type: "checkbox", id, name: rule.name, testid: id, checked: rule.default });
  } else if (rule.kind === "optional_int") {
    // null: the game's value for the table's size; or one of the usual ones; or any.
    const other = h("input", { type: "number", min: rule.minimum ?? 0, max: rule.maximum, step: 1, value: 50, name: `${rule.name}_n`, className: "short", "aria-label": rule.title || rule.name, testid: `${id}-n`, inputmode: "numeric" });
    const byPlayers = Object.entries(rule.by_players || {}).map(([n, t]) => _("{value} for {n}", { value: t, n: Number(n) })).join(", ");
    const select = h(
      "select",
      { id, name: rule.name, testid: id },
      h("option", { value: "" }, _("by players ({list})", { list: byPlayers })),
      (rule.suggested || []).map((c) => h("option", { value: String(c) }, String(c))),
      h("option", { value: "other" }, _("other…")),
    );
    const sync = () => {
      other.hidden = select.value !== "other";
    };
    select.addEventListener("change", sync);
    other.hidden = true;
    input = h("span", { className: "inline" }, select, other);
  } else if (rule.kind === "int") {
    input = h("input", { type: "number", id, name: rule.name, testid: id, min: rule.minimum ?? 0, max: rule.maximum, step: 1, value: rule.default, inputmode: "numeric" });
  } else if (rule.kind === "choice_or_int") {
    // One of the words, or "fixed": a whole number (Rummoli's fixed-limit bet).
    const fixed = h("input", { type: "number", min: rule.minimum ?? 0, max: rule.maximum, step: 1, value: 10, name: `${rule.name}_n`, className: "short", "aria-label": rule.title || rule.name, testid: `${id}-n` });
    const select = h("select", { id, name: rule.name, testid: id }, [...rule.choices, "fixed"].map((c) => h("option", { value: c, selected: c === rule.default }, c === "fixed" ? _("fixed") : valueTitle(rule, c))));
    const sync = () => {
      fixed.hidden = select.value !== "fixed";
    };
    select.addEventListener("change", sync);
    fixed.hidden = true;
    input = h("span", { className: "inline" }, select, fixed);
  } else {
    input = h("select", { id, name: rule.name, testid: id }, (rule.choices || []).map((c) => h("option", { value: c, selected: c === rule.default }, valueTitle(rule, c))));
  }
  // A choice's own line: what the word chosen does, kept up to date as it changes.
  const select = input.tagName === "SELECT" ? input : input.querySelector("select");
  const valueHelp = rule.values && select ? h("p", { className: "help value-help", testid: `${id}-value-help` }) : null;
  if (valueHelp) {
    const say = () => fill(valueHelp, (rule.values[select.value] || {}).help || "");
    select.addEventListener("change", say);
    say();
  }
  return h(
    "div",
    { className: "rule" },
    h("label", { for: id, className: "rule-name", title: rule.name }, rule.title || rule.name.replaceAll("_", " ")),
    input,
    valueHelp,
    h("p", { className: "help" }, rule.values ? null : rule.help, h("span", { className: "default" }, " ", _("Default: {value}.", { value: defaultText(rule.default, rule) }))),
  );
}

/** A choice's word as people read it ("none": "No widow"), or the word itself. */
function valueTitle(rule, word) {
  const label = rule.values && rule.values[word];
  return label ? label.title : word.replaceAll("_", " ");
}

/** A house rule's default as the form and the rules page say it. */
export function defaultText(value, rule = null) {
  if (value === null) return _("by players");
  if (value === false) return _("off");
  if (value === true) return _("on");
  if (rule && typeof value === "string") return valueTitle(rule, value);
  return typeof value === "number" ? number(value) : String(value);
}

// The house rules in the game's groups (widow, poker, the Rummoli phase, end of game).
function ruleGroups() {
  const byName = Object.fromEntries(options.rules.map((r) => [r.name, r]));
  const groups = options.groups && options.groups.length ? options.groups : [{ title: "", rules: options.rules.map((r) => r.name) }];
  return h(
    "div",
    { className: "rule-list" },
    groups.map((group, i) => {
      const rules = group.rules.filter((name) => byName[name] && !MAIN_RULES.has(name)).map((name) => ruleInput(byName[name]));
      if (!rules.length) return null;
      return h("fieldset", { className: "rule-group", testid: `rule-group-${i}` }, group.title ? h("legend", {}, group.title) : null, rules);
    }),
  );
}

function applyPreset(name) {
  const changes = name ? options.presets[name] || {} : {};
  for (const rule of options.rules) {
    if (MAIN_RULES.has(rule.name)) continue;
    const value = rule.name in changes ? changes[rule.name] : rule.default;
    const input = $(`#rule-${rule.name}`);
    if (!input) continue;
    if (rule.kind === "bool") input.checked = Boolean(value);
    else if (rule.kind === "choice_or_int") {
      input.value = typeof value === "number" ? "fixed" : value;
      input.dispatchEvent(new Event("change"));
    } else {
      input.value = String(value);
      input.dispatchEvent(new Event("change"));
    }
  }
}

function readRules(form) {
  const rules = {};
  for (const rule of options.rules) {
    if (MAIN_RULES.has(rule.name)) continue;
    const input = $(`#rule-${rule.name}`, form);
    let value;
    if (rule.kind === "bool") value = input.checked;
    else if (rule.kind === "int") value = Number(input.value);
    else if (rule.kind === "optional_int") value = input.value === "" ? null : input.value === "other" ? Number(form.elements[`${rule.name}_n`].value) : Number(input.value);
    else if (rule.kind === "choice_or_int") value = input.value === "fixed" ? Number(form.elements[`${rule.name}_n`].value) : input.value;
    else value = input.value;
    if (value !== rule.default) rules[rule.name] = value;
  }
  for (const name of MAIN_RULES) if (form.elements[name]) rules[name] = Number(form.elements[name].value);
  return rules;
}

function chooseGame(next) {
  const form = $("#create");
  const kept = form.elements.name ? form.elements.name.value : null;
  const timer = form.elements.turn_timer ? form.elements.turn_timer.value : null;
  const limit = form.elements.time_limit ? form.elements.time_limit.value : null;
  game = next in allOptions.games ? next : defaultGame();
  options = allOptions.games[game];
  localStorage.setItem(GAME_KEY, game);
  buildForm();
  if (kept !== null) form.elements.name.value = kept;
  if (timer !== null) form.elements.turn_timer.value = timer;
  if (limit !== null) form.elements.time_limit.value = limit;
}

function buildForm() {
  const form = $("#create");
  const has = (name) => options.rules.some((r) => r.name === name);
  const presets = Object.keys(options.presets).length > 0;
  const gameSelect = h("select", { name: "game", testid: "game", id: "game" }, Object.entries(allOptions.games).map(([key, g]) => h("option", { value: key, selected: key === game }, g.title)));
  gameSelect.addEventListener("change", () => chooseGame(gameSelect.value));
  const count = h("select", { name: "seats", testid: "seat-count", id: "seat-count" }, Array.from({ length: options.seats.max - options.seats.min + 1 }, (_unused, i) => {
    const n = options.seats.min + i;
    return h("option", { value: String(n), selected: n === Math.min(4, options.seats.max) }, String(n));
  }));
  count.addEventListener("change", () => renderSeats(Number(count.value)));
  // The printed rule sets, one click each: the one in force is pressed.
  const presetLabel = (name) => (options.preset_labels || {})[name] || { title: name.replaceAll("_", " "), help: "" };
  const presetButtons = Object.keys(options.presets).map((name) => h("button", {
    type: "button",
    className: "btn small preset",
    testid: `preset-${name}`,
    "aria-pressed": "false",
    title: presetLabel(name).help,
    onClick: () => {
      applyPreset(name);
      for (const b of preset.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.testid === `preset-${name}`));
      fill(presetHelp, presetLabel(name).help);
    },
  }, presetLabel(name).title));
  const presetHelp = h("p", { className: "help", testid: "preset-help" });
  const preset = h("div", { className: "presets", testid: "preset", role: "group", "aria-label": _("Printed rules") }, presetButtons);
  const field = (label, input, help) => h("div", { className: "field" }, h("label", {}, label, input), help ? h("p", { className: "help" }, help) : null);
  const round = options.round_word;
  const limit = (name, key, fallback) => {
    const rule = options.rules.find((r) => r.name === name);
    return rule && rule[key] !== undefined ? rule[key] : fallback;
  };
  fill(
    form,
    h("h2", {}, _("New table")),
    h(
      "div",
      { className: "form-grid" },
      field(_("Game"), gameSelect, options.intro ? _(options.intro) : null),
      field(_("Your name"), h("input", { type: "text", name: "name", required: true, maxlength: allOptions.max_name, autocomplete: "nickname", value: localStorage.getItem(NAME_KEY) || "", testid: "create-name" })),
      field(_("Seats"), count, _("{min} to {max} players", { min: options.seats.min, max: options.seats.max })),
      has("starting_chips") ? field(_("Starting chips"), h("input", { type: "number", name: "starting_chips", min: limit("starting_chips", "minimum", 1), max: limit("starting_chips", "maximum"), step: 1, value: 100, testid: "starting-chips", inputmode: "numeric" })) : null,
      has("rounds") ? field(_("Rounds"), h("input", { type: "number", name: "rounds", min: limit("rounds", "minimum", 0), max: limit("rounds", "maximum"), step: 1, value: 5, testid: "rounds", inputmode: "numeric" }), _("0: until one player is left or the time is up")) : null,
      field(_("Who may sit"), h("label", { className: "inline" }, h("input", { type: "checkbox", name: "public", testid: "public" }), " ", _("list it in the lobby: anyone may sit")), _("Otherwise the table is private: only the people you send its invitation link can sit, or watch")),
      field(_("Time limit (minutes)"), h("input", { type: "number", name: "time_limit", min: 0, max: allOptions.max_time_limit, step: 1, value: 0, testid: "time-limit", inputmode: "numeric" }), _("0: none. When it is up, the {round} being played is the last", { round })),
      field(_("Turn timer (seconds)"), h("input", { type: "number", name: "turn_timer", min: 0, max: allOptions.max_turn_timer, step: 1, value: 60, testid: "turn-timer", inputmode: "numeric" }), _("0: none. A player away past it is played by the computer ({level}) until he is back", { level: levelTitle(game, options.standin) })),
    ),
    h("h3", {}, _("Players")),
    h("div", { id: "seat-kinds", className: "seat-kinds" }),
    h("ul", { className: "help level-help", testid: "level-help" }, options.levels.map((level) => h("li", { dataset: { level } }, h("strong", {}, levelTitle(game, level)), ": ", levelHelp(game, level)))),
    h(
      "details",
      { className: "rules", open: options.rules.length <= 4 },
      h("summary", {}, _("House rules")),
      presets ? h("div", { className: "field" }, h("span", { className: "rule-name" }, _("Printed rules")), preset, presetHelp, h("p", { className: "help" }, _("A preset sets the house rules below; you may still change any of them"))) : null,
      ruleGroups(),
    ),
    h("div", { id: "create-error" }),
    h("div", { className: "buttons" }, h("button", { type: "submit", className: "btn primary big", testid: "create-submit" }, _("Create table and sit down"))),
  );
  renderSeats(Math.min(4, options.seats.max));
  form.onsubmit = async (event) => {
    event.preventDefault();
    const seats = [...form.querySelectorAll("#seat-kinds select")].map((s) => s.value);
    const body = {
      game,
      seats,
      rules: readRules(form),
      turn_timer: Number(form.elements.turn_timer.value),
      time_limit: Number(form.elements.time_limit.value),
      public: form.elements.public.checked,
    };
    const name = form.elements.name.value;
    try {
      // One request creates the table and seats its creator: a refused name creates nothing.
      const created = await api(withLanguage("/api/tables"), { method: "POST", body: { ...body, name } });
      const seat = created.seat;
      // The seat token, the host's secret and the invitation stay in this browser only.
      localStorage.setItem(`rummoli.seat.${created.id}`, JSON.stringify({ token: seat.token, seat: seat.seat, name: seat.name }));
      localStorage.setItem(`rummoli.host.${created.id}`, created.host);
      localStorage.setItem(`rummoli.invite.${created.id}`, created.invite);
      localStorage.setItem(NAME_KEY, seat.name);
      location.href = created.url;
    } catch (error) {
      notice($("#create-error"), errorText(error));
    }
  };
}

async function main() {
  document.body.prepend(header("lobby"));
  setInterval(loadTables, 5000);
  try {
    allOptions = await loadOptions();
    loadTables();
    const wanted = new URLSearchParams(location.search).get("game") || localStorage.getItem(GAME_KEY) || defaultGame();
    game = wanted in allOptions.games ? wanted : defaultGame();
    options = allOptions.games[game];
    buildForm();
  } catch (error) {
    notice($("#create"), errorText(error));
    loadTables();
  }
}

main();
