"""What a Rummoli table shows, rebuilt from a finished game's record, for the in-process
and the browser tests alike: the game step by step as the table showed it (a pass forced
by a pay card as a turn of its own), and frames with their ranges of bids and raises
written out, to compare with the engine's own views."""

from __future__ import annotations

from typing import Any

from rummoli.engine.base import Event
from rummoli.games.rummoli import Rules, RummoliState
from rummoli.games.stops.setup import setup_from_dict

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


def card_steps(before: RummoliState, action: int) -> list[tuple[list[Event], RummoliState]]:
    """``before --action-->`` one laid card at a time, as the engine lays them when it
    lays card by card (written apart from the server's ``rummoli.web.runs``): each
    step's events and a copy of the state after them."""
    state = before.clone()
    state.card_by_card = True
    steps = [(state.apply(action), state.clone())]
    while state.paused:
        steps.append((state.apply(state.options[0]), state.clone()))
    return steps


class Shown:
    """The game as a table shows it at one step: a state, and the seat (if any) taking
    a forced turn there, whose only choice is ``forced``. Reads like the state.

    ``steps``: when the action that led here was shown card by card, the steps before
    the last, each ``(its events, the state after them)``; empty otherwise."""

    def __init__(
        self,
        state: RummoliState,
        forced: tuple[int, int] | None = None,
        steps: list[tuple[list[Event], RummoliState]] | None = None,
    ) -> None:
        self.state = state
        self.forced = forced
        self.steps = steps or []

    def step_view(self, index: int, seat: int | None) -> Frame:
        """The view of ``seat`` at step ``index`` of :attr:`steps`: nobody to move."""
        view = self.steps[index][1].view(seat)
        view["to_move"] = None
        view.pop("legal_actions", None)
        return view

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

    from rummoli.games.stops import actions as act
    from rummoli.games.stops.constants import WIDOW

    rules = Rules.from_dict(record["rules"])
    setup = setup_from_dict(record["setup"], rules.starting_chips)
    real = RummoliState(rules, setup, record["seed"])
    copy = RummoliState(replace(rules, pay_card_blocks_exchange=False), setup, record["seed"])
    states: list[Any] = [Shown(copy.clone())]
    events: list[list[Event]] = [[]]

    def play(action: int) -> tuple[list[Event], list[tuple[list[Event], RummoliState]]]:
        steps = card_steps(copy, action)
        shown = copy.apply(action)
        assert [e for events, _ in steps for e in events] == shown
        return shown, steps[:-1] if len(steps) > 1 else []

    for action in record["actions"]:
        happened = real.apply(action)
        blocked = [e for e in happened if e[0] == "blocked"]
        shown, steps = play(action)
        while copy.view(None) != real.view(None):
            seat = copy.current_player()
            mine = [e for e in blocked if e[1] == seat]
            assert mine, "the copy asks a seat the rule did not block"
            forced = act.KEEP if copy.phase == WIDOW else act.PASS
            events.append([*shown, mine[0]])
            states.append(Shown(copy.clone(), (seat, forced), steps))
            shown, steps = play(forced)
        events.append(shown)
        states.append(Shown(copy.clone(), None, steps))
    return states, events


__all__ = ["Shown", "card_steps", "expanded", "shown_reference"]
