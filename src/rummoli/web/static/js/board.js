// The table as one seat sees it, drawn from the engine's view (the table page and the
// replay page share this). It reads only the view the server sent: there is nothing else.
import { cardName, cardNode, cardRow, cardText, isRed, POKER_HAND_ORDER, pokerHandName, RANKS, seatName, spaceName, SUIT_SYMBOL, SUITS } from "./cards.js";
import { fill, h } from "./dom.js";
import { _, currentLanguage, ngettext, number, pgettext } from "./i18n.js";
import { levelHelp, levelTitle } from "./options.js";
import { isOctagon, namedPoolPays, setLayout, spareKind, spaceLabelOf } from "./spare.js";
import { spareText } from "./spare_words.js";
import { card as cardTerm, hand as handTerm } from "./terms.js";

// The phases' names, looked up when said (the language can change: i18n.js).
const PHASES = {
  start: () => pgettext("phase", "Cutting for the deal"),
  widow: () => pgettext("phase", "The widow"),
  auction: () => pgettext("phase", "Widow auction"),
  stake: () => pgettext("phase", "Stakes"),
  betting: () => pgettext("phase", "Poker"),
  play: () => pgettext("phase", "Rummoli"),
  next_round: () => pgettext("phase", "Round over"),
  over: () => pgettext("phase", "Game over"),
};

// Pay spaces clockwise around the centre, from the top left; the centre is rummoli.
const AROUND = ["10S", "JD", "QC", "KH", "AS", "AKD", "789", "poker"];
const GRID_CELLS = [0, 1, 2, 7, "centre", 3, 6, 5, 4];

// The phases another game of the family names its own way (its spare hand, its runs).
const SPARE_PHASES = {
  "spare hand": { widow: () => pgettext("phase", "The spare hand"), auction: () => pgettext("phase", "Spare hand auction") },
  "dead hand": { widow: () => pgettext("phase", "The dead hand"), auction: () => pgettext("phase", "Dead hand auction") },
};

export function phaseLabel(phase, layout = undefined) {
  const spare = SPARE_PHASES[spareKind(layout)];
  if (spare && spare[phase]) return spare[phase]();
  if (phase === "play" && !isOctagon(layout)) return pgettext("phase", "The runs");
  return PHASES[phase] ? PHASES[phase]() : phase;
}

/** Who is to move, as a sentence for this seat. */
export function turnText(view, me) {
  if (!view) return "";
  if (view.phase === "over") return phaseLabel("over");
  if (view.to_move === "chance" || view.to_move === null) return phaseLabel(view.phase, view.layout);
  const name = seatName(view.players[view.to_move].name);
  return view.to_move === me ? _("Your turn") : _("{name} to play", { name });
}

export function renderStatus(node, view, table, me, timerText) {
  const items = [];
  if (view) {
    const rounds = table && table.rules ? table.rules.rounds : 0;
    const round = view.round || 1;
    items.push(h("span", { className: "pill", testid: "round" }, rounds ? _("Round {round} of {rounds}", { round, rounds }) : _("Round {round}", { round })));
    items.push(h("span", { className: "pill phase", testid: "phase" }, phaseLabel(view.phase, view.layout)));
    const mine = view.to_move === me && me !== null && view.phase !== "over";
    const turn = turnText(view, me);
    if (turn !== phaseLabel(view.phase, view.layout)) {
      items.push(h("span", { className: `pill turn${mine ? " mine" : ""}`, testid: "turn" }, turn));
    }
    if (timerText) items.push(h("span", { className: "pill timer", testid: "timer" }, timerText));
  }
  if (table && table.last_round && view && view.phase !== "over") {
    items.push(h("span", { className: "pill warn" }, _("Last round")));
  }
  fill(node, items);
}

export function renderPlayers(node, view, table, me) {
  fill(
    node,
    view.players.map((p, i) => {
      const badges = seatBadges(view, table, i);
      if (p.out) badges.push(badge(pgettext("badge", "out"), "out", _("Out of the game")));
      // The poker's marks last as long as the poker: not into the Rummoli phase or the end.
      if (p.folded && view.phase === "betting") badges.push(badge(pgettext("badge", "folded"), "folded", _("Folded (poker only)")));
      if (view.poker_winners.includes(i) && view.phase === "play") badges.push(badge(pgettext("badge", "leads"), "leads", _("Won the poker")));
      if (view.round_winner === i) badges.push(badge(pgettext("badge", "won"), "won", _("Won the round")));
      // A shown poker hand stays beside the player at the showdown, until the first card of
      // the Rummoli phase is laid (then his card count is what counts; the round's
      // summary keeps the showdown).
      const shown = view.laid.length === 0 && ["betting", "play"].includes(view.phase) ? view.shown[String(i)] : null;
      const amounts = [ngettext("{n} chip", "{n} chips", p.chips), ngettext("{n} card", "{n} cards", p.cards)];
      if (view.phase === "betting") amounts.push(_("bet {chips}", { chips: p.bet }));
      return playerBox(view, i, me, {
        badges,
        amounts,
        out: p.out,
        figures: [
          h("span", { className: "chips", title: _("Chips"), testid: `player-chips-${i}` }, h("i", { className: "chip-icon" }), number(p.chips)),
          cardCount(p, i),
          view.phase === "betting" ? h("span", { className: "bet", title: _("Bet this round") }, _("bet {chips}", { chips: p.bet })) : null,
        ],
        shown: shown ? cardRow(shown) : null,
      });
    }),
  );
}

/** A player's badge ("D", "Expert", "folded"); `spoken`: its word for a screen reader,
 * when the badge's own is a mark ("D": "dealer"). */
export function badge(text, kind, title, spoken = null) {
  return h("span", { className: `badge ${kind}`, title, dataset: { spoken: spoken || text } }, text);
}

/** The badges every game gives seat `i`, before its own: the dealer, a computer player's
 * level, away or not connected (`table`: null on the replay, which knows no seats). */
export function seatBadges(view, table, i) {
  const seat = (table ? table.seats : [])[i] || {};
  const game = table ? table.game : view.game;
  const badges = [];
  if (i === view.dealer) badges.push(badge(pgettext("badge", "D"), "dealer", _("Dealer"), _("dealer")));
  if (seat.bot) badges.push(badge(levelTitle(game, seat.bot), "bot", levelHelp(game, seat.bot) || _("Computer player")));
  if (seat.away) badges.push(badge(pgettext("badge", "away"), "away", _("Away: the computer plays for this seat")));
  else if (!seat.bot && table && table.status === "playing" && !seat.connected) {
    badges.push(badge(pgettext("badge", "offline"), "offline", _("Not connected")));
  }
  return badges;
}

/** The count of a player's cards in hand, a figure of his box in every game. */
export function cardCount(p, i) {
  return h("span", { className: "count", title: _("Cards in hand"), testid: `player-cards-${i}` }, h("i", { className: "cards-icon" }), String(p.cards));
}

/**
 * Player `i`'s box, the same in every game: his name ("you" for this seat, `me`), his
 * `badges`, his `figures` (the game's spans) and the cards he shows (`shown`: a node, or
 * null); `out`: he is out of the game. A screen reader says the box as one group: the
 * name, "you", the badges by their words, then `amounts` (his figures with their units:
 * "Mum, dealer, 91 chips, 8 cards").
 */
export function playerBox(view, i, me, { badges, amounts, figures, shown = null, out = false }) {
  const name = seatName(view.players[i].name);
  const classes = ["player"];
  if (view.to_move === i) classes.push("to-move");
  if (i === me) classes.push("me");
  if (out) classes.push("is-out");
  const spoken = [name];
  if (i === me) spoken.push(_("you"));
  for (const b of badges) spoken.push(b.dataset.spoken);
  return h(
    "div",
    { className: classes.join(" "), testid: `player-${i}`, dataset: { seat: String(i) }, role: "group", "aria-label": [...spoken, ...amounts].join(", ") },
    h(
      "div",
      { className: "player-top", "aria-hidden": "true" },
      h("span", { className: "player-name", testid: `player-name-${i}` }, name),
      i === me ? h("span", { className: "you" }, pgettext("badge", "you")) : null,
    ),
    h("div", { className: "badges", "aria-hidden": "true" }, badges),
    h("div", { className: "player-stats", "aria-hidden": "true" }, figures),
    shown ? h("div", { className: "shown", testid: `shown-${i}` }, shown) : null,
  );
}

export function renderBoard(node, view) {
  const board = view.board;
  setLayout(view.layout);
  if (!isOctagon(view.layout)) {
    fill(node, familyBoard(board, view.layout));
    return;
  }
  const cells = GRID_CELLS.map((index) => {
    if (index === "centre") return spaceNode("rummoli", board.rummoli, true);
    const name = AROUND[index];
    if (!(name in board)) return h("div", { className: "space empty" });
    return spaceNode(name, board[name], false);
  });
  fill(node, h("div", { className: "board-grid" }, cells));
}

// Another game's board, drawn from its layout alone: each space in the layout's order,
// placed by the shape's stylesheet (a row, a grid of sections, pools round a centre,
// four corners and a centre); the pots (poker, kitty) take the centre where there is one.
function familyBoard(board, layout) {
  const pots = layout.spaces.filter((s) => s.role !== "pay");
  const pays = layout.spaces.filter((s) => s.role === "pay");
  const node = (s, i) => familySpace(s, board[s.name] || 0, i);
  return h(
    "div",
    { className: `board-family shape-${layout.shape}`, testid: "board-family", dataset: { shape: layout.shape } },
    h("div", { className: "board-pays" }, pays.map(node)),
    pots.length ? h("div", { className: "board-pots" }, pots.map(node)) : null,
  );
}

function familySpace(space, chips, index) {
  const label = spaceLabelOf(space);
  const red = space.cards.length && space.cards.every((text) => text.endsWith("D") || text.endsWith("H"));
  const pays = familyPays(space, label);
  return h(
    "div",
    { className: `space ${space.role}${red ? " red" : ""}${chips ? "" : " bare"}`, testid: `space-${space.name}`, dataset: { chips: String(chips), role: space.role }, title: pays, "aria-description": pays },
    h("span", { className: "space-label" }, label),
    h("span", { className: "space-chips" }, h("i", { className: "chip-icon" }), number(chips)),
  );
}

// What a space of another game pays and when (its layout says: held at the deal or laid).
function familyPays(space, label) {
  const named = namedPoolPays(space);
  if (named) return named;
  if (space.role === "poker") return _("Pot: the best poker hand of the round takes these chips.");
  if (space.role === "kitty") return _("Kitty: the first player out of cards takes these chips.");
  if (space.when === "held") return _("{cards}: holding these cards at the deal takes these chips.", { cards: label });
  if (space.cards.length > 1) return _("{cards}: laying these cards takes these chips.", { cards: label });
  return _("{card}: laying this card takes these chips.", { card: label });
}

// What each space pays and when (RULES.md): shown when the pointer rests on it, and read
// by screen readers with the space.
function spacePays(name) {
  switch (name) {
    case "rummoli":
      return _("Rummoli: the first player to lay his last card takes these chips.");
    case "poker":
      return _("Poker: the best poker hand of the round takes these chips.");
    case "AKD":
      return _("King and ace of diamonds: laying both, one after the other, takes these chips.");
    case "789":
      return _("7-8-9: laying the 7, 8 and 9 of one suit, one after the other, takes these chips.");
    default:
      return _("{card}: laying this card takes these chips.", { card: cardName(name.replace("10", "T")) });
  }
}

function spaceNode(name, chips, centre) {
  const red = ["JD", "KH", "AKD"].includes(name);
  const pays = spacePays(name);
  return h(
    "div",
    { className: `space${centre ? " centre" : ""}${red ? " red" : ""}${chips ? "" : " bare"}`, testid: `space-${name}`, dataset: { chips: String(chips) }, title: pays, "aria-description": pays },
    h("span", { className: "space-label" }, spaceName(name)),
    h("span", { className: "space-chips" }, h("i", { className: "chip-icon" }), number(chips)),
  );
}

/** The cards laid this round: one row per suit, so stops can be read at a glance; and,
 * beside them, the story of the run (`story`: the last lines of the round, newest last:
 * the cards laid and by whom, the stop and why, the space won, who leads and why). */
export function renderLaid(node, view, story = null) {
  const laid = new Map(view.laid.map((l, i) => [l.card, i]));
  const last = view.laid.length ? view.laid[view.laid.length - 1].card : null;
  const rows = SUITS.map((suit) =>
    h(
      "div",
      { className: `laid-row ${suit === "D" || suit === "H" ? "red" : "black"} suit-${suit}` },
      h("span", { className: "laid-suit" }, SUIT_SYMBOL[suit]),
      RANKS.map((rank) => {
        const card = rank + suit;
        const here = laid.has(card);
        const cls = `laid-cell${here ? " on" : ""}${card === last ? " last" : ""}`;
        const spoken = here ? _("{card}, laid", { card: cardName(card) }) : _("{card}, not laid", { card: cardName(card) });
        return h("span", { className: cls, title: here ? _("{card} laid", { card: cardTerm(card) }) : cardText(card), role: "img", "aria-label": spoken }, rank === "T" ? "10" : rank);
      }),
    ),
  );
  const widow = view.widow;
  const taken = widow.taken_by !== null && widow.taken_by !== undefined;
  const widowText = taken
    ? spareText("takenBy", { n: widow.cards, name: seatName(view.players[widow.taken_by].name) }, view.layout)
    : spareText("count", widow.cards, view.layout);
  fill(
    node,
    h("div", { className: "laid-head" }, h("span", {}, _("Laid this round")), h("span", { className: "muted", testid: "widow" }, widowText)),
    h("div", { className: "laid-grid", testid: "laid" }, rows),
    story && story.length
      ? h(
          "ol",
          { className: "story", testid: "story", "aria-label": _("What just happened") },
          story.map((l, i) => h("li", { className: `${l.kind}${i === story.length - 1 ? " new" : ""}` }, l.text)),
        )
      : null,
    widow.known && widow.known.length ? h("div", { className: "known-widow" }, spareText("gave", undefined, view.layout), " ", cardRow(widow.known)) : null,
  );
}

/** Your hand, by suit; cards you may lay now are buttons. */
export function renderHand(node, view, laySend) {
  const hand = view.hand || [];
  const lays = new Map();
  for (const a of view.legal_actions || []) {
    if (/^[2-9TJQKA][CDHS]$/.test(a.text)) lays.set(a.text, a.action);
  }
  const groups = [];
  let current = null;
  for (const card of hand) {
    const suit = card.slice(-1);
    if (!current || current.suit !== suit) {
      current = { suit, cards: [] };
      groups.push(current);
    }
    current.cards.push(card);
  }
  fill(
    node,
    hand.length === 0
      ? h("p", { className: "muted" }, _("No cards in your hand"))
      : groups.map((g) =>
          h(
            "span",
            { className: "suit-group" },
            g.cards.map((card) =>
              cardNode(card, {
                testid: `hand-card-${card}`,
                playable: lays.has(card) && laySend,
                onClick: lays.has(card) && laySend ? () => laySend(lays.get(card)) : undefined,
                title: lays.has(card) ? _("Lay {card}", { card: cardTerm(card) }) : cardText(card),
                label: lays.has(card) && laySend ? _("Lay {card}", { card: cardName(card) }) : undefined,
              }),
            ),
          ),
        ),
    view.poker_hand
      ? h("p", { className: "poker-hand", testid: "poker-hand" }, _("Your poker hand:"), " ", h("strong", {}, pokerHandName(view.poker_hand.name)), ` (${view.poker_hand.cards.map(cardText).join(" ")})`)
      : null,
  );
}

/** The choices of this seat as buttons; `send(action)` plays one. `round`: this round's
 * events and the table's house rules ({events, rules}), so that a lead with a choice of
 * cards says why those cards (leadReason). */
export function renderActions(node, view, send, round = null) {
  const legal = view.legal_actions || [];
  if (!legal.length || !send) {
    fill(node);
    return;
  }
  const words = {};
  // A bid or a raise comes as one range (kind, min, max, step, action): the server never
  // lists every amount (docs/web.md, "Choices as ranges").
  let bids = null;
  let raises = null;
  const lays = [];
  const claims = [];
  const stakes = [];
  for (const a of legal) {
    if (a.kind === "bid") {
      bids = a;
      continue;
    }
    if (a.kind === "raise") {
      raises = a;
      continue;
    }
    const [word, rest] = a.text.split(" ");
    if (word === "stake") stakes.push([rest, a.action]);
    else if (rest === "claim") claims.push([word, a.action]);
    else if (/^[2-9TJQKA][CDHS]$/.test(word)) lays.push([word, a.action]);
    else words[word] = a.action;
  }
  const me = view.seat;
  const mine = view.players[me];
  const parts = [h("p", { className: "prompt", testid: "prompt" }, prompt(view, { words, lays, claims, bids, raises }, round))];
  const buttons = [];
  const wordLabel = {
    keep: _("Keep my hand"),
    no_auction: _("Keep my hand, no auction"),
    exchange: spareText("take", undefined, view.layout),
    pass: _("Pass"),
    check: _("Check"),
    call: callLabel(view, mine),
    fold: _("Fold"),
  };
  for (const word of ["keep", "no_auction", "exchange", "check", "call", "pass", "fold"]) {
    if (word in words) {
      buttons.push(h("button", { type: "button", className: `btn ${word === "fold" || word === "pass" ? "" : "primary"}`, testid: `action-${word}`, onClick: () => send(words[word]) }, wordLabel[word]));
    }
  }
  for (const [card, action] of lays) {
    buttons.push(h("button", { type: "button", className: "btn primary lay", testid: `lay-${card}`, "aria-label": _("Lay {card}", { card: cardName(card) }), onClick: () => send(action) }, _("Lay {card}", { card: cardTerm(card) })));
  }
  for (const [card, action] of claims) {
    buttons.push(h("button", { type: "button", className: "btn gold", testid: `claim-${card}`, "aria-label": _("Lay {card} and claim its space", { card: cardName(card) }), onClick: () => send(action) }, _("Lay {card} and claim", { card: cardTerm(card) })));
  }
  // Chips placed by choice before the deal (Newmarket's horses): a button a space.
  for (const [name, action] of stakes) {
    const space = view.layout && view.layout.spaces.find((s) => s.name === name);
    const label = space ? spaceLabelOf(space) : name;
    buttons.push(h("button", { type: "button", className: "btn primary", testid: `stake-${name}`, onClick: () => send(action) }, _("A chip on {space}", { space: label })));
  }
  if (buttons.length) parts.push(h("div", { className: "buttons" }, buttons));
  if (bids) parts.push(amountForm("bid", bids, _("Bid"), send, view.layout));
  if (raises) parts.push(amountForm("raise", raises, view.betting && view.betting.high ? _("Raise to") : _("Bet"), send));
  fill(node, parts);
}

function callLabel(view, mine) {
  const high = view.betting ? view.betting.high : 0;
  const owed = Math.max(0, high - mine.bet);
  return owed >= mine.chips ? _("Call (all in, {chips})", { chips: mine.chips }) : _("Call {chips}", { chips: owed });
}

/**
 * What this seat may do now, in a sentence: built from the actions offered (``choices``:
 * the word actions, the cards to lay or claim, the bid and raise ranges), so it can never
 * say a choice is missing that a button offers, or offer one that is not there. `round`:
 * this round's events and rules (why a lead, why only a pass).
 */
export function prompt(view, choices, round) {
  const { words, lays, claims, bids, raises } = choices;
  const p = view.players;
  const optional = words.no_auction !== undefined; // house rule auction_optional
  const spare = (key, arg) => spareText(key, arg, view.layout);
  if (view.phase === "widow") {
    if (words.exchange === undefined && optional) return spare("dealerBlockedOptional");
    if (words.exchange === undefined) return spare("dealerBlocked");
    if (optional) return spare("dealerOptional", view.widow.cards);
    return spare("dealer", view.widow.cards);
  }
  if (view.phase === "auction") {
    const a = view.auction;
    const high = a && a.high_bidder !== null && a.high_bidder !== undefined;
    const open = a && a.open; // house rule auction: open
    // Each sentence in the game's word for its spare hand (spare_words.js).
    const params = high ? { bid: a.high_bid, name: seatName(p[a.high_bidder].name) } : {};
    if (bids) {
      if (high) {
        if (open) return spare("highOpen", params);
        return spare("high", params);
      }
      if (open) return spare("firstOpen");
      return spare("first");
    }
    // Only a pass: a pay card in the hand (this seat was told: its own "blocked" event),
    // or no more chips than the high bid.
    const blocked = round && round.events.some((e) => e.type === "blocked" && e.player === p[view.seat].name);
    if (blocked) return spare("blocked");
    return high ? spare("highCannot", params) : spare("cannot");
  }
  if (view.phase === "settlement") {
    const pot = ngettext("{n} chip", "{n} chips", view.betting ? view.betting.pot : 0);
    const params = { pot, high: view.betting ? view.betting.high : 0, mine: p[view.seat].bet };
    if (words.check !== undefined) return _("Settlement poker for {pot}: your five cards are your hand. Check, or open the betting.", params);
    if (raises) return _("Settlement poker for {pot}: the bet is {high}; you have {mine} in. Call, raise or fold.", params);
    return _("Settlement poker for {pot}: the bet is {high}; you have {mine} in. Call or fold.", params);
  }
  if (view.phase === "betting") {
    const high = view.betting ? view.betting.high : 0;
    const params = { high, mine: p[view.seat].bet };
    // (A check always comes with a bet: a player all in is never asked.)
    if (words.check !== undefined) return _("Poker: check, or open the betting.");
    if (words.call !== undefined && raises) return _("Poker: the bet is {high}; you have {mine} in. Call, raise or fold (folding gives up the poker pot only).", params);
    if (words.call !== undefined) return _("Poker: the bet is {high}; you have {mine} in. Call or fold (folding gives up the poker pot only).", params);
    return _("Poker: the bet is {high}; you have {mine} in. Fold, or go all in (folding gives up the poker pot only).", params);
  }
  if (view.phase === "stake") return _("Place your chips before the deal, one at a time, each on the space you choose.");
  if (view.phase === "play") {
    if (claims.length) return _("Lay the card, and claim its space if you want the chips (with this house rule an unclaimed space keeps its chips).");
    if (lays.length > 1 && round) return _("Your lead: choose the card to lay. {why}", { why: leadReason(round.events, round.rules, lays.map(([card]) => card)) });
    if (lays.length > 1) return _("Your lead: choose the card to lay.");
    return _("Your turn: lay the card.");
  }
  return _("Your turn.");
}

function amountForm(kind, choice, label, send, layout = undefined) {
  const { min, max } = choice;
  const step = choice.step || 1;
  const actionFor = (amount) => choice.action + (amount - min);
  const valid = (amount) => Number.isInteger(amount) && amount >= min && amount <= max && (amount - min) % step === 0;
  const input = h("input", { type: "number", min, max, step, value: min, inputmode: "numeric", testid: `${kind}-amount`, "aria-label": _("{action}: amount", { action: label }) });
  const range = h("input", { type: "range", min, max, step, value: min, "aria-hidden": "true", tabindex: "-1", className: "range" });
  range.addEventListener("input", () => {
    input.value = range.value;
  });
  input.addEventListener("input", () => {
    range.value = input.value;
    input.setCustomValidity("");
  });
  const submit = (event) => {
    event.preventDefault();
    const amount = Number(input.value);
    if (!valid(amount)) {
      input.setCustomValidity(_("from {min} to {max}", { min, max }));
      input.reportValidity();
      return;
    }
    send(actionFor(amount));
  };
  return h(
    "form",
    { className: `amount ${kind}`, onSubmit: submit, testid: `${kind}-form` },
    h("label", {}, kind === "bid" ? spareText("bidLabel", undefined, layout) : _("Amount (your total bet)")),
    h("div", { className: "amount-row" }, input, h("button", { type: "submit", className: "btn primary", testid: `${kind}-submit` }, label)),
    range,
    max > min
      ? h("button", { type: "button", className: "btn small", testid: `${kind}-max`, onClick: () => send(actionFor(max)) }, kind === "bid" ? _("Bid {chips}", { chips: max }) : _("All in: {chips}", { chips: max }))
      : null,
  );
}

/** The hands shown at a showdown, when there are any. */
/**
 * The hands shown at the showdown, each with its name, and why the winner won. `events`:
 * this round's events (their "show" events name each hand; without them, cards only).
 */
export function renderShowdown(node, view, events = []) {
  const shown = Object.entries(view.shown || {});
  if (!shown.length) {
    fill(node);
    node.hidden = true;
    return;
  }
  node.hidden = false;
  const hands = {};
  for (const e of events) if (e.type === "show") hands[e.player] = e.hand;
  const winners = view.poker_winners || [];
  fill(
    node,
    h("h3", {}, _("Showdown")),
    shown.map(([seat, cards]) => {
      const name = view.players[Number(seat)].name;
      return h(
        "div",
        { className: "shown-line" },
        h("span", { className: "player-name" }, seatName(name)),
        cardRow(cards),
        hands[name] ? h("span", { className: "hand-name", testid: `shown-hand-${seat}` }, pokerHandName(hands[name])) : null,
        winners.includes(Number(seat)) ? badge(pgettext("badge", "best hand"), "leads") : null,
      );
    }),
    whyWon(view, hands, winners),
  );
}

// Why the poker winner won, from the hands' names ("a flush beats two pair"; the same
// name: higher cards); null when the names are not known.
function whyWon(view, hands, winners) {
  const names = winners.map((seat) => view.players[seat].name);
  if (!names.length || names.some((n) => !hands[n])) return null;
  const hand = handTerm(hands[names[0]]);
  const why = (text) => h("p", { className: "why-won", testid: "why-won" }, text);
  if (names.length > 1) {
    // "Ann et Bea", "Ann и Bea": the page's own list, not a comma list.
    const list = new Intl.ListFormat(currentLanguage(), { type: "conjunction" }).format(names.map(seatName));
    return why(_("{names} tie with {hand}: they share the poker pot.", { names: list, hand }));
  }
  const others = Object.entries(hands).filter(([n]) => n !== names[0]).map(([, category]) => category);
  if (!others.length) return null;
  const best = others.reduce((a, b) => (POKER_HAND_ORDER.indexOf(b) > POKER_HAND_ORDER.indexOf(a) ? b : a));
  const params = { name: seatName(names[0]), hand, other: handTerm(best) };
  const mine = view.seat !== undefined && view.seat !== null && winners[0] === view.seat;
  if (best === hands[names[0]]) {
    return why(mine ? _("You win the poker pot: the same hand ({hand}), with higher cards.", params) : _("{name} wins the poker pot: the same hand ({hand}), with higher cards.", params));
  }
  return why(mine ? _("You win the poker pot: {hand} beats {other}.", params) : _("{name} wins the poker pot: {hand} beats {other}.", params));
}

/** Final standings, most chips first. */
export function standings(view, start) {
  return view.players
    .map((p, seat) => ({ seat, name: p.name, chips: p.chips, change: start === undefined ? null : p.chips - start }))
    .sort((a, b) => b.chips - a.chips || a.seat - b.seat);
}

/**
 * Why this seat leads what it may lead, in plain words (RULES.md, the Rummoli phase): the
 * first lead of the phase is the lowest card (or, by house rule, the lowest of a suit of
 * one's choice); after a stop the lead switches to the other colour than the card the run
 * stopped at, unless nobody holds that colour (house rule `deadlock: any_colour`).
 * `events`: this round's events so far; `rules`: the table's house rules; `lays`: the
 * cards this seat may lead.
 */
function leadReason(events, rules, lays) {
  let stopped = null;
  for (let i = events.length - 1; i >= 0 && stopped === null; i--) {
    if (events[i].type === "stop") stopped = events[i].card;
  }
  if (stopped === null) {
    return rules.lead === "lowest_of_any_suit"
      ? _("You lead first: the lowest card of the suit you choose.")
      : _("You lead first: your lowest card (you choose among equally low ones).");
  }
  const wantRed = !isRed(stopped);
  if (!lays.every((card) => isRed(card) === wantRed)) {
    return wantRed
      ? _("The run stopped at {card} and nobody holds a red card: lead your lowest card of any suit.", { card: cardTerm(stopped) })
      : _("The run stopped at {card} and nobody holds a black card: lead your lowest card of any suit.", { card: cardTerm(stopped) });
  }
  if (rules.switch_lead === "any_suit_of_colour") {
    return wantRed
      ? _("The run stopped at {card}: the lead switches to red, the lowest card of the red suit you choose.", { card: cardTerm(stopped) })
      : _("The run stopped at {card}: the lead switches to black, the lowest card of the black suit you choose.", { card: cardTerm(stopped) });
  }
  return wantRed
    ? _("The run stopped at {card}: the lead switches to red, your lowest red card.", { card: cardTerm(stopped) })
    : _("The run stopped at {card}: the lead switches to black, your lowest black card.", { card: cardTerm(stopped) });
}
