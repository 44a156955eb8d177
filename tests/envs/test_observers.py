"""OpenSpiel's observers honour ``public_info`` and ``private_info``: a public view is the
same across twin deals (every card nobody may see moved), a private one holds the seat's
own cards, the pieces are named, and the strings split the same way."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from helpers import permute_hidden, some_decisions

from rummoli.envs.adapters import adapter_for
from rummoli.envs.openspiel import SpielState
from rummoli.envs.table import Table

NONE = pyspiel.PrivateInfoType.NONE
SINGLE = pyspiel.PrivateInfoType.SINGLE_PLAYER
CASES = [("rummoli", {"players": 3, "poker": "showdown"}), ("rummoli", {}), ("rummy", {})]


def _observer(game: pyspiel.Game, recall: bool, public: bool, private: object) -> object:
    kind = pyspiel.IIGObservationType(
        perfect_recall=recall, public_info=public, private_info=private
    )
    return game.make_py_observer(kind)


def _views(observer: object, state: SpielState, seat: int) -> tuple[bytes, str]:
    observer.set_from(state, seat)  # type: ignore[attr-defined]
    return observer.tensor.tobytes(), observer.string_from(state, seat)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("game_name", "params"), CASES)
@pytest.mark.parametrize("recall", [False, True])
def test_public_views_are_the_same_across_twin_deals(
    game_name: str, params: dict, recall: bool
) -> None:
    adapter = adapter_for(game_name)
    game = pyspiel.load_game(f"python_{adapter.env_name}", params)
    public = _observer(game, recall, True, NONE)
    private = _observer(game, recall, False, SINGLE)
    rng = random.Random(4)
    private_changed = 0
    tables = some_decisions(game_name, params, rng, 25)
    for table in tables:
        table = Table.replay(game.config, table.history)  # the game's settings
        state = SpielState(game, table)
        for seat in range(table.num_players):
            # Seat ``seat``'s twin: every card it cannot see moved. Every other seat's
            # public view is the same too: the public part is what every seat sees.
            twin = SpielState(game, permute_hidden(table, seat, rng))
            for viewer in range(table.num_players):
                assert _views(public, twin, viewer) == _views(public, state, viewer)
            assert _views(private, twin, seat) == _views(private, state, seat)
            other = (seat + 1) % table.num_players
            private_changed += _views(private, twin, other) != _views(private, state, other)
    assert private_changed, "no twin deal ever changed another seat's private view"


@pytest.mark.parametrize(("game_name", "params"), CASES)
def test_the_views_split_the_tensor_into_named_public_and_private_pieces(
    game_name: str, params: dict
) -> None:
    adapter = adapter_for(game_name)
    game = pyspiel.load_game(f"python_{adapter.env_name}", params)
    table = some_decisions(game_name, params, random.Random(2), 1)[0]
    state = SpielState(game, Table.replay(game.config, table.history))
    seat = table.current_player()
    for recall in (False, True):
        whole = _observer(game, recall, True, SINGLE)
        public = _observer(game, recall, True, NONE)
        private = _observer(game, recall, False, SINGLE)
        nothing = _observer(game, recall, False, NONE)
        for observer in (whole, public, private, nothing):
            observer.set_from(state, seat)  # type: ignore[attr-defined]
        assert set(public.dict).isdisjoint(adapter.private_fields)  # type: ignore[attr-defined]
        assert set(private.dict) <= adapter.private_fields  # type: ignore[attr-defined]
        assert "hand" in private.dict and "hand" not in public.dict  # type: ignore[attr-defined]
        assert len(public.tensor) + len(private.tensor) == len(whole.tensor)  # type: ignore[attr-defined]
        assert len(nothing.tensor) == 0 and nothing.string_from(state, seat) == ""  # type: ignore[attr-defined]
        for name, piece in {**public.dict, **private.dict}.items():  # type: ignore[attr-defined]
            np.testing.assert_array_equal(piece, whole.dict[name])  # type: ignore[attr-defined]
        hand = private.dict["hand"]  # type: ignore[attr-defined]
        held = table.engine.observation(seat).hand  # type: ignore[union-attr]
        assert np.flatnonzero(hand).tolist() == [c for c in range(52) if held >> c & 1]
        # The default observer is the whole observation, as OpenSpiel's tensors.
        if not recall:
            np.testing.assert_array_equal(whole.tensor, state.observation_tensor(seat))  # type: ignore[attr-defined]
        else:
            np.testing.assert_array_equal(whole.tensor, state.information_state_tensor(seat))  # type: ignore[attr-defined]
        text = private.string_from(state, seat)  # type: ignore[attr-defined]
        public_text = public.string_from(state, seat)  # type: ignore[attr-defined]
        assert "hand: " in text and "hand: " not in public_text


def test_every_players_private_information_is_refused_by_name() -> None:
    game = pyspiel.load_game("python_rummoli")
    with pytest.raises(ValueError, match="ALL_PLAYERS"):
        _observer(game, False, True, pyspiel.PrivateInfoType.ALL_PLAYERS)


def test_the_observation_string_is_text_a_person_reads() -> None:
    game = pyspiel.load_game("python_rummoli(players=3)")
    table = some_decisions("rummoli", {"players": 3}, random.Random(3), 1)[0]
    state = SpielState(game, Table.replay(game.config, table.history))
    text = state.observation_string(0)
    assert "{" not in text and '"' not in text  # not JSON
    lines = text.split("\n")
    assert lines[0].startswith("Rummoli: play")
    assert any(line.startswith("hand: ") for line in lines)
    hand = next(line for line in lines if line.startswith("hand: "))
    assert all(len(card) == 2 for card in hand.removeprefix("hand: ").split())
