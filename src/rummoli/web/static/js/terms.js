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

class Term {
  entry() {
    return { forms: { "": String(this) }, plural: {}, tags: [] };
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

class Word extends Term {
  constructor(id, english) {
    super();
    this.id = id;
    this.english = english;
  }
  entry() {
    return termForms(this.id) || { forms: { "": this.english }, plural: {}, tags: [] };
  }
}

/** A poker hand from the engine's category ("full house"). */
export function hand(category) {
  return new Word(`hand.${category}`, category);
}

// The French articles before a word ("la", "l'", "du"...), as forms.py builds them.
function frenchArticles(word, gender, elide) {
  const [article, of, to] = elide ? ["l'", "de l'", "à l'"] : gender === "f" ? ["la ", "de la ", "à la "] : ["le ", "du ", "au "];
  return { def: article + word, du: of + word, au: to + word, de: (elide ? "d'" : "de ") + word, que: (elide ? "qu'" : "que ") + word };
}

class CardTerm extends Term {
  constructor(code) {
    super();
    this.code = String(code).replace(/^10/, "T");
  }
  entry() {
    const rank = termForms(`rank.${this.code.slice(0, -1)}`);
    const tags = rank ? rank.tags : [];
    const text = cardText(this.code);
    const forms = { "": text };
    if (currentLanguage() === "fr") Object.assign(forms, frenchArticles(text, tags.includes("f") ? "f" : "m", tags.includes("vowel")));
    return { forms, plural: forms, tags };
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

/** A card ("QC"): its indices (Q♣), or in words with the form `name`. */
export function card(code) {
  return new CardTerm(code);
}

// The board's pay spaces by their cards.
const SPACE_CARDS = { "10S": "10♠", JD: "J♦", QC: "Q♣", KH: "K♥", AS: "A♠", AKD: "A-K♦", "789": "7-8-9" };

class SpaceTerm extends Term {
  constructor(code) {
    super();
    this.code = code;
  }
  entry() {
    const own = termForms(`space.${this.code}`);
    if (own) return own;
    const frame = termForms("space.cards");
    const cards = layoutSpaceLabel(this.code) || SPACE_CARDS[this.code] || this.code;
    if (!frame) return { forms: { "": cards }, plural: {}, tags: [] };
    const forms = Object.fromEntries(Object.entries(frame.forms).map(([k, v]) => [k, v.replace("{cards}", cards)]));
    return { forms, plural: forms, tags: frame.tags };
  }
}

/** A board space in a sentence ("poker", "10S"): "la case poker", "банк покера". */
export function space(code) {
  return new SpaceTerm(code);
}

class PlayerTerm extends Term {
  constructor(name, you) {
    super();
    this.name = name;
    this.you = you;
  }
  entry() {
    if (this.you) return termForms("player.you") || { forms: { "": "you" }, plural: {}, tags: ["pl"] };
    const forms = { "": this.name };
    for (const c of [...CASES, "def", "indef", "de", "du", "au", "que"]) forms[c] = nameForm(this.name, c);
    return { forms, plural: forms, tags: ["name", "sg"] };
  }
}

/** A seat in a sentence: its name as given, or "you" when it is this page's own seat. */
export function player(name, me = null) {
  return new PlayerTerm(name, name === me && me !== null);
}

class AmountTerm extends Term {
  constructor(n, noun) {
    super();
    this.n = n;
    this.noun = noun;
  }
  entry() {
    const noun = termForms(`noun.${this.noun}`);
    const category = pluralCategory(this.n);
    const figure = number(this.n);
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
  return new AmountTerm(n, noun);
}
