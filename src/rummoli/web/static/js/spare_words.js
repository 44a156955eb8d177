// The page's sentences about the spare hand at the decisions (the dealer's exchange, the
// auction, the bid, the hints), in the game's own word for it: Rummoli's widow,
// Tripoley's dead hand, the spare hand of the other games (spare.js: spareKind).
//
// Why whole sentences per word rather than a word put into one sentence: the word's
// gender and case change the sentence around it (French "la veuve" / "la main morte";
// Russian "вдова" is feminine, "прикуп" masculine: "за вдову", "за прикуп"), so each
// language translates each sentence whole. A game whose word has no sentences here
// takes the spare hand's.
import { _, ngettext } from "./i18n.js";
import { spareKind } from "./spare.js";

const WIDOW = {
  count: (n) => ngettext("Widow: {n} card", "Widow: {n} cards", n),
  takenBy: (f) => ngettext("Widow ({n} card): {name} took it", "Widow ({n} cards): {name} took it", f.n, f),
  take: () => _("Take the widow"),
  takeAction: () => _("take the widow"),
  gave: () => _("You gave the widow:"),
  bidLabel: () => _("Bid for the widow"),
  dealerBlockedOptional: () => _("You deal, and you hold a pay card: you may not take the widow. Keep your hand, and auction the widow or not."),
  dealerBlocked: () => _("You deal, and you hold a pay card: you may not take the widow. Keep your hand when you are ready."),
  dealerOptional: (n) => ngettext("You deal. Keep your hand (and auction the widow, or not), or exchange it unseen for the widow ({n} card).", "You deal. Keep your hand (and auction the widow, or not), or exchange it unseen for the widow ({n} cards).", n),
  dealer: (n) => ngettext("You deal. Keep your hand, or exchange it unseen for the widow ({n} card).", "You deal. Keep your hand, or exchange it unseen for the widow ({n} cards).", n),
  highOpen: (f) => _("Widow auction: high bid {bid} by {name}. Raise it or pass (you may bid again if someone outbids it).", f),
  high: (f) => _("Widow auction: high bid {bid} by {name}. Raise it or pass (a pass is final).", f),
  firstOpen: () => _("Widow auction: bid for the widow, or pass (you may bid again if someone bids)."),
  first: () => _("Widow auction: bid for the widow, or pass (a pass is final)."),
  blocked: () => _("You hold a pay card: you may not bid for the widow. Pass when you are ready."),
  highCannot: (f) => _("Widow auction: high bid {bid} by {name}, and you cannot bid more. Pass when you are ready.", f),
  cannot: () => _("You cannot bid for the widow. Pass when you are ready."),
  worthMore: (f) => _("the widow is worth about {amount} more than your hand", f),
  worthLess: () => _("your hand is worth at least the unseen widow"),
  looksWorth: (f) => _("the widow looks worth {limit}", f),
  notWorth: () => _("the widow is not worth the price"),
  worthChips: (f) => _("the widow is worth about {worth} chips", f),
};

const SPARE_HAND = {
  count: (n) => ngettext("Spare hand: {n} card", "Spare hand: {n} cards", n),
  takenBy: (f) => ngettext("Spare hand ({n} card): {name} took it", "Spare hand ({n} cards): {name} took it", f.n, f),
  take: () => _("Take the spare hand"),
  takeAction: () => _("take the spare hand"),
  gave: () => _("You gave the spare hand:"),
  bidLabel: () => _("Bid for the spare hand"),
  dealerBlockedOptional: () => _("You deal, and you hold a pay card: you may not take the spare hand. Keep your hand, and auction the spare hand or not."),
  dealerBlocked: () => _("You deal, and you hold a pay card: you may not take the spare hand. Keep your hand when you are ready."),
  dealerOptional: (n) => ngettext("You deal. Keep your hand (and auction the spare hand, or not), or exchange it unseen for the spare hand ({n} card).", "You deal. Keep your hand (and auction the spare hand, or not), or exchange it unseen for the spare hand ({n} cards).", n),
  dealer: (n) => ngettext("You deal. Keep your hand, or exchange it unseen for the spare hand ({n} card).", "You deal. Keep your hand, or exchange it unseen for the spare hand ({n} cards).", n),
  highOpen: (f) => _("Spare hand auction: high bid {bid} by {name}. Raise it or pass (you may bid again if someone outbids it).", f),
  high: (f) => _("Spare hand auction: high bid {bid} by {name}. Raise it or pass (a pass is final).", f),
  firstOpen: () => _("Spare hand auction: bid for the spare hand, or pass (you may bid again if someone bids)."),
  first: () => _("Spare hand auction: bid for the spare hand, or pass (a pass is final)."),
  blocked: () => _("You hold a pay card: you may not bid for the spare hand. Pass when you are ready."),
  highCannot: (f) => _("Spare hand auction: high bid {bid} by {name}, and you cannot bid more. Pass when you are ready.", f),
  cannot: () => _("You cannot bid for the spare hand. Pass when you are ready."),
  worthMore: (f) => _("the spare hand is worth about {amount} more than your hand", f),
  worthLess: () => _("your hand is worth at least the unseen spare hand"),
  looksWorth: (f) => _("the spare hand looks worth {limit}", f),
  notWorth: () => _("the spare hand is not worth the price"),
  worthChips: (f) => _("the spare hand is worth about {worth} chips", f),
};

const DEAD_HAND = {
  count: (n) => ngettext("Dead hand: {n} card", "Dead hand: {n} cards", n),
  takenBy: (f) => ngettext("Dead hand ({n} card): {name} took it", "Dead hand ({n} cards): {name} took it", f.n, f),
  take: () => _("Take the dead hand"),
  takeAction: () => _("take the dead hand"),
  gave: () => _("You gave the dead hand:"),
  bidLabel: () => _("Bid for the dead hand"),
  dealerBlockedOptional: () => _("You deal, and you hold a pay card: you may not take the dead hand. Keep your hand, and auction the dead hand or not."),
  dealerBlocked: () => _("You deal, and you hold a pay card: you may not take the dead hand. Keep your hand when you are ready."),
  dealerOptional: (n) => ngettext("You deal. Keep your hand (and auction the dead hand, or not), or exchange it unseen for the dead hand ({n} card).", "You deal. Keep your hand (and auction the dead hand, or not), or exchange it unseen for the dead hand ({n} cards).", n),
  dealer: (n) => ngettext("You deal. Keep your hand, or exchange it unseen for the dead hand ({n} card).", "You deal. Keep your hand, or exchange it unseen for the dead hand ({n} cards).", n),
  highOpen: (f) => _("Dead hand auction: high bid {bid} by {name}. Raise it or pass (you may bid again if someone outbids it).", f),
  high: (f) => _("Dead hand auction: high bid {bid} by {name}. Raise it or pass (a pass is final).", f),
  firstOpen: () => _("Dead hand auction: bid for the dead hand, or pass (you may bid again if someone bids)."),
  first: () => _("Dead hand auction: bid for the dead hand, or pass (a pass is final)."),
  blocked: () => _("You hold a pay card: you may not bid for the dead hand. Pass when you are ready."),
  highCannot: (f) => _("Dead hand auction: high bid {bid} by {name}, and you cannot bid more. Pass when you are ready.", f),
  cannot: () => _("You cannot bid for the dead hand. Pass when you are ready."),
  worthMore: (f) => _("the dead hand is worth about {amount} more than your hand", f),
  worthLess: () => _("your hand is worth at least the unseen dead hand"),
  looksWorth: (f) => _("the dead hand looks worth {limit}", f),
  notWorth: () => _("the dead hand is not worth the price"),
  worthChips: (f) => _("the dead hand is worth about {worth} chips", f),
};

const BY_KIND = { widow: WIDOW, "spare hand": SPARE_HAND, "dead hand": DEAD_HAND };

/** The sentence `key` about the spare hand of `layout` (the drawn board's, when not
 * given), with `arg` (a count, or the fields of the sentence). */
export function spareText(key, arg = undefined, layout = undefined) {
  return BY_KIND[spareKind(layout)][key](arg);
}
