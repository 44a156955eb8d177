"""Rummoli's part of the learning environments: the Stops family's adapter
(:mod:`rummoli.envs.stops`) made for Rummoli, which the environments find by name.

Rummoli needs nothing of its own here: its differences from the other games of the
family are in its description and layout, which the family's adapter reads.
"""

from __future__ import annotations

from rummoli.envs.stops.adapter import StopsAdapter

ADAPTER = StopsAdapter("rummoli")
