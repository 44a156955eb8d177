// Basic Rummy at the table, drawn from the engine's view of this seat (the table page and
// the replay page share it). The view holds this seat's hand, the other hands only as
// counts, the stock only as a count, the discard pile, the melds by slot and this seat's
// legal actions: choices here are always some of those actions, so the server checks them.
//
// Playing: click cards to select them; "Meld" lays the selection down when it is a meld
// you may lay; with one card selected, the melds it fits light up: click one (or drag the
// card onto it) to lay off there, so a card that fits two melds goes where you say;
// "Discard" (or dragging a card onto the discard pile) ends the turn.
import { badge, cardCount, playerBox, seatBadges } from "./board.js";
import { cardName, cardText, isRed, levelName, rankLabel, seatName, SUIT_SYMBOL } from "./cards.js";
import { fill, h } from "./dom.js";
import { _, ngettext, number, pgettext } from "./i18n.js";
import { commonLine, line } from "./narrate.js";
import { amount, card as cardTerm } from "./terms.js";

// The phases' names, looked up when said (the language can change: i18n.js).
const PHASES = {
  start: () => pgettext("phase", "Cutting for the deal"),
  draw: () => pgettext("phase", "Draw"),
  play: () => pgettext("phase", "Meld, lay off, discard"),
  reshuffle: () => pgettext("phase", "Reshuffling the pile"),
  hand_over: () => pgettext("phase", "Hand over"),
  over: () => pgettext("phase", "Game over"),
};

export function rummyPhaseLabel(phase) {
  return PHASES[phase] ? PHASES[phase]() : phase;
}

/** The legal actions of the view, sorted into kinds people understand. */
export function rummyChoices(view) {
  const out = { stock: null, take: null, melds: [], layoffs: [], discards: new Map() };
  for (const a of view.legal_actions || []) {
    const words = a.text.split(" ");
    if (words[0] === "stock") out.stock = a.action;
    else if (words[0] === "discard" && words.length === 1) out.take = a.action;
    else if (words[0] === "discard") out.discards.set(words[1], a.action);
    else if (words[0] === "meld") out.melds.push({ cards: words.slice(1), action: a.action, key: meldKey(words.slice(1)) });
    else if (words[0] === "layoff") out.layoffs.push({ card: words[1], slot: Number(words[2]), action: a.action });
  }
  return out;
}

function meldKey(cards) {
  return [...cards].sort().join(" ");
}

function faceNode(card, opts = {}) {
  const classes = ["card", isRed(card) ? "red" : "black", `suit-${card.slice(-1)}`];
  if (opts.small) classes.push("small");
  if (opts.className) classes.push(opts.className);
  const interactive = Boolean(opts.onClick);
  return h(
    interactive ? "button" : "span",
    {
      className: classes.join(" "),
      testid: opts.testid,
      dataset: { card, ...(opts.dataset || {}) },
      title: opts.title || cardText(card),
      "aria-label": opts.label || cardName(card),
      "aria-pressed": opts.pressed === undefined ? undefined : String(opts.pressed),
      role: interactive ? undefined : "img",
      type: interactive ? "button" : undefined,
      draggable: opts.draggable ? "true" : undefined,
      onClick: opts.onClick,
      onDragstart: opts.onDragstart,
    },
    h("span", { className: "rank" }, rankLabel(card.slice(0, -1))),
    h("span", { className: "suit" }, SUIT_SYMBOL[card.slice(-1)]),
  );
}

function row(cards, opts = {}) {
  return h("span", { className: "card-row" }, cards.map((c) => faceNode(c, { small: true, ...opts })));
}

/** Who is to move, as a sentence for this seat. */
export function rummyTurnText(view, me) {
  if (view.phase === "over") return rummyPhaseLabel("over");
  if (typeof view.to_move !== "number") return rummyPhaseLabel(view.phase);
  return view.to_move === me ? _("Your turn") : _("{name} to play", { name: seatName(view.players[view.to_move].name) });
}

export function renderRummyStatus(node, view, table, me, timerText) {
  const items = [];
  if (view) {
    items.push(h("span", { className: "pill", testid: "round" }, _("Hand {hand}", { hand: view.hand_no || 1 })));
    items.push(h("span", { className: "pill phase", testid: "phase" }, rummyPhaseLabel(view.phase)));
    const turn = rummyTurnText(view, me);
    const mine = view.to_move === me && me !== null && view.phase !== "over";
    if (turn !== rummyPhaseLabel(view.phase)) items.push(h("span", { className: `pill turn${mine ? " mine" : ""}`, testid: "turn" }, turn));
    items.push(h("span", { className: "pill", testid: "target", title: _("Points that win the match") }, _("Game to {target}", { target: view.target })));
    if (timerText) items.push(h("span", { className: "pill timer", testid: "timer" }, timerText));
  }
  if (table && table.last_round && view && view.phase !== "over") items.push(h("span", { className: "pill warn" }, _("Last hand")));
  fill(node, items);
}

export function renderRummyPlayers(node, view, table, me) {
  const result = view.result;
  fill(
    node,
    view.players.map((p, i) => {
      const badges = seatBadges(view, table, i);
      if (p.has_melded) badges.push(badge(pgettext("badge", "melded"), "melded", _("Has melded or laid off this hand (no Going Rummy)")));
      if (result && result.winner === i) badges.push(badge(result.going_rummy ? pgettext("badge", "rummy!") : pgettext("badge", "out"), "won", _("Went out and won the hand")));
      if (view.match_winner === i) badges.push(badge(pgettext("badge", "winner"), "won", _("Won the match")));
      const shown = result && result.shown[String(i)];
      return playerBox(view, i, me, {
        badges,
        amounts: [ngettext("{n} point", "{n} points", p.score), ngettext("{n} card", "{n} cards", p.cards)],
        figures: [h("span", { className: "score", title: _("Points"), testid: `player-score-${i}` }, h("i", { className: "score-icon" }), String(p.score)), cardCount(p, i)],
        shown: shown ? row(shown) : null,
      });
    }),
  );
}

/**
 * The stock and the discard pile. `ctl` (null when only watching): {choices, selected,
 * send}: a click on the stock or the pile draws; in the play phase, a click on the pile
 * (or a card dropped on it) discards the selected card.
 */
export function renderPiles(node, view, ctl) {
  const choices = ctl ? ctl.choices : null;
  const pile = view.discard;
  const top = pile.length ? pile[pile.length - 1] : null;
  const selected = ctl && ctl.selected.length === 1 ? ctl.selected[0] : null;
  const discardSel = selected && choices.discards.has(selected) ? choices.discards.get(selected) : null;
  const stockProps = {
    className: `pile stock${choices && choices.stock !== null ? " live" : ""}`,
    testid: "stock",
    dataset: { count: String(view.stock) },
    title: _("The stock (face down)"),
  };
  const stockInner = [h("span", { className: "card back" }, h("span", { className: "back-count" }, String(view.stock))), h("span", { className: "pile-label" }, _("Stock: {n}", { n: view.stock }))];
  const stock = choices && choices.stock !== null
    ? h("button", { ...stockProps, type: "button", "aria-label": ngettext("Draw from the stock ({n} card)", "Draw from the stock ({n} cards)", view.stock), onClick: () => ctl.send(choices.stock) }, stockInner)
    : h("div", stockProps, stockInner);
  const canTake = choices && choices.take !== null;
  const pileProps = {
    className: `pile discard-pile${canTake || discardSel !== null ? " live" : ""}`,
    testid: "discard-pile",
    dataset: { count: String(pile.length), top: top || "" },
    title: _("The discard pile (face up)"),
    onDragover: ctl ? (event) => {
      event.preventDefault();
    } : undefined,
    onDrop: ctl ? (event) => {
      event.preventDefault();
      const card = event.dataTransfer.getData("text/plain");
      if (choices.discards.has(card)) ctl.send(choices.discards.get(card));
    } : undefined,
  };
  const pileInner = [
    top ? faceNode(top, { className: "top", testid: "discard-top" }) : h("span", { className: "card empty" }, _("empty")),
    h("span", { className: "pile-label" }, _("Discard pile: {n}", { n: pile.length })),
  ];
  let discardPile;
  if (canTake) {
    discardPile = h("button", { ...pileProps, type: "button", "aria-label": _("Take {card} from the discard pile", { card: cardTerm(top) }), onClick: () => ctl.send(choices.take) }, pileInner);
  } else if (discardSel !== null) {
    discardPile = h("button", { ...pileProps, type: "button", "aria-label": _("Discard {card}", { card: cardTerm(selected) }), onClick: () => ctl.send(discardSel) }, pileInner);
  } else {
    discardPile = h("div", pileProps, pileInner);
  }
  const earlier = pile.slice(Math.max(0, pile.length - 9), -1);
  fill(
    node,
    h("div", { className: "piles" }, stock, discardPile),
    earlier.length ? h("div", { className: "pile-history muted" }, _("Below:"), " ", row(earlier.reverse())) : null,
    view.taken_discard ? h("p", { className: "muted taken" }, _("Taken from the pile this turn: {card} (it may not be discarded)", { card: cardTerm(view.taken_discard) })) : null,
    view.reshuffled ? h("p", { className: "muted" }, _("The stock was rebuilt from the pile once: the next time it runs out, the hand is a stalemate.")) : null,
  );
}

/** The melds on the table by slot. With one card selected, those it fits light up. */
export function renderMelds(node, view, ctl) {
  const selected = ctl && ctl.selected.length === 1 ? ctl.selected[0] : null;
  const fits = new Map();
  if (ctl) for (const l of ctl.choices.layoffs) if (l.card === selected) fits.set(l.slot, l.action);
  const melds = view.melds.map((cards, slot) => {
    const action = fits.get(slot);
    const props = {
      className: `meld${action !== undefined ? " target" : ""}`,
      testid: `meld-${slot}`,
      dataset: { slot: String(slot), cards: cards.join(" ") },
      onDragover: ctl ? (event) => event.preventDefault() : undefined,
      onDrop: ctl ? (event) => {
        event.preventDefault();
        const card = event.dataTransfer.getData("text/plain");
        const found = ctl.choices.layoffs.find((l) => l.card === card && l.slot === slot);
        if (found) ctl.send(found.action);
      } : undefined,
    };
    const inner = [h("span", { className: "meld-no" }, String(slot + 1)), row(cards)];
    return action !== undefined
      ? h("button", { ...props, type: "button", title: _("Lay off {card} on meld {meld}", { card: cardTerm(selected), meld: slot + 1 }), onClick: () => ctl.send(action) }, inner)
      : h("div", props, inner);
  });
  fill(
    node,
    h("div", { className: "laid-head" }, h("span", {}, _("Melds on the table")), h("span", { className: "muted" }, fits.size ? (fits.size === 1 ? _("{card} fits the lit meld", { card: cardTerm(selected) }) : _("{card} fits the lit melds: pick one", { card: cardTerm(selected) })) : _("they belong to nobody"))),
    h("div", { className: "melds", testid: "melds" }, melds.length ? melds : h("p", { className: "muted" }, _("No melds yet"))),
  );
}

/** Your hand, sorted by suit (aces low). With `ctl`, cards are selected by clicks. */
export function renderRummyHand(node, view, ctl) {
  const hand = view.hand || [];
  const chosen = new Set(ctl ? ctl.selected : []);
  const playing = ctl && view.phase === "play";
  fill(
    node,
    hand.length === 0
      ? h("p", { className: "muted" }, _("No cards in your hand"))
      : h(
          "span",
          { className: "rummy-hand" },
          hand.map((card) =>
            faceNode(card, {
              testid: `hand-card-${card}`,
              className: `${chosen.has(card) ? "selected" : ""}${view.taken_discard === card ? " taken" : ""}`,
              dataset: { selected: String(chosen.has(card)) },
              pressed: playing ? chosen.has(card) : undefined,
              title: playing ? _("Select {card}", { card: cardTerm(card) }) : cardText(card),
              onClick: playing ? () => ctl.toggle(card) : undefined,
              draggable: playing,
              onDragstart: playing ? (event) => {
                event.dataTransfer.setData("text/plain", card);
                event.dataTransfer.effectAllowed = "move";
              } : undefined,
            }),
          ),
        ),
  );
}

/**
 * What this seat may do now, in a sentence, built from its choices (`rummyChoices`): the
 * piles it may draw from; then whether it may meld, lay off, and discard (with the last
 * card laid off or melded there may be nothing to discard: it goes out).
 */
export function rummyPrompt(view, c) {
  if (view.phase === "draw") {
    // (With no pile to take from, the draw is forced: the engine makes it.)
    if (c.take === null) return _("Your turn: draw from the stock.");
    const top = view.discard[view.discard.length - 1];
    return _("Your turn: draw from the stock, or take {card} from the discard pile.", { card: cardTerm(top) });
  }
  const meld = c.melds.length > 0;
  const layoff = c.layoffs.length > 0;
  if (!c.discards.size) {
    if (meld && layoff) return _("Meld or lay off your cards: you go out.");
    return meld ? _("Meld your cards: you go out.") : _("Lay off your cards: you go out.");
  }
  if (meld && layoff) return _("Meld, lay off, then discard one card.");
  if (meld) return _("Meld, then discard one card.");
  if (layoff) return _("Lay off, then discard one card.");
  return _("Discard one card.");
}

/** This seat's choices: draw, meld the selection, lay off, discard. */
export function renderRummyActions(node, view, ctl) {
  if (!ctl || !(view.legal_actions || []).length) {
    fill(node);
    return;
  }
  const c = ctl.choices;
  const selected = ctl.selected;
  const parts = [];
  const buttons = [];
  const button = (testid, label, action, opts = {}) =>
    h("button", { type: "button", className: `btn ${opts.primary === false ? "" : "primary"}`, testid, disabled: action === null || action === undefined, title: opts.title, onClick: action === null || action === undefined ? undefined : () => ctl.send(action) }, label);
  if (view.phase === "draw") {
    const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
    parts.push(h("p", { className: "prompt", testid: "prompt" }, rummyPrompt(view, c)));
    buttons.push(button("action-stock", _("Draw from the stock"), c.stock));
    if (c.take !== null) buttons.push(button("action-take", _("Take {card}", { card: cardTerm(top) }), c.take));
  } else {
    const key = meldKey(selected);
    const meld = c.melds.find((m) => m.key === key);
    const lays = selected.length === 1 ? c.layoffs.filter((l) => l.card === selected[0]) : [];
    const discard = selected.length === 1 ? c.discards.get(selected[0]) : undefined;
    let hint = _("Select cards: three or more to meld, one to lay off or discard.");
    if (selected.length >= 3 && !meld) hint = _("These cards are not a meld you may lay down now.");
    if (selected.length === 1 && !lays.length && discard === undefined) hint = _("{card} cannot be laid off or discarded now.", { card: cardTerm(selected[0]) });
    if (selected.length === 1 && lays.length > 1) hint = ngettext("{card} fits {n} meld: choose where it goes.", "{card} fits {n} melds: choose where it goes.", lays.length, { card: cardTerm(selected[0]) });
    const notes = [];
    if (view.taken_discard) notes.push(_("You may not discard {card}, taken from the pile.", { card: cardTerm(view.taken_discard) }));
    parts.push(h("p", { className: "prompt", testid: "prompt" }, rummyPrompt(view, c), notes.length ? ` ${notes.join(" ")}` : ""));
    buttons.push(button("action-meld", meld ? _("Meld {cards}", { cards: selected.map(cardText).join(" ") }) : _("Meld"), meld ? meld.action : null));
    for (const l of lays) buttons.push(button(`layoff-${l.slot}`, _("Lay off on meld {meld}", { meld: l.slot + 1 }), l.action));
    buttons.push(button("action-discard", selected.length === 1 ? _("Discard {card}", { card: cardTerm(selected[0]) }) : _("Discard"), discard));
    if (selected.length) buttons.push(h("button", { type: "button", className: "btn", testid: "action-clear", onClick: () => ctl.clear() }, _("Clear")));
    parts.push(h("div", { className: "buttons" }, buttons));
    parts.push(h("p", { className: "help", testid: "hint" }, hint));
    if (c.melds.length) {
      parts.push(
        h(
          "div",
          { className: "meld-options" },
          h("span", { className: "muted" }, _("Melds you hold:"), " "),
          c.melds.slice(0, 8).map((m, i) => h("button", { type: "button", className: "btn small", testid: `meld-option-${i}`, title: _("Select these cards"), onClick: () => ctl.select(m.cards) }, m.cards.map(cardText).join(" "))),
        ),
      );
    }
    fill(node, parts);
    return;
  }
  parts.push(h("div", { className: "buttons" }, buttons));
  fill(node, parts);
}

/** The end of a hand from its events: who went out (Going Rummy?), or a stalemate. */
export function rummyHandSummary(events) {
  const out = { hand: null, winner: null, goingRummy: false, points: 0, stalemate: null, shown: [] };
  for (const e of events) {
    if (e.type === "goes_out") {
      out.winner = e.player;
      out.goingRummy = e.going_rummy;
    } else if (e.type === "hand_won") out.points = e.points;
    else if (e.type === "stalemate") out.stalemate = stalemateReason(e);
    else if (e.type === "show") out.shown.push(e);
    else if (e.type === "hand_over") out.hand = e.hand;
  }
  return out;
}

const STALEMATE = {
  stock: _("the stock ran out a second time"),
  blocked: _("nobody can ever go out (no card left fits a meld, and no new meld can be made)"),
  stalled: _("for 40 turns in a row, players only took the discard top and laid nothing down"),
};
/** Why the engine found the hand hopeless (the event's "why"). */
const HOPELESS = {
  one_card_each: _("nobody can ever go out: every player holds one card, and no card still in play fits a meld on the table"),
  no_meld: _("nobody can ever go out: no card still in play fits a meld on the table, and no three of them make a meld"),
};

/** A stalemate event's reason in words. */
function stalemateReason(e) {
  return HOPELESS[e.why] || STALEMATE[e.reason] || e.reason;
}

export function renderRummySummary(node, s, me) {
  const lines = [];
  if (s.winner) {
    const params = { name: seatName(s.winner), points: amount(s.points, "point") };
    const mine = s.winner === me;
    if (s.goingRummy) lines.push(mine ? _("You went out: Going Rummy, points doubled, and score {points}.", params) : _("{name} went out: Going Rummy, points doubled, and scores {points}.", params));
    else lines.push(mine ? _("You went out and score {points}.", params) : _("{name} went out and scores {points}.", params));
  } else if (s.stalemate) {
    lines.push(_("Stalemate: {reason}. Nobody scores (a loss for everyone).", { reason: s.stalemate }));
  }
  for (const e of s.shown) lines.push(h("span", {}, e.player === me ? _("You:") : _("{name}:", { name: seatName(e.player) }), " ", row(e.cards), " ", ngettext("{n} point", "{n} points", e.points)));
  fill(node, h("h3", {}, _("Hand {hand} summary", { hand: s.hand })), h("ul", { testid: "hand-result" }, lines.map((l) => h("li", {}, l))));
}

/** Final standings, most points first. */
export function rummyStandings(view) {
  return view.players.map((p, seat) => ({ seat, name: p.name, score: p.score })).sort((a, b) => b.score - a.score || a.seat - b.seat);
}

/** One log line for a Rummy event, or null. `me`: this seat's name (null: watching).
 * Each sentence about a player is two whole messages ("You draw", "{name} draws"). */
export function narrateRummy(e, me) {
  const by = (player, mine, theirs) => (player === me ? mine : theirs);
  const name = seatName(e.player);
  const cards = (list) => list.map(cardText).join(" ");
  switch (e.type) {
    case "hand":
      return line(_("Your hand: {cards}", { cards: cards(e.cards) }), "private");
    case "upcard":
      return line(_("{card} starts the discard pile", { card: cardTerm(e.card) }));
    case "draw_stock":
      return line(by(name, _("You draw from the stock"), _("{name} draws from the stock", { name })));
    case "drew":
      return line(_("You drew {card}", { card: cardTerm(e.card) }), "private");
    case "draw_discard":
      return line(by(name, _("You take {card} from the pile", { card: cardTerm(e.card) }), _("{name} takes {card} from the pile", { name, card: cardTerm(e.card) })));
    case "reshuffle":
      return line(ngettext("The discard pile is shuffled into a new stock ({n} card)", "The discard pile is shuffled into a new stock ({n} cards)", e.count), "bad");
    case "meld":
      return line(by(name, _("You meld {cards}", { cards: cards(e.cards) }), _("{name} melds {cards}", { name, cards: cards(e.cards) })), "lay");
    case "lay_off": {
      const params = { name, card: cardTerm(e.card), meld: e.slot + 1 };
      return line(by(name, _("You lay off {card} on meld {meld}", params), _("{name} lays off {card} on meld {meld}", params)), "lay");
    }
    case "discard":
      return line(by(name, _("You discard {card}", { card: cardTerm(e.card) }), _("{name} discards {card}", { name, card: cardTerm(e.card) })));
    case "goes_out":
      if (e.going_rummy) return line(by(name, _("You go out: Going Rummy!"), _("{name} goes out: Going Rummy!", { name })), "won");
      return line(by(name, _("You go out"), _("{name} goes out", { name })), "won");
    case "stalemate":
      return line(_("Stalemate: {reason}", { reason: stalemateReason(e) }), "bad");
    case "show": {
      const params = { name, cards: cards(e.cards), points: e.points };
      return line(by(name, _("You hold {cards}: {points}", params), _("{name} holds {cards}: {points}", params)), "show");
    }
    case "hand_won":
      return line(by(name, _("You score {points}", { points: e.points }), _("{name} scores {points}", { name, points: e.points })), "won");
    case "hand_over":
      return line(_("End of hand {hand}", { hand: e.hand }), "round");
    case "game_over":
      if (!e.winner) return line(_("Game over"), "round");
      return line(by(e.winner, _("Game over: you win"), _("Game over: {name} wins", { name: seatName(e.winner) })), "round");
    default:
      return commonLine(e, me);
  }
}

/** The final standings of a match (points), then `buttons`. */
export function renderRummyStandings(box, view, buttons) {
  const rows = rummyStandings(view);
  fill(
    box,
    h("h2", {}, _("Final standings")),
    view.match_winner === null ? h("p", { className: "muted" }, _("Nobody won the match: the highest score is shared.")) : null,
    h(
      "ol",
      { className: "standings", testid: "standings" },
      rows.map((r) =>
        h(
          "li",
          { className: r.seat === view.match_winner ? "winner" : "" },
          h("span", { className: "player-name" }, seatName(r.name)),
          h("span", { className: "score" }, ngettext("{n} point", "{n} points", r.score)),
        ),
      ),
    ),
    buttons,
  );
}
