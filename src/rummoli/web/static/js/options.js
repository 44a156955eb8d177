// What the server says about each game (/api/options), fetched once per page and shared:
// the computer players' labels ("Expert") and what each does, and the house
// rules' titles and defaults, so a table or the lobby's list can say which rules are in
// force and how they differ from the defaults. Nothing here names a game: the labels
// come from each game's description on the server.
import { levelName } from "./cards.js";
import { api, h, withLanguage } from "./dom.js";
import { _, currentLanguage, ngettext } from "./i18n.js";

let cached = null;
let loading = null;
// The language the options are in (their titles and help are worded by the server).
let cachedIn = null;

/** The options in the page's language, once fetched (null before); `then` runs when
 * they arrive (again after a change of language). */
export function loadOptions(then) {
  if (cached && cachedIn === currentLanguage()) return then ? Promise.resolve(cached).then(then) : Promise.resolve(cached);
  if (!loading || cachedIn !== currentLanguage()) {
    const language = currentLanguage();
    cachedIn = language;
    cached = null;
    loading = api(withLanguage("/api/options")).then((options) => {
      if (cachedIn === language) cached = options;
      return options;
    });
    loading.catch(() => {
      loading = null;
    });
  }
  return then ? loading.then(then) : loading;
}

/** The options if they have arrived, else null (callers draw codes meanwhile). */
export function optionsNow() {
  return cachedIn === currentLanguage() ? cached : null;
}

/** The game's word for a round, as a code ("round", "hand": its description's), so a
 * page picks a whole sentence by it; "round" until the options have arrived. */
export function roundCode(game) {
  const about = cached && cached.games && cached.games[game];
  return (about && about.round_code) || "round";
}

function labelOf(game, level) {
  const about = cached && cached.games && cached.games[game];
  return about && about.level_labels ? about.level_labels[level] : null;
}

/** A computer level for people: "Expert" (what the level does is its help); the
 * level's own word (strong: fort, сильный) until the labels are known. */
export function levelTitle(game, level) {
  const label = labelOf(game, level);
  return label ? label.title : levelName(level);
}

/** What a computer level does, in one line ("" until known). */
export function levelHelp(game, level) {
  const label = labelOf(game, level);
  return label ? label.help : "";
}

/** A house rule's value as the lobby's form shows it: a choice by its title ("none":
 * "No widow") when the rule's words are known. */
export function ruleValue(value, rule = null) {
  if (value === null) return _("by players");
  if (value === true) return _("on");
  if (value === false) return _("off");
  const label = rule && rule.values && rule.values[value];
  return label ? label.title : String(value).replaceAll("_", " ");
}

/** The rules a table agrees on before it starts (how long, with what) rather than how
 * it plays: said as settings ("5 rounds"), never announced as house rules. */
export const TABLE_SETTINGS = new Set(["starting_chips", "rounds", "target"]);

/**
 * The house rules in force that differ from the defaults, for people: one item per
 * changed rule, "Widow: auction (default: exchange or auction)". `changed`: the table's
 * changed house rules ({name: value}), as the server sends them (settings left out).
 */
export function changedRules(game, changed) {
  const about = cached && cached.games && cached.games[game];
  const rules = about ? about.rules : [];
  return Object.entries(changed || {})
    .filter(([name]) => !TABLE_SETTINGS.has(name))
    .map(([name, value]) => {
      const rule = rules.find((r) => r.name === name);
      const title = rule ? rule.title || name : name.replaceAll("_", " ");
      return {
        name,
        title,
        value: ruleValue(value, rule),
        default: rule ? ruleValue(rule.default, rule) : "",
        help: rule ? rule.help : "",
      };
    });
}

/** The table's settings in words: "5 rounds", "no round limit", "50 chips each", "game
 * to 300 points" (a setting left at its default is not said, but for the rounds). */
export function settingsText(game, changed) {
  const about = cached && cached.games && cached.games[game];
  const rules = about ? about.rules : [];
  const value = (name) => (name in (changed || {}) ? changed[name] : (rules.find((r) => r.name === name) || {}).default);
  const out = [];
  if (rules.some((r) => r.name === "rounds")) {
    const rounds = value("rounds");
    out.push(rounds ? ngettext("{n} round", "{n} rounds", rounds) : _("no round limit"));
  }
  if (changed && "starting_chips" in changed) out.push(ngettext("{n} chip each", "{n} chips each", changed.starting_chips));
  if (changed && "target" in changed && changed.target) out.push(ngettext("game to {n} point", "game to {n} points", changed.target));
  return out.join(", ");
}

/** A compact line of the rules in force: the settings, then "House rules: the
 * defaults", or each change. */
export function rulesLine(game, changed, testid) {
  const items = changedRules(game, changed);
  const settings = settingsText(game, changed);
  const lead = settings ? [h("span", { className: "settings", testid: testid && `${testid}-settings` }, `${settings}.`), " "] : [];
  if (!items.length) return h("p", { className: "rules-line muted", testid }, lead, _("House rules: the defaults."));
  return h(
    "p",
    { className: "rules-line", testid },
    lead,
    h("span", { className: "rules-line-label" }, _("House rules:")),
    " ",
    items.map((item, i) =>
      h(
        "span",
        { className: "rule-change", title: item.help, dataset: { rule: item.name } },
        i ? "; " : "",
        _("{title}: {value} (default {default})", { title: item.title, value: item.value, default: item.default }),
      ),
    ),
  );
}
