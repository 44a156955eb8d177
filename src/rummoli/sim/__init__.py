"""Simulation at scale: many rounds, hands or games between bots, and what the rules do.

- :mod:`.spec`: what to play (:class:`SimSpec`) and its fixed chunks with derived seeds;
- :mod:`.play`: the hot loop that plays one chunk and tallies each round's events;
- :mod:`.stats`: integer accumulators that merge exactly (so workers never change a figure);
- :mod:`.runner`: the backends (this process, a process pool, Ray) and the merger;
- :mod:`.figures`: every figure as JSON-ready data; :mod:`.report`, :mod:`.plots` and
  :mod:`.tables` show them as rich tables, PNG charts and Markdown;
- :mod:`.command`: ``rummoli simulate`` (progress bar, Ctrl-C, output files).

Basic Rummy (``--game rummy``) has its own loop and figures beside Rummoli's, on the same
spec, chunks, backends and command: :mod:`.rummy_play`, :mod:`.rummy_stats`,
:mod:`.rummy_figures` and :mod:`.rummy_report`.
"""

from rummoli.sim.runner import run
from rummoli.sim.spec import GAMES, ROUNDS, SimSpec
from rummoli.sim.stops.figures import summarize
from rummoli.sim.stops.stats import SimStats

__all__ = ["GAMES", "ROUNDS", "SimSpec", "SimStats", "run", "summarize"]
