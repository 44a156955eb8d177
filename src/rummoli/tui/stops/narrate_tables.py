"""The narrator's tables: why a run stopped, which line each kind of event goes on, and
the words that open a line (:mod:`.narrate` says the events with them).

Apart from the narrator so that adding an event or a game's word is one entry here, read
at a glance, and the narrator stays the sentences.
"""

from __future__ import annotations

from rummoli.i18n import N_

#: Why a run stopped, after its last card (the engine's "stop" event says it).
STOP_REASONS = {
    "ace": N_("an ace ends its suit"),
    "laid": N_("the next card was laid before"),
    "widow": N_("the next card is in the widow"),
    "dead hand": N_("the next card is in the dead hand"),
    "spare hand": N_("the next card is in the spare hand"),
    "talon": N_("the next card is in the talon"),
    "removed": N_("the next card is not in the pack"),
    "turned": N_("the next card was turned for trumps"),
    "king": N_("a king ends its suit"),
    "nobody": N_("nobody holds the next rank"),
    "sequence_king": N_("a king ends the sequence"),
}

#: The sentences of chips won, by what was won: one player's (the human's, with
#: ``{you}``; another's, with ``{name}``) and several players' (split, ``{names}``).
WON = {
    "poker space": (
        N_("{you} take the poker space: {chips}"),
        N_("{name} takes the poker space: {chips}"),
        N_("{names} split the poker space: {share} each"),
    ),
    "side pot": (
        N_("{you} take side pot {pot}: {chips}"),
        N_("{name} takes side pot {pot}: {chips}"),
        N_("{names} split side pot {pot}: {share} each"),
    ),
    "board": (
        N_("{you} take the board: {chips}"),
        N_("{name} takes the board: {chips}"),
        N_("{names} split the board: {chips}"),
    ),
    "space": (
        N_("{you} take space {space}: {chips}"),
        N_("{name} takes space {space}: {chips}"),
        N_("{names} split space {space}: {chips}"),
    ),
}

# The line each kind of event belongs to; a new group starts a new line.
GROUPS: dict[str, str] = {
    "cut": "cut",
    "dealer": "deal",
    "ante": "deal",
    "widow_dealt": "deal",
    "stake": "stake",
    "turned": "deal",
    "turn_pays": "deal",
    "deal_ends": "deal",
    "claim": "claims",
    "out": "out",
    "blocked": "widow",
    "keep": "widow",
    "exchange": "widow",
    "pass": "widow",
    "bid": "widow",
    "no_bid": "widow",
    "widow_dead": "widow",
    "bought": "widow",
    "check": "bet",
    "call": "bet",
    "raise": "bet",
    "fold": "bet",
    "returned": "bet",
    "show": "showdown",
    "show_set": "showdown",
    "unopened": "pot",
    "poker_pot": "pot",
    "leads": "pot",
    "lay": "run",
    "space": "run",
    "unclaimed": "run",
    "stop": "run",
    "sans": "run",
    "duty_passes": "duty",
    "deadlock_continue": "duty",
    "deadlock": "deadlock",
    "deadlock_pays": "deadlock",
    "round_won": "won",
    "grand_opera": "won",
    "pays": "won",
    "held_pays": "won",
    "settle_cut": "settle",
    "settle_hand": "settle_hands",
    "settled": "settled",
}

# Groups whose every event gets a line of its own.
ONE_PER_LINE = ("settle", "settled", "out")
# Groups whose entries are packed side by side, as many to a line as fit: a showdown of
# eight hands takes four lines, not eight, so it fits a 24-line screen with the table.
PACKED = {"showdown": N_("Showdown: "), "settle_hands": N_("Settlement: ")}

PREFIX = {
    "cut": N_("Cut for the deal: "),
    "stake": N_("Stakes: "),
    "claims": N_("Held: "),
    "widow": N_("Widow: "),
    "dead hand": N_("Dead hand: "),
    "spare hand": N_("Spare hand: "),
    "talon": N_("Talon: "),
    "bet": N_("Poker: "),
    "deadlock": N_("Deadlock: "),
}
