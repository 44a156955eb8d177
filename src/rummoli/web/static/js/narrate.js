// Events (as the server sends them: only those this seat may see) as lines of the log.
// Every line is one whole message in the page's language: a sentence about a player has
// two, "You pass" and "{name} passes", since the verb agrees with its subject (and French
// and Russian order their words their own way).
import { cardText, isRed, RANKS, seatName, whoName } from "./cards.js";
import { _, currentLanguage, ngettext } from "./i18n.js";
import { isOctagon, spareKind } from "./spare.js";
import { card as cardTerm, hand as handTerm, space as spaceTerm, amount } from "./terms.js";

// Why a run stopped (the engine's "stop" event says it).
const STOP_REASON = {
  ace: () => _("an ace ends its suit"),
  laid: () => _("the next card was laid before"),
  widow: () => ({ widow: _("the next card is in the widow"), "dead hand": _("the next card is in the dead hand"), talon: _("the next card is in the talon") })[spareKind()] || _("the next card is in the spare hand"),
  removed: () => _("the next card is not in the pack"),
  turned: () => _("the next card was turned for trumps"),
  king: () => _("a king ends its suit"),
  nobody: () => _("nobody holds the next rank"),
  sequence_king: () => _("a king ends the sequence"),
};

// The spare hand's lines in the game's own word (the board's layout: spare.js).
function spareDealt(n) {
  const kind = spareKind();
  if (kind === "widow") return ngettext("Everyone antes; the widow gets {n} card", "Everyone antes; the widow gets {n} cards", n);
  if (kind === "dead hand") return ngettext("Everyone antes; the dead hand gets {n} card", "Everyone antes; the dead hand gets {n} cards", n);
  if (kind === "talon") return ngettext("Everyone antes; the talon gets {n} card", "Everyone antes; the talon gets {n} cards", n);
  return ngettext("Everyone antes; the spare hand gets {n} card", "Everyone antes; the spare hand gets {n} cards", n);
}

function spareTaken(name, me) {
  const kind = spareKind();
  const mine = name === me;
  if (kind === "widow") return mine ? _("You take the widow") : _("{name} takes the widow", { name });
  if (kind === "dead hand") return mine ? _("You take the dead hand") : _("{name} takes the dead hand", { name });
  return mine ? _("You take the spare hand") : _("{name} takes the spare hand", { name });
}

function spareBid(name, me, chips) {
  const kind = spareKind();
  const params = { name, chips };
  if (kind === "dead hand") return name === me ? _("You bid {chips} for the dead hand", params) : _("{name} bids {chips} for the dead hand", params);
  if (kind === "spare hand") return name === me ? _("You bid {chips} for the spare hand", params) : _("{name} bids {chips} for the spare hand", params);
  return name === me ? _("You bid {chips} for the widow", params) : _("{name} bids {chips} for the widow", params);
}

// Who bought the spare hand, and from whom (`toMe`: this seat dealt and was paid).
function spareBought(name, me, chips, dealer, toMe) {
  const kind = spareKind();
  const params = { name, chips, dealer };
  if (kind === "dead hand") {
    if (name === me) return _("You buy the dead hand for {chips}, paid to {dealer}", params);
    if (toMe) return _("{name} buys the dead hand for {chips}, paid to you", params);
    return _("{name} buys the dead hand for {chips}, paid to {dealer}", params);
  }
  if (kind === "spare hand") {
    if (name === me) return _("You buy the spare hand for {chips}, paid to {dealer}", params);
    if (toMe) return _("{name} buys the spare hand for {chips}, paid to you", params);
    return _("{name} buys the spare hand for {chips}, paid to {dealer}", params);
  }
  if (name === me) return _("You buy the widow for {chips}, paid to {dealer}", params);
  if (toMe) return _("{name} buys the widow for {chips}, paid to you", params);
  return _("{name} buys the widow for {chips}, paid to {dealer}", params);
}

function spareDead() {
  const kind = spareKind();
  if (kind === "widow") return _("The widow stays out of play");
  if (kind === "dead hand") return _("The dead hand stays out of play");
  if (kind === "talon") return _("The talon stays out of play");
  return _("The spare hand stays out of play");
}

const cards = (list) => list.map(cardText).join(" ");
// "1 chip", "2 chips": never "1 chips" (and Russian's three forms, in any case: terms.js).
export const chipCount = (n) => amount(n);

/** Names as a list in the page's language ("Ann and Bea", "Ann et Bea", "Ann и Bea"). */
export function nameList(names, me) {
  const shown = names.map((n) => whoName(n, me));
  try {
    return new Intl.ListFormat(currentLanguage(), { type: "conjunction" }).format(shown);
  } catch {
    return shown.join(", ");
  }
}

/**
 * One line for an event, or null for events not worth a line on their own.
 * `me`: this seat's name (so "You" can be said), or null for a spectator.
 * Returns {text, kind} where kind is a CSS hint (won, round, private, ...).
 */
export function narrate(event, me) {
  const e = event;
  // The sentence for this seat ("You ...") or for another player ("{name} ...").
  const by = (player, mine, theirs) => (player === me ? mine : theirs);
  const name = seatName(e.player);
  switch (e.type) {
    case "out":
      return line(by(name, _("You cannot pay the ante: out of the game"), _("{name} cannot pay the ante: out of the game", { name })), "bad");
    case "ante":
      return null;
    case "stake": {
      const params = { name, space: spaceTerm(e.space) };
      return line(by(name, _("You put a chip on {space}", params), _("{name} puts a chip on {space}", params)));
    }
    case "hand":
      return line(_("Your hand: {cards}", { cards: cards(e.cards) }), "private");
    case "widow_dealt":
      return line(spareDealt(e.count));
    case "widow_dead":
      return line(spareDead());
    case "claim": {
      // A space paid at the deal to the cards held (Tripoley's sections).
      const params = { name, cards: cards(e.cards), space: spaceTerm(e.space), chips: amount(e.chips) };
      return line(by(name, _("You hold {cards} and take the {space} space: {chips}", params), _("{name} holds {cards} and takes the {space} space: {chips}", params)), "won");
    }
    case "blocked":
      return line(_("Your hand holds a pay card: you may not exchange or bid"), "private");
    case "keep":
      return line(by(name, _("You keep the hand"), _("{name} keeps the hand", { name })));
    case "exchange":
      return line(spareTaken(name, me));
    case "pass":
      return line(by(name, _("You pass"), _("{name} passes", { name })));
    case "bid":
      return line(spareBid(name, me, e.chips));
    case "no_bid": {
      const kind = spareKind();
      if (kind === "dead hand") return line(_("Nobody bids for the dead hand"));
      if (kind === "spare hand") return line(_("Nobody bids for the spare hand"));
      return line(_("Nobody bids for the widow"));
    }
    case "bought":
      return line(spareBought(name, me, e.chips, seatName(e.dealer), e.dealer === me));
    case "check":
      return line(by(name, _("You check"), _("{name} checks", { name })));
    case "fold":
      return line(by(name, _("You fold (the poker pot only)"), _("{name} folds (the poker pot only)", { name })));
    case "call":
      if (e.all_in) return line(by(name, _("You call {total} (all in)", { total: e.total }), _("{name} calls {total} (all in)", { name, total: e.total })));
      return line(by(name, _("You call {total}", { total: e.total }), _("{name} calls {total}", { name, total: e.total })));
    case "raise":
      if (e.all_in) return line(by(name, _("You bet {total} (all in)", { total: e.total }), _("{name} bets {total} (all in)", { name, total: e.total })));
      return line(by(name, _("You bet {total}", { total: e.total }), _("{name} bets {total}", { name, total: e.total })));
    case "returned":
      return line(by(name, _("You take back {chips} uncalled", { chips: e.chips }), _("{name} takes back {chips} uncalled", { name, chips: e.chips })));
    case "show": {
      const params = { name, cards: cards(e.cards), hand: handTerm(e.hand) };
      return line(by(name, _("You show {cards}: {hand}", params), _("{name} shows {cards}: {hand}", params)), "show");
    }
    case "poker_pot": {
      const chips = amount(e.chips);
      if (e.winners.length === 1) {
        const winner = e.winners[0];
        const params = { name: seatName(winner), chips, pot: e.pot };
        if (e.pot === 0) return line(by(winner, _("You win the poker pot: {chips}", params), _("{name} wins the poker pot: {chips}", params)), "won");
        return line(by(winner, _("You win side pot {pot}: {chips}", params), _("{name} wins side pot {pot}: {chips}", params)), "won");
      }
      const params = { names: nameList(e.winners, me), share: e.share, pot: e.pot };
      if (e.pot === 0) return line(_("{names} split the poker pot: {share} each", params), "won");
      return line(_("{names} split side pot {pot}: {share} each", params), "won");
    }
    case "leads":
      if (!isOctagon()) return line(by(name, _("You lead the first run"), _("{name} leads the first run", { name })));
      return line(by(name, _("You lead the Rummoli phase"), _("{name} leads the Rummoli phase", { name })));
    case "lay":
      return line(by(name, _("You lay {card}", { card: cardTerm(e.card) }), _("{name} lays {card}", { name, card: cardTerm(e.card) })), "lay");
    case "space": {
      const params = { name, space: spaceTerm(e.space), chips: amount(e.chips) };
      return line(by(name, _("You take the {space} space: {chips}", params), _("{name} takes the {space} space: {chips}", params)), "won");
    }
    case "unclaimed": {
      const params = { name, space: spaceTerm(e.space) };
      return line(by(name, _("You did not claim {space}: the chips stay", params), _("{name} did not claim {space}: the chips stay", params)));
    }
    case "stop": {
      const params = { card: cardTerm(e.card) };
      const why = STOP_REASON[e.reason];
      return line(why ? _("Stop at {card}: {reason}", { ...params, reason: why() }) : _("Stop at {card}: nobody can follow", params), "stop");
    }
    case "duty_passes":
      if (e.fine) return line(by(name, _("You cannot lead that colour: fined {fine}", { fine: e.fine }), _("{name} cannot lead that colour: fined {fine}", { name, fine: e.fine })));
      return line(by(name, _("You cannot lead that colour"), _("{name} cannot lead that colour", { name })));
    case "deadlock":
      return line(_("Deadlock: nobody holds the colour. One chip per card to Rummoli"), "bad");
    case "deadlock_pays":
      return e.chips ? line(by(name, _("You pay {chips} to Rummoli", { chips: e.chips }), _("{name} pays {chips} to Rummoli", { name, chips: e.chips }))) : null;
    case "deadlock_continue":
      return line(by(name, _("Nobody holds the colour: you lead any suit"), _("Nobody holds the colour: {name} leads any suit", { name })));
    case "round_won": {
      const chips = amount(e.chips);
      if (!isOctagon()) {
        if (!e.chips) return line(by(name, _("You go out first"), _("{name} goes out first", { name })), "won");
        return line(by(name, _("You go out first and take the kitty: {chips}", { chips }), _("{name} goes out first and takes the kitty: {chips}", { name, chips })), "won");
      }
      return line(by(name, _("You go out and win the Rummoli space: {chips}", { chips }), _("{name} goes out and wins the Rummoli space: {chips}", { name, chips })), "won");
    }
    case "pays": {
      if (!e.chips) return null;
      const params = { name, to: seatName(e.to), chips: e.chips };
      if (name === me) return line(_("You pay {to} {chips}", params));
      if (e.to === me) return line(_("{name} pays you {chips}", params));
      return line(_("{name} pays {to} {chips}", params));
    }
    case "round_over":
      return line(_("End of round {round}", { round: e.round }), "round");
    case "settle_dealt":
      return line(_("Settlement: your five cards: {cards}", { cards: cards(e.cards) }), "private");
    case "settle_cut":
      return line(by(name, _("Settlement: you cut {card}", { card: cardTerm(e.card) }), _("Settlement: {name} cuts {card}", { name, card: cardTerm(e.card) })));
    case "settle_hand": {
      const params = { name, cards: cards(e.cards), hand: handTerm(e.hand) };
      return line(by(name, _("Settlement: you show {cards}: {hand}", params), _("Settlement: {name} shows {cards}: {hand}", params)), "show");
    }
    case "settled": {
      const chips = amount(e.chips);
      const space = spaceTerm(e.space);
      if (e.winners.length === 1) {
        const winner = e.winners[0];
        const params = { name: seatName(winner), chips, space };
        if (e.space === "all") return line(by(winner, _("You take the board: {chips}", params), _("{name} takes the board: {chips}", params)), "won");
        return line(by(winner, _("You take the {space} space: {chips}", params), _("{name} takes the {space} space: {chips}", params)), "won");
      }
      const params = { names: nameList(e.winners, me), chips, space };
      if (e.space === "all") return line(_("{names} share the board: {chips}", params), "won");
      return line(_("{names} share the {space} space: {chips}", params), "won");
    }
    case "game_over":
      return line(_("Game over"), "round");
    default:
      return commonLine(e, me);
  }
}

/** The line of an event every game of the site has (the cut for the deal, the deal); an
 * event this page has no sentence for is said by its type. Each game's narration ends in
 * it (Rummy's: rummy.js). */
export function commonLine(e, me) {
  const name = seatName(e.player);
  const mine = name === me;
  switch (e.type) {
    case "cut":
      return line(mine ? _("You cut {card} for the deal", { card: cardTerm(e.card) }) : _("{name} cuts {card} for the deal", { name, card: cardTerm(e.card) }));
    case "dealer":
      return line(mine ? _("You deal") : _("{name} deals", { name }), "round");
    default:
      return line(e.type);
  }
}

/** A line of the log: its text, and its kind as a CSS hint (won, round, private, ...). */
export function line(text, kind = "") {
  return { text, kind };
}

/**
 * The lines of `events`, each said with what came before it (`before`: the events shown
 * earlier, newest last), so that the story reads as it happened: a card laid after a
 * stop is a lead, and says why it may be led ("the lead switches to red"); the first card
 * of the Rummoli phase is the leader's lowest; a second cut among the same players is a
 * re-cut after a tie. `rules`: the table's house rules (how a lead is chosen), if known.
 */
export function tell(events, me, rules = null, before = []) {
  const out = [];
  const seen = [...before];
  for (const e of events) {
    const special = e.type === "lay" ? lead(e, seen, me, rules) : e.type === "cut" ? recut(e, seen, me) : null;
    if (special && special.before) out.push(special.before);
    const said = special && special.line ? special.line : narrate(e, me);
    if (said) out.push(said);
    seen.push(e);
  }
  return out;
}

// The event before a laid card that says it is a lead (duty passes in between are the
// players who could not lead): the poker winner's first lead, a stop, a deadlock.
function leadCause(seen) {
  for (let i = seen.length - 1; i >= 0; i--) {
    const type = seen[i].type;
    if (type === "duty_passes") continue;
    return ["leads", "stop", "deadlock_continue"].includes(type) ? seen[i] : null;
  }
  return null;
}

function lead(e, seen, me, rules) {
  const cause = leadCause(seen);
  if (!cause) return null;
  const params = { name: seatName(e.player), card: cardTerm(e.card) };
  const mine = e.player === me;
  let text;
  if (cause.type === "leads") {
    if (rules && rules.lead === "lowest_of_any_suit") {
      text = mine ? _("You lead {card}, the lowest of the suit you chose", params) : _("{name} leads {card}, the lowest of the suit chosen", params);
    } else {
      text = mine ? _("You lead {card}, your lowest card", params) : _("{name} leads {card}, the lowest card in hand", params);
    }
  } else if (cause.type === "deadlock_continue") {
    text = mine ? _("You lead {card}: nobody holds the colour, so any suit", params) : _("{name} leads {card}: nobody holds the colour, so any suit", params);
  } else if (isRed(cause.card)) {
    text = mine ? _("You lead {card}: after the stop, the lead switches to black", params) : _("{name} leads {card}: after the stop, the lead switches to black", params);
  } else {
    text = mine ? _("You lead {card}: after the stop, the lead switches to red", params) : _("{name} leads {card}: after the stop, the lead switches to red", params);
  }
  return { line: { text, kind: "lay lead" } };
}

// A cut by a player who has already cut since the last event of another kind starts a
// new cut: the players tied for the highest card cut again.
function recut(e, seen, me) {
  const batch = [];
  for (let i = seen.length - 1; i >= 0 && seen[i].type === "cut"; i--) batch.unshift(seen[i]);
  if (!batch.some((c) => c.player === e.player)) return null;
  // The last cut: from its last card of the highest rank back to the one before the
  // batch that this new cut repeats.
  const start = batch.map((c) => c.player).lastIndexOf(e.player);
  const last = batch.slice(start);
  const rank = (card) => RANKS.indexOf(card.slice(0, -1));
  const best = Math.max(...last.map((c) => rank(c.card)));
  const tied = last.filter((c) => rank(c.card) === best).map((c) => c.player);
  return { before: line(_("Tie for the highest card: {names} cut again", { names: nameList(tied, me) }), "round") };
}

/** What a round came to, from its events (for the round summary). */
export function roundSummary(events) {
  const out = { winner: null, pot: 0, pays: [], spaces: [], poker: [], deadlock: false, round: null };
  for (const e of events) {
    if (e.type === "round_won") {
      out.winner = e.player;
      out.pot = e.chips;
    } else if (e.type === "pays" && e.chips) out.pays.push(e);
    else if (e.type === "space") out.spaces.push(e);
    else if (e.type === "poker_pot") out.poker.push(e);
    else if (e.type === "deadlock") out.deadlock = true;
    else if (e.type === "round_over") out.round = e.round;
  }
  return out;
}
