// Terms a sentence inserts (a hand, a card, a space, a player, an amount), each able to
// give the form a translation asks for: `{loser:acc}` (Russian cases), `{space:def}`
// (French articles and elision), `{hand:?f=haute|haut}` (a choice by the term's
// features), a capital first letter for a form at a sentence's start (`{space:Def}`).
// The forms are the glossary's (rummoli.i18n.forms, the same table the terminal uses),
// sent with the catalogue; this module only looks them up, as forms.py does.
//
//   _("{winner} beats {loser}", { winner: hand("flush"), loser: hand("pair") })
import { cardName, cardText } from "./cards.js";
import { currentLanguage, nameForm, number, pluralCategory, termForms } from "./i18n.js";
import { layoutSpaceLabel } from "./spare.js";

const CASES = ["nom", "gen", "dat", "acc", "ins", "prep"];

function choose(spec, tags) {
  if (!spec.startsWith("?")) return null;
  let fallback = "";
  for (const option of spec.slice(1).split("|")) {
    const at = option.indexOf("=");
    if (at < 0) fallback = option;
    else if (tags.includes(option.slice(0, at))) return option.slice(at + 1);
  }
  return fallback;
}

function pick(forms, spec) {
  if (!spec) return forms[""];
  const name = spec[0].toLowerCase() + spec.slice(1);
  const found = forms[name] ?? forms[""];
  return spec[0] === spec[0].toUpperCase() && spec[0] !== spec[0].toLowerCase() ? found.charAt(0).toUpperCase() + found.slice(1) : found;
}

// A term: `entry()` gives its forms ({forms, plural, tags}) when a sentence asks for one,
// in the language of that moment (it can change: i18n.js), so each kind of term is only
// how it finds its entry.
class Term {
  constructor(entry) {
    this.entry = entry;
  }
  form(spec = "") {
    const entry = this.entry();
    const chosen = choose(spec, entry.tags);
    return chosen !== null ? chosen : pick(entry.forms, spec);
  }
  toString() {
    return this.form("");
  }
}

// The entry of a text that has no forms of its own: the text itself in every form.
function plain(text) {
  return { forms: { "": text }, plural: {}, tags: [] };
}

/** A poker hand from the engine's category ("full house"). */
export function hand(category) {
  return new Term(() => termForms(`hand.${category}`) || plain(category));
}

// The French articles before a word ("la", "l'", "du"...), as forms.py builds them.
function frenchArticles(word, gender, elide) {
  const [article, of, to] = elide ? ["l'", "de l'", "à l'"] : gender === "f" ? ["la ", "de la ", "à la "] : ["le ", "du ", "au "];
  return { def: article + word, du: of + word, au: to + word, de: (elide ? "d'" : "de ") + word, que: (elide ? "qu'" : "que ") + word };
}

class CardTerm extends Term {
  constructor(code) {
    const indices = String(code).replace(/^10/, "T");
    super(() => cardEntry(indices));
    this.code = indices;
  }
  form(spec = "") {
    // "name": the card in words ("dame de trèfle"); "name.acc": its rank in a case.
    if (spec.toLowerCase().startsWith("name")) {
      const rankCase = spec.split(".")[1] || "";
      const named = cardName(this.code, rankCase);
      return spec[0] === "N" ? named.charAt(0).toUpperCase() + named.slice(1) : named;
    }
    return super.form(spec);
  }
}

// A card's indices ("Q♣"), with the French articles its rank takes.
function cardEntry(code) {
  const rank = termForms(`rank.${code.slice(0, -1)}`);
  const tags = rank ? rank.tags : [];
  const text = cardText(code);
  const forms = { "": text };
  if (currentLanguage() === "fr") Object.assign(forms, frenchArticles(text, tags.includes("f") ? "f" : "m", tags.includes("vowel")));
  return { forms, plural: forms, tags };
}

/** A card ("QC"): its indices (Q♣), or in words with the form `name`. */
export function card(code) {
  return new CardTerm(code);
}

// The board's pay spaces by their cards.
const SPACE_CARDS = { "10S": "10♠", JD: "J♦", QC: "Q♣", KH: "K♥", AS: "A♠", AKD: "A-K♦", "789": "7-8-9" };

// A pay space's own entry, or its cards put into the glossary's frame ("la case {cards}").
function spaceEntry(code) {
  const own = termForms(`space.${code}`);
  if (own) return own;
  const frame = termForms("space.cards");
  const cards = layoutSpaceLabel(code) || SPACE_CARDS[code] || code;
  if (!frame) return plain(cards);
  const forms = Object.fromEntries(Object.entries(frame.forms).map(([k, v]) => [k, v.replace("{cards}", cards)]));
  return { forms, plural: forms, tags: frame.tags };
}

/** A board space in a sentence ("poker", "10S"): "la case poker", "банк покера". */
export function space(code) {
  return new Term(() => spaceEntry(code));
}

// A seat's name in every case and with every article (i18n.js: nameForm), or "you".
function playerEntry(name, you) {
  if (you) return termForms("player.you") || { forms: { "": "you" }, plural: {}, tags: ["pl"] };
  const forms = { "": name };
  for (const c of [...CASES, "def", "indef", "de", "du", "au", "que"]) forms[c] = nameForm(name, c);
  return { forms, plural: forms, tags: ["name", "sg"] };
}

/** A seat in a sentence: its name as given, or "you" when it is this page's own seat. */
export function player(name, me = null) {
  const you = name === me && me !== null;
  return new Term(() => playerEntry(name, you));
}

// A count in figures with its noun agreeing ("5 chips", "5 фишек", French "de").
function amountEntry(n, nounName) {
  const noun = termForms(`noun.${nounName}`);
  const category = pluralCategory(n);
  const figure = number(n);
  if (!noun) return { forms: { "": figure }, plural: {}, tags: [category] };
  const forms = {};
  if (currentLanguage() === "ru") {
    for (const c of ["", ...CASES]) forms[c] = `${figure} ${russianAgreement(noun, c || "nom", category)}`;
  } else {
    const word = category === "one" ? noun.forms[""] : noun.plural[""];
    forms[""] = figure + (category === "many" ? " de " : " ") + word;
    if (currentLanguage() === "fr") Object.assign(forms, { de: "de " + forms[""], du: "de " + forms[""], au: "à " + forms[""] });
  }
  return { forms, plural: forms, tags: [category] };
}

// The noun after a count in figures, in a case (as forms.py: 1 фишку, 2 фишки, 5 фишек;
// 21 фишке, 5 фишкам).
function russianAgreement(noun, kase, category) {
  if (kase === "nom" || kase === "acc") {
    if (category === "one") return noun.forms[kase];
    return category === "many" ? noun.plural.gen : noun.forms.gen;
  }
  return category === "one" ? noun.forms[kase] : noun.plural[kase];
}

/** A count with its noun ("chip", "point", "card"): "5 chips", "5 фишек". */
export function amount(n, noun = "chip") {
  return new Term(() => amountEntry(n, noun));
}
