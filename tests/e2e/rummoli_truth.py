"""What a Rummoli table shows, rebuilt from a finished game's record, for the in-process
and the browser tests alike: the game step by step as the table showed it (a pass forced
by a pay card as a turn of its own), and frames with their ranges of bids and raises
written out, to compare with the engine's own views."""

from __future__ import annotations

from typing import Any

from rummoli.engine.base import Event
from rummoli.games.rummoli import Rules, RummoliState
from rummoli.games.rummoli.setup import setup_from_dict

Frame = dict[str, Any]


def expanded(value: Any) -> Any:
    """A frame with every range of legal actions (``{"kind": "bid", "min", "max",
    "step", "action"}``) written out as the engine lists them, one action per amount:
    so frames can be compared with the engine's own views."""
    if isinstance(value, list):
        return [expanded(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: expanded(v) for k, v in value.items()}
    legal = out.get("legal_actions")
    if isinstance(legal, list):
        items: list[Frame] = []
        for item in legal:
            if "kind" in item:
                for amount in range(item["min"], item["max"] + 1, item["step"]):
                    action = item["action"] + amount - item["min"]
                    items.append({"action": action, "text": f"{item['kind']} {amount}"})
            else:
                items.append(item)
        out["legal_actions"] = items
    return out


class Shown:
    """The game as a table shows it at one step: a state, and the seat (if any) taking
    a forced turn there, whose only choice is ``forced``. Reads like the state."""

    def __init__(self, state: RummoliState, forced: tuple[int, int] | None = None) -> None:
        self.state = state
        self.forced = forced

    def view(self, seat: int | None) -> Frame:
        view = self.state.view(seat)
        if self.forced is not None and seat == self.forced[0] and "legal_actions" in view:
            action = self.forced[1]
            view["legal_actions"] = [{"action": action, "text": self.state.action_to_text(action)}]
        return view

    def __getattr__(self, name: str) -> Any:
        return getattr(self.state, name)


def shown_reference(record: dict[str, Any]) -> tuple[list[Any], list[list[Event]]]:
    """What a table shows at each of its steps, rebuilt from a finished game's record,
    written apart from the server's own code: the real game and a copy with
    ``pay_card_blocks_exchange`` off run side by side; after each action, while the copy
    differs from the real game (a seat the rule blocked is asked in the copy), the
    blocked seat's forced keep or pass is one more shown step, its ``blocked`` event
    with the step that starts its turn."""
    from dataclasses import replace

    from rummoli.games.rummoli import actions as act
    from rummoli.games.rummoli.constants import WIDOW

    rules = Rules.from_dict(record["rules"])
    setup = setup_from_dict(record["setup"], rules.starting_chips)
    real = RummoliState(rules, setup, record["seed"])
    copy = RummoliState(replace(rules, pay_card_blocks_exchange=False), setup, record["seed"])
    states: list[Any] = [Shown(copy.clone())]
    events: list[list[Event]] = [[]]
    for action in record["actions"]:
        happened = real.apply(action)
        blocked = [e for e in happened if e[0] == "blocked"]
        shown = copy.apply(action)
        while copy.view(None) != real.view(None):
            seat = copy.current_player()
            mine = [e for e in blocked if e[1] == seat]
            assert mine, "the copy asks a seat the rule did not block"
            forced = act.KEEP if copy.phase == WIDOW else act.PASS
            events.append([*shown, mine[0]])
            states.append(Shown(copy.clone(), (seat, forced)))
            shown = copy.apply(forced)
        events.append(shown)
        states.append(Shown(copy.clone()))
    return states, events


__all__ = ["Shown", "expanded", "shown_reference"]
