// The page's words, gettext style: the English text is the key, so a message with no
// translation falls back to English (never to a code name), and the Python side's
// tools (Babel's JavaScript extractor, keywords `_`, `ngettext`, `pgettext`) find every
// message in these sources (`make messages`, docs/i18n.md).
//
//   _("Bet {chips}", {chips: 3})
//   ngettext("{n} chip", "{n} chips", n)          // {n} is filled in with n
//   pgettext("suit", "Hearts")
//
// Placeholders are `{name}`; numbers are formatted for the page's language
// (Intl.NumberFormat). A field may ask for a form of the term put in it: `{loser:acc}`,
// `{space:def}` (terms.js: hands, cards, spaces, players and amounts, with the forms the
// glossary gives them, sent with the catalogue: docs/i18n.md "Terms in sentences"). The language is the one chosen on this browser (the switch in
// every page's header, kept in localStorage), else the first of the browser's languages
// the server has a catalogue for (fr-CA: fr), else English. The catalogue comes from the
// server (GET /api/catalogue/{lang}, built from the compiled web.po) before any page's
// module runs: this module waits for it at its top level, so every module importing it
// (and so every page) starts once the words are there.

const KEY = "rummoli.lang";
const SEP = "\u0004";

let language = "en";
let messages = {};
// The inserted terms' forms: id ("hand.pair") -> {forms, plural, tags} (rummoli.i18n.forms).
let terms = {};
// CLDR plural category ("one", "few", "many", "other") -> index of the gettext form.
let categories = { one: 0, other: 1 };
let languageList = [{ code: "en", name: "English" }];
let plurals = new Intl.PluralRules("en");
let numbers = new Intl.NumberFormat("en");

/** The language the page is shown in (a BCP 47 code such as "en", "fr", "ru"). */
export function currentLanguage() {
  return language;
}

/** The languages the server has catalogues for: [{code, name}] (each in its own words). */
export function languages() {
  return languageList;
}

/** "fr-CA" -> "fr", "ru_RU" -> "ru": the language part of a locale name. */
export function primary(code) {
  return String(code || "").split(/[-_]/)[0].toLowerCase();
}

/** The languages to try, best first: the one chosen here, the browser's, English. */
export function wanted() {
  const out = [];
  const add = (code) => {
    const lang = primary(code);
    if (/^[a-z]{2,3}$/.test(lang) && !out.includes(lang)) out.push(lang);
  };
  try {
    add(localStorage.getItem(KEY));
  } catch {
    // storage may be refused (a private window): the browser's languages decide
  }
  for (const code of navigator.languages || [navigator.language]) add(code);
  add("en");
  return out;
}

// What a page does when the language changes while it is open (onLanguageChange); a
// page that registers nothing is reloaded in the new language.
const redrawers = [];

/** Redraw this page in a new language without reloading it (a table mid-run keeps its
 * place, its connection and its log): `redraw()` runs once the new words are here. */
export function onLanguageChange(redraw) {
  redrawers.push(redraw);
}

/** Choose a language for this browser (the switch): remembered, then the page is drawn
 * again in it (reloaded, for a page that cannot redraw itself). */
export async function chooseLanguage(code) {
  localStorage.setItem(KEY, primary(code));
  if (!redrawers.length) {
    location.reload();
    return;
  }
  await load();
  for (const redraw of redrawers) redraw();
}

async function fetchCatalogue(lang) {
  const response = await fetch(`/api/catalogue/${encodeURIComponent(lang)}`);
  if (!response.ok) return null;
  return response.json();
}

async function load() {
  language = "en";
  messages = {};
  terms = {};
  categories = { one: 0, other: 1 };
  for (const lang of wanted()) {
    let catalogue = null;
    try {
      catalogue = await fetchCatalogue(lang);
    } catch {
      catalogue = null;
    }
    if (!catalogue) continue;
    language = catalogue.language;
    messages = catalogue.messages || {};
    terms = catalogue.terms || {};
    categories = catalogue.plural_categories || categories;
    languageList = catalogue.languages || languageList;
    break;
  }
  plurals = new Intl.PluralRules(language);
  numbers = new Intl.NumberFormat(language);
  document.documentElement.lang = language;
  translatePage();
  document.documentElement.classList.add("i18n");
}

/** A number as the page's language writes it (12 345 in French). */
export function number(value) {
  return numbers.format(value);
}

/** A term's forms in the page's language (`hand.pair`: {forms, plural, tags}), or null. */
export function termForms(id) {
  return terms[id] || null;
}

/** The CLDR plural category of `n` in the page's language ("one", "few", "many"...). */
export function pluralCategory(n) {
  return plurals.select(n);
}

// A field and the form it asks for: {name}, {loser:acc}, {hand:?f=haute|haut}.
const FIELD = /\{(\w+)(?::([^{}]*))?\}/g;
const VOWEL = /^[aeiouàâäéèêëîïôöûùüœæh]/i;

/** A name's form in a sentence (names are never translated; French elides before a
 * vowel: "d'Ann", "qu'Ann"): the same rule as rummoli.i18n.forms. */
export function nameForm(name, spec) {
  if (language !== "fr") return name;
  const elide = VOWEL.test(name);
  const forms = { de: (elide ? "d'" : "de ") + name, du: (elide ? "d'" : "de ") + name, au: "à " + name, que: (elide ? "qu'" : "que ") + name };
  return forms[spec] ?? name;
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(FIELD, (whole, key, spec) => {
    if (!(key in params)) return whole;
    const value = params[key];
    if (value && typeof value.form === "function") return value.form(spec || "");
    if (typeof value === "number") return numbers.format(value);
    // A plain text asked for a form is a name (what else is put in as it is).
    return spec ? nameForm(String(value), spec) : String(value);
  });
}

function lookup(key) {
  const found = messages[key];
  return typeof found === "string" && found ? found : null;
}

/** A message, translated and filled in. */
export function _(message, params) {
  return fill(lookup(message) ?? message, params);
}

/** A message with a context (the same English word meaning two things). */
export function pgettext(context, message, params) {
  return fill(lookup(context + SEP + message) ?? message, params);
}

/** A message that depends on a count: `n` chooses the plural form (the language's CLDR
 * rule, by Intl.PluralRules) and fills `{n}`. */
export function ngettext(singular, plural, n, params) {
  const forms = messages[singular];
  const values = { n, ...(params || {}) };
  if (Array.isArray(forms)) {
    const index = categories[plurals.select(n)] ?? categories.other ?? forms.length - 1;
    const form = forms[index];
    if (form) return fill(form, values);
  }
  return fill(n === 1 ? singular : plural, values);
}

/** The English text of an element as the extractor reads it: whitespace collapsed. */
function textOf(node) {
  return node.textContent.replace(/\s+/g, " ").trim();
}

/**
 * The static texts of the page's HTML: an element marked `data-i18n` has its text
 * translated (it holds text only); `data-i18n-attr="placeholder aria-label"` names
 * attributes translated too. The English stays in the HTML, so it is the key (and what
 * a page shows before this runs, or without a translation).
 */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    if (!node.dataset.i18nKey) node.dataset.i18nKey = textOf(node);
    if (node.dataset.i18nKey) node.textContent = _(node.dataset.i18nKey);
  }
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const attr of node.dataset.i18nAttr.split(/\s+/).filter(Boolean)) {
      const key = `i18n${attr.replace(/(^|-)(\w)/g, (_m, _d, c) => c.toUpperCase())}`;
      if (!node.dataset[key]) node.dataset[key] = node.getAttribute(attr) || "";
      if (node.dataset[key]) node.setAttribute(attr, _(node.dataset[key]));
    }
  }
}

/** The language switch: a select of every language, each in its own words. */
export function languageSwitch() {
  const select = document.createElement("select");
  select.className = "language";
  select.dataset.testid = "language";
  select.setAttribute("aria-label", _("Language"));
  for (const { code, name } of languageList) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.lang = code;
    option.selected = code === language;
    select.append(option);
  }
  select.addEventListener("change", () => chooseLanguage(select.value));
  return select;
}

await load();
