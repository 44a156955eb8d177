"""The Stops family's part of the learning environments, written once for every game.

Every game of the family (Rummoli, Michigan, Tripoley, and any other whose description
plays the family's engine) is played by one state and read through one observation, so
one adapter serves them all: :class:`.adapter.StopsAdapter`, made for a game by its
registry name. A new family game gets its OpenSpiel, PettingZoo and Gymnasium
environments by declaring its description and nothing more
(:func:`rummoli.envs.adapters.adapter_for` recognises a family game by its rules
object, which makes the family's :class:`~rummoli.games.stops.layout.Layout`).

- :mod:`.adapter`: the adapter (deal, carry, returns, bounds, compact actions);
- :mod:`.features`: the observation tensor as numpy-free features (compiled by mypyc);
- :mod:`.resample`: resampling a round's hidden cards with the bots' sampler.

This module imports none of them: the compiled features must import without numpy.
"""
