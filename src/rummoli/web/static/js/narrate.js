// Events (as the server sends them: only those this seat may see) as lines of the log.
import { cardText, SPACE_LABEL } from "./cards.js";

// Why a run stopped (the engine's "stop" event says it).
const STOP_REASON = {
  ace: "an ace ends its suit",
  laid: "the next card was laid before",
  widow: "the next card is in the widow",
};

const cards = (list) => list.map(cardText).join(" ");
// "1 chip", "2 chips": never "1 chips".
export const chipCount = (n) => `${n} chip${n === 1 ? "" : "s"}`;
const space = (name) => SPACE_LABEL[name] || name;

/**
 * One line for an event, or null for events not worth a line on their own.
 * `me`: this seat's name (so "You" can be said), or null for a spectator.
 * Returns {text, kind} where kind is a CSS hint (won, round, private, ...).
 */
export function narrate(event, me) {
  const who = (name) => (name === me ? "You" : name);
  const e = event;
  switch (e.type) {
    case "cut":
      return line(`${who(e.player)} cut ${cardText(e.card)} for the deal`);
    case "dealer":
      return line(`${who(e.player)} deal${e.player === me ? "" : "s"}`, "round");
    case "out":
      return line(`${who(e.player)} cannot pay the ante: out of the game`, "bad");
    case "ante":
      return null;
    case "hand":
      return line(`Your hand: ${cards(e.cards)}`, "private");
    case "widow_dealt":
      return line(`Everyone antes; the widow gets ${e.count} cards`);
    case "widow_dead":
      return line("The widow stays out of play");
    case "blocked":
      return line("Your hand holds a pay card: you may not exchange or bid", "private");
    case "keep":
      return line(`${who(e.player)} keep${e.player === me ? "" : "s"} the hand`);
    case "exchange":
      return line(`${who(e.player)} take${e.player === me ? "" : "s"} the widow`);
    case "pass":
      return line(`${who(e.player)} pass${e.player === me ? "" : "es"}`);
    case "bid":
      return line(`${who(e.player)} bid${e.player === me ? "" : "s"} ${e.chips} for the widow`);
    case "no_bid":
      return line("Nobody bids for the widow");
    case "bought":
      return line(`${who(e.player)} buy${e.player === me ? "" : "s"} the widow for ${e.chips}, paid to ${who(e.dealer)}`);
    case "check":
      return line(`${who(e.player)} check${e.player === me ? "" : "s"}`);
    case "fold":
      return line(`${who(e.player)} fold${e.player === me ? "" : "s"} (the poker pot only)`);
    case "call":
      return line(`${who(e.player)} call${e.player === me ? "" : "s"} ${e.total}${e.all_in ? " (all in)" : ""}`);
    case "raise":
      return line(`${who(e.player)} bet${e.player === me ? "" : "s"} ${e.total}${e.all_in ? " (all in)" : ""}`);
    case "returned":
      return line(`${who(e.player)} take${e.player === me ? "" : "s"} back ${e.chips} uncalled`);
    case "show":
      return line(`${who(e.player)} show${e.player === me ? "" : "s"} ${cards(e.cards)}: ${e.hand}`, "show");
    case "poker_pot": {
      const pot = e.pot === 0 ? "the poker pot" : `side pot ${e.pot}`;
      if (e.winners.length === 1) return line(`${who(e.winners[0])} win${e.winners[0] === me ? "" : "s"} ${pot}: ${chipCount(e.chips)}`, "won");
      return line(`${e.winners.map(who).join(" and ")} split ${pot}: ${e.share} each`, "won");
    }
    case "leads":
      return line(`${who(e.player)} lead${e.player === me ? "" : "s"} the Rummoli phase`);
    case "lay":
      return line(`${who(e.player)} ${cardText(e.card)}`, "lay");
    case "space":
      return line(`${who(e.player)} take${e.player === me ? "" : "s"} the ${space(e.space)} space: ${chipCount(e.chips)}`, "won");
    case "unclaimed":
      return line(`${who(e.player)} did not claim ${space(e.space)}: the chips stay`);
    case "stop":
      return line(`Stop at ${cardText(e.card)}: ${STOP_REASON[e.reason] || "nobody can follow"}`, "stop");
    case "duty_passes":
      return line(`${who(e.player)} cannot lead that colour${e.fine ? `: fined ${e.fine}` : ""}`);
    case "deadlock":
      return line("Deadlock: nobody holds the colour. One chip per card to Rummoli", "bad");
    case "deadlock_pays":
      return e.chips ? line(`${who(e.player)} pay${e.player === me ? "" : "s"} ${e.chips} to Rummoli`) : null;
    case "deadlock_continue":
      return line(`Nobody holds the colour: ${who(e.player)} lead${e.player === me ? "" : "s"} any suit`);
    case "round_won":
      return line(`${who(e.player)} go${e.player === me ? "" : "es"} out and win${e.player === me ? "" : "s"} the Rummoli space: ${chipCount(e.chips)}`, "won");
    case "pays":
      return e.chips ? line(`${who(e.player)} pay${e.player === me ? "" : "s"} ${who(e.to)} ${e.chips}`) : null;
    case "round_over":
      return line(`End of round ${e.round}`, "round");
    case "settle_cut":
      return line(`Settlement: ${who(e.player)} cut${e.player === me ? "" : "s"} ${cardText(e.card)}`);
    case "settle_hand":
      return line(`Settlement: ${who(e.player)} ${cards(e.cards)}: ${e.hand}`, "show");
    case "settled": {
      const what = e.space === "all" ? "the board" : `the ${space(e.space)} space`;
      return line(`${e.winners.map(who).join(" and ")} take${e.winners.length === 1 && e.winners[0] !== me ? "s" : ""} ${what}: ${chipCount(e.chips)}`, "won");
    }
    case "game_over":
      return line("Game over", "round");
    default:
      return line(e.type);
  }
}

function line(text, kind = "") {
  return { text, kind };
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
