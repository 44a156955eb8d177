"""What the human types at a Rummy turn, read into the engine's action ints, and back.

A Rummy turn has too many choices for a numbered menu (every card can be discarded, a
run of five holds six melds), so the human types them::

    s  stock  draw          draw the top card of the stock
    t  take                 take the top card of the discard pile
    meld 7H 8H 9H           lay down a meld (m for short; "meld" alone if there is one)
    lay 5C on 2             lay 5C off on meld #2 (l 5C 2; "lay 5C" if it fits one meld)
    d KS  discard KS        discard a card

Cards are written as anywhere in the project (``10S`` or ``TS``, any case, or with a suit
symbol); melds are numbered from 1 as on screen. The words become actions through the
Rummy action codec (:mod:`rummoli.games.rummy.actions`), and an action that is not legal
gets a reason worked out from the seat's view alone: what the player holds, the melds,
the card taken this turn. Nothing is applied until a legal action comes out.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, Final

from rummoli.cards import CardError, card_str, parse_card
from rummoli.engine.base import IllegalActionError
from rummoli.games.rummy import actions as act
from rummoli.games.rummy.melds import fit_mask, meld_cards
from rummoli.i18n import _, pgettext
from rummoli.i18n.sentences import error as error_text
from rummoli.tui.menu import command_words
from rummoli.tui.rummy.render import meld_number, symbols


class TableCommand(enum.Enum):
    """What may be typed at any Rummy prompt besides a move."""

    QUIT = "quit"
    HELP = "help"
    MOVES = "moves"
    HINT = "hint"
    END = "end"
    SAVE = "save"
    SORT = "sort"
    PILE = "pile"


#: At a Rummy prompt ``?`` lists the moves (``hint`` asks the hint bot).
COMMAND_WORDS: Final = command_words(TableCommand, TableCommand.MOVES)

_STOCK_WORDS = (["s"], ["stock"], ["draw"], ["draw", "stock"])
_TAKE_WORDS = (["t"], ["take"], ["draw", "discard"], ["take", "discard"])
_LAY_WORDS = ("l", "lay", "layoff")
_DISCARD_WORDS = ("d", "discard")
#: Words of the moves after the draw.
_PLAY_WORDS = ("m", "meld", *_LAY_WORDS, *_DISCARD_WORDS)


def _cards_text(texts: Sequence[str]) -> str:
    return " ".join(symbols(t) for t in texts)


def _mask(texts: Sequence[str]) -> int:
    mask = 0
    for text in texts:
        mask |= 1 << parse_card(text)
    return mask


def move_text(action: int, view: dict[str, Any]) -> str:
    """An action as the human would type it, cards with suit symbols: ``s (stock)``,
    ``t (take 9♥)``, ``meld 7♣ 8♣ 9♣``, ``lay 5♣ on 2``, ``d K♠``."""
    if action == act.DRAW_STOCK:
        return _("s (stock)")
    if action == act.DRAW_DISCARD:
        top = view["discard"][-1] if view["discard"] else None
        return _("t (take {card})").format(card=symbols(top)) if top else _("t (take)")
    if act.is_meld_action(action):
        return "meld " + " ".join(symbols(card_str(c)) for c in meld_cards(act.meld_of(action)))
    if act.is_layoff_action(action):
        card, slot = act.layoff_of(action)
        return _("lay {card} on {number}").format(card=symbols(card_str(card)), number=slot + 1)
    if act.is_discard_action(action):
        return f"d {symbols(card_str(act.discard_of(action)))}"
    return act.action_to_text(action)


def _card(word: str) -> int:
    try:
        return parse_card(word)
    except CardError:
        raise ValueError(
            _("{word} is not a card (cards look like 7H, 10S, QD, AC)").format(word=repr(word))
        ) from None


def parse_line(line: str, view: dict[str, Any], one_meld_per_turn: bool) -> int | TableCommand:
    """The legal action (or the command) ``line`` asks for, at the decision of ``view``.

    Raises ValueError with a message saying why it is not possible, or what was meant to be
    typed; the message never names a card the seat cannot see.
    """
    words = line.replace(",", " ").lower().split()
    if not words:
        raise ValueError(_prompt_hint(view))
    if len(words) == 1 and words[0] in COMMAND_WORDS:
        return COMMAND_WORDS[words[0]]
    legal = [entry["action"] for entry in view["legal_actions"]]
    if view["phase"] == "draw" and words[0] in _PLAY_WORDS and words != ["discard"]:
        raise ValueError(why_not(act.DISCARD_BASE, view, legal, one_meld_per_turn))
    action = _action(words, view, legal)
    if action not in legal:
        raise ValueError(why_not(action, view, legal, one_meld_per_turn))
    return action


def _action(words: list[str], view: dict[str, Any], legal: Sequence[int]) -> int:
    """The action the words name, legal or not (the caller checks)."""
    drawing = view["phase"] == "draw"
    if words in _STOCK_WORDS:
        return act.DRAW_STOCK
    if words in _TAKE_WORDS or (drawing and words == ["discard"]):
        return act.DRAW_DISCARD
    if words[:2] == ["lay", "off"]:
        words = ["lay", *words[2:]]
    head, rest = words[0], words[1:]
    if head in _DISCARD_WORDS:
        if len(rest) != 1:
            raise ValueError(_("discard one card, e.g. d KS"))
        return act.discard_action(_card(rest[0]))
    if head in ("m", "meld"):
        return _meld(rest, view, legal)
    if head in _LAY_WORDS:
        return _lay_off(rest, view, legal)
    if len(words) == 1:
        try:
            parse_card(head)
        except CardError:
            pass
        else:
            raise ValueError(
                _(
                    "what to do with {card}? d {card} discards it, lay {card} lays it off, "
                    "meld ... melds it"
                ).format(card=head.upper())
            )
    moved = _("{words} is not a move.").format(words=repr(" ".join(words)))
    raise ValueError(f"{moved} {_prompt_hint(view)}")


def _meld(rest: list[str], view: dict[str, Any], legal: Sequence[int]) -> int:
    if not rest:
        melds = [a for a in legal if act.is_meld_action(a)]
        if len(melds) == 1:
            return melds[0]
        if not melds:
            raise ValueError(_("you have no meld to lay down now"))
        some = ", ".join(move_text(a, view) for a in melds[:4])
        more = " ..." if len(melds) > 4 else ""
        raise ValueError(_("which meld? Name its cards: {melds}").format(melds=some + more))
    try:
        return act.action_from_text("meld " + " ".join(rest))
    except IllegalActionError as error:
        message = str(error)
        if "is not a meld" in message:
            message = _(
                "those cards are not a meld: a meld is 3 or 4 cards of one rank, or 3 or "
                "more cards of one suit in sequence, aces low (A-2-3 yes, Q-K-A no)"
            )
        raise ValueError(error_text(message)) from None


def _lay_off(rest: list[str], view: dict[str, Any], legal: Sequence[int]) -> int:
    if rest[1:2] == ["on"] or rest[1:2] == [pgettext("typed word", "on").lower()]:
        rest = [rest[0], *rest[2:]]
    if not rest or len(rest) > 2:
        raise ValueError(_("lay off one card on a meld, e.g. lay 5C on 2"))
    card = _card(rest[0])
    if len(rest) == 2:
        number = rest[1].lstrip("#")
        count = len(view["melds"])
        if not number.isdigit() or not 1 <= int(number) <= count:
            if count > 1:
                table = _("the table has melds #1 to #{count}").format(count=count)
            elif count:
                table = _("the table has meld #1")
            else:
                table = _("the table has no meld")
            raise ValueError(
                _("there is no meld {number} ({table})").format(number=rest[1], table=table)
            )
        return act.layoff_action(card, int(number) - 1)
    choices = [a for a in legal if act.is_layoff_action(a) and act.layoff_of(a)[0] == card]
    if len(choices) == 1:
        return choices[0]
    text = symbols(card_str(card))
    if len(choices) > 1:
        numbers = _(" or ").join(str(act.layoff_of(a)[1] + 1) for a in choices)
        raise ValueError(
            _("{card} fits more than one meld: say which, lay {card} on {numbers}").format(
                card=text, numbers=numbers
            )
        )
    fitting = [s for s, meld in enumerate(view["melds"]) if fit_mask(_mask(meld)) >> card & 1]
    if fitting or view["phase"] == "draw":
        # Not legal (the last-card rule, or no draw yet): why_not says which.
        return act.layoff_action(card, fitting[0] if fitting else 0)
    if card_str(card) not in view["hand"]:
        raise ValueError(_("you do not hold {cards}").format(cards=text))
    if not view["melds"]:
        raise ValueError(_("there is no meld on the table to lay off on"))
    raise ValueError(_("{card} fits no meld on the table").format(card=text))


def why_not(
    action: int, view: dict[str, Any], legal: Sequence[int], one_meld_per_turn: bool
) -> str:
    """Why ``action`` is not legal at this decision, from the seat's view alone."""
    hand = {parse_card(c) for c in view["hand"]}
    taken = view["taken_discard"]
    if view["phase"] == "draw":
        if action == act.DRAW_DISCARD:
            return _("the discard pile is empty: draw from the stock (s)")
        top = view["discard"][-1] if view["discard"] else None
        if top and act.DRAW_DISCARD in legal:
            return _("draw first: s for the stock or t to take {card}").format(card=symbols(top))
        return _("draw first: s for the stock")
    if action in (act.DRAW_STOCK, act.DRAW_DISCARD):
        return _("you have already drawn this turn")
    last_card = (
        _(
            "that would leave you only {card}, taken from the discard pile this turn: "
            "you could neither discard it nor lay it off"
        ).format(card=symbols(taken))
        if taken
        else _("not allowed now")
    )
    if act.is_discard_action(action):
        card = act.discard_of(action)
        if card not in hand:
            return _("you do not hold {cards}").format(cards=symbols(card_str(card)))
        return _(
            "you took {card} from the discard pile this turn: "
            "you may not discard it before your next turn"
        ).format(card=symbols(card_str(card)))
    if act.is_meld_action(action):
        cards = meld_cards(act.meld_of(action))
        missing = [card_str(c) for c in cards if c not in hand]
        if missing:
            return _("you do not hold {cards}").format(cards=_cards_text(missing))
        if one_meld_per_turn and not any(act.is_meld_action(a) for a in legal):
            return _("one meld a turn (house rule one_meld_per_turn): you have melded already")
        return last_card
    card, slot = act.layoff_of(action)
    text = symbols(card_str(card))
    if card not in hand:
        return _("you do not hold {cards}").format(cards=text)
    melds = view["melds"]
    if slot >= len(melds):
        return _("there is no meld {number} on the table").format(number=meld_number(slot))
    if not fit_mask(_mask(melds[slot])) >> card & 1:
        fitting = [s for s, meld in enumerate(melds) if fit_mask(_mask(meld)) >> card & 1]
        values = {
            "card": text,
            "number": meld_number(slot),
            "meld": _cards_text(melds[slot]),
        }
        if fitting:
            return _("{card} does not fit {number} ({meld}); it fits {other}").format(
                other=meld_number(fitting[0]), **values
            )
        return _("{card} does not fit {number} ({meld}), nor any other meld").format(**values)
    return last_card


def _prompt_hint(view: dict[str, Any]) -> str:
    if view["phase"] == "draw":
        return _("Type s (stock) or t (take the discard), or h for help.")
    return _("Type meld CARDS, lay CARD on N, d CARD, or h for help.")
