// The hint button at a decision: the strongest computer player's suggestion and its
// reason, as the terminal's `?` gives. The server works it out from this seat's view only
// (web/hints.py) and sends the reason as a code and its fields; the sentence is written
// here, in the page's language, through `_()` (i18n.js). A reason of a shape this page
// does not know is shown as the server's English text.
import { cardText } from "./cards.js";
import { fill, h } from "./dom.js";
import { _, currentLanguage, ngettext } from "./i18n.js";
import { spareText } from "./spare_words.js";
import { card as cardTerm, hand as handTerm } from "./terms.js";

// The code of each reason (web/hints.py: code_of, the English shape as a slug) and its
// sentence for a person. `f` holds the fields, already in words (cards with their suit).
const REASONS = {
  random: () => _("a random choice"),
  the_only_choice: () => _("it is the only choice"),
  exchange_the_widow_is_worth_about_amount_more: (f) => spareText("worthMore", f),
  keep_this_hand_is_worth_at_least_the_unseen_widow: () => spareText("worthLess"),
  bid_amount_the_widow_looks_worth_limit: (f) => spareText("looksWorth", f),
  pass_the_widow_is_not_worth_the_price: () => spareText("notWorth"),
  claim_the_space: () => _("claim the pay space"),
  lead_card_lays_count_of_my_cards_and_keeps_the_lead: (f) => ngettext("{card} lays {n} of your cards and keeps the lead", "{card} lays {n} of your cards and keeps the lead", f.count, f),
  lead_card_lays_count_of_my_cards: (f) => ngettext("{card} lays {n} of your cards", "{card} lays {n} of your cards", f.count, f),
  fold_why_not_worth_the_call: (f) => _("{why}: not worth the call", f),
  // The action is said apart: only its reason here.
  raise_to_amount_why: (f) => f.why,
  bet_amount_why: (f) => f.why,
  check_why: (f) => f.why,
  call_why: (f) => f.why,
  hand_percent_to_win: (f) => _("{hand}, {percent} to win", f),
  exchange_mean_chips_over_keeping: (f) => _("exchanging is worth {mean} chips over keeping", f),
  keep_exchanging_is_worth_mean_chips: (f) => _("exchanging is worth {mean} chips", f),
  bid_amount_the_widow_is_worth_about_worth_chips: (f) => spareText("worthChips", f),
  pass_the_widow_is_worth_about_worth_chips: (f) => spareText("worthChips", f),
  the_only_card: () => _("it is the only card you may lay"),
  action_mean_chips_over_the_round_other_other_mean: (f) => _("{mean} chips over the round on average (the next best move, “{other}”: {other_mean})", f),
  action_mean_chips_over_the_round: (f) => _("{mean} chips over the round on average", f),
  the_only_legal_action: () => _("it is the only move"),
  the_discard_pile_is_empty: () => _("the discard pile is empty"),
  take_card_it_fits_a_meld: (f) => _("{card} fits a meld", f),
  card_fits_nothing_draw_from_the_stock: (f) => _("{card} fits nothing", f),
  go_out: () => _("you can go out"),
  go_out_rummy: () => _("you can go out, perhaps with Going Rummy"),
  meld_and_lay_off_what_fits: () => _("meld and lay off what fits"),
  hold_the_melds_for_going_rummy_discard_card_the_least_useful_card: (f) => _("hold your melds for Going Rummy; {card} is the least useful card", f),
  discard_card_the_least_useful_card: (f) => _("{card} is the least useful card", f),
  take_card_and_go_out: (f) => _("with {card} you can go out", f),
  card_makes_no_meld_draw_from_the_stock: (f) => _("{card} makes no meld", f),
  take_card_take_against_stock: (f) => _("taking {card} scores {take}, the stock {stock}", f),
  draw_from_the_stock_stock_against_take: (f) => _("the stock scores {stock}, the discard {take}", f),
  lay_down_what_fits_too_much_to_lose_in_hand: () => _("lay down what fits: too much to lose in hand"),
  no_card_may_be_discarded: () => _("no card may be discarded"),
  discard_card_score: (f) => _("your hand scores {score} after it: minus the cards it cannot yet meld, plus how likely the next draws are to help", f),
};

/** The codes this page can say (the server's test checks it knows them all). */
export const REASON_CODES = Object.keys(REASONS);

const CARD = /^(10|[2-9TJQKA])[CDHS]$/;

/** An engine action's text ("raise 30", "5S claim", "discard TS") in a person's words;
 * `amountText`, if given, is said as the amount of a bid or a raise ("5–30"). */
export function actionWords(text, view, amountText) {
  const words = String(text).split(" ");
  const [first, second] = words;
  const cards = (list) => list.map((w) => (CARD.test(w) ? cardText(w.replace(/^10/, "T")) : w)).join(" ");
  if (CARD.test(first) && second === "claim") return _("lay {card} and claim its space", { card: cardTerm(first) });
  if (CARD.test(first) && words.length === 1) return _("lay {card}", { card: cardTerm(first) });
  const betting = view && view.betting;
  const amount = amountText === undefined ? Number(second) : amountText;
  const simple = {
    keep: () => _("keep your hand"),
    no_auction: () => _("keep your hand, no auction"),
    exchange: () => spareText("takeAction", undefined, view && view.layout),
    pass: () => _("pass"),
    check: () => _("check"),
    call: () => _("call"),
    fold: () => _("fold"),
    bid: () => _("bid {amount}", { amount }),
    raise: () => (betting && betting.high ? _("raise to {amount}", { amount }) : _("bet {amount}", { amount })),
    stock: () => _("draw from the stock"),
  };
  if (words.length === 1 && first === "discard") return _("take the top of the discard pile");
  if (first === "discard") return _("discard {cards}", { cards: cards(words.slice(1)) });
  if (first === "meld") return _("meld {cards}", { cards: cards(words.slice(1)) });
  if (first === "layoff") return _("lay {card} off on meld {slot}", { card: cards([second]), slot: Number(words[2]) + 1 });
  if (first in simple) return simple[first]();
  return cards(words);
}

/** The server's refusal of an action not legal now (code "illegal") with the action
 * and the choices (the engine's texts: "raise 30, call ...") in the page's words. */
export function refusalWorded(message, view) {
  const params = { ...(message.params || {}) };
  if (params.action) params.action = actionWords(params.action, view);
  if (params.choices) {
    const more = String(params.choices).endsWith(" ...");
    const items = String(params.choices).replace(/ \.\.\.$/, "").split(", ");
    params.choices = items.map((item) => actionWords(item, view)).join(", ") + (more ? " …" : "");
  }
  return { ...message, params };
}

/** One of a seat's choices as the frames offer them (web/choices.py: an action, or a
 * range of bids or raises) in a person's words: the replay lists them. */
export function choiceWords(item, view) {
  if (!item.kind) return actionWords(item.text, view);
  const digits = new Intl.NumberFormat(currentLanguage());
  return actionWords(item.kind, view, `${digits.format(item.min)}–${digits.format(item.max)}`);
}

// A figure as the bots write it ("+5.1", "-6.49", "31%"), in the page's language with
// as many decimals ("+5,1"): the terminal does the same (rummoli.i18n.sentences).
const FIGURE = /^([+-]?)(\d+)(?:\.(\d+))?(%?)$/;

export function figureWords(text) {
  const found = FIGURE.exec(String(text));
  if (!found) return text;
  const [, sign, , decimals = "", percent] = found;
  const digits = decimals.length;
  const options = { minimumFractionDigits: digits, maximumFractionDigits: digits, signDisplay: sign ? "always" : "auto" };
  if (percent) return new Intl.NumberFormat(currentLanguage(), { ...options, style: "percent" }).format(Number(String(text).slice(0, -1)) / 100);
  return new Intl.NumberFormat(currentLanguage(), options).format(Number(text));
}

function fieldWords(name, value, view) {
  if (value && typeof value === "object") return reasonText(value, view);
  if (name === "card" && CARD.test(String(value))) return cardTerm(String(value));
  if (name === "hand") return handTerm(value);
  if (typeof value === "string" && FIGURE.test(value)) return figureWords(value);
  if (name === "action" || name === "other") return actionWords(value, view);
  return value;
}

/** A structured reason ({code, fields, text}) as a sentence in the page's language. */
export function reasonText(reason, view) {
  if (!reason) return "";
  const say = REASONS[reason.code];
  if (!say) return reason.text || "";
  const fields = {};
  for (const [name, value] of Object.entries(reason.fields || {})) fields[name] = fieldWords(name, value, view);
  return say(fields);
}

// What the suggested move is made with, by the test ids the table gives them: a button,
// or (Rummy's melds, lay-offs and discards, made by choosing cards) the cards to choose
// and the meld a card goes on.
function suggestedControls(text) {
  const [first, second, ...rest] = String(text).split(" ");
  if (CARD.test(first) && second === "claim") return [`claim-${first}`];
  if (CARD.test(first)) return [`lay-${first}`];
  if (first === "bid" || first === "raise") return [`${first}-submit`];
  if (first === "discard" && !second) return ["action-take"];
  if (first === "discard") return [`hand-card-${second}`];
  if (first === "meld") return [second, ...rest].map((card) => `hand-card-${card}`);
  if (first === "layoff") return [`hand-card-${second}`, `meld-${rest[0]}`];
  return [`action-${first}`];
}

/**
 * The hint area of a seat at its decision: a button that asks, then the suggestion.
 * ctx: {view, seat, step, hint (the last answer, or null), asked (step asked at), ask()}.
 */
export function renderHint(node, ctx) {
  const { view, seat, step, hint } = ctx;
  const deciding = view && seat !== null && view.to_move === seat && (view.legal_actions || []).length > 0;
  if (!deciding) {
    node.hidden = true;
    fill(node);
    return;
  }
  node.hidden = false;
  const current = hint && hint.step === step ? hint : null;
  const button = h(
    "button",
    { type: "button", className: "btn small", testid: "hint-button", disabled: Boolean(current) || ctx.asked === step, title: _("What would the expert computer player do?"), onClick: () => ctx.ask() },
    _("Hint"),
  );
  if (!current) {
    fill(node, button);
    return;
  }
  const action = actionWords(current.text, view);
  const why = reasonText(current.reason, view);
  fill(
    node,
    button,
    h(
      "p",
      { className: "hint-text", testid: "hint-text", dataset: { action: String(current.action), code: current.reason ? current.reason.code : "" } },
      why ? _("Expert's hint: {action} ({reason}).", { action, reason: why }) : _("Expert's hint: {action}.", { action }),
    ),
  );
  for (const id of suggestedControls(current.text)) {
    const target = document.querySelector(`[data-testid="${id}"]`);
    if (target) target.classList.add("hinted");
  }
}
