"""The spread of timed samples as the bench scripts print it: median, 90th percentile
(the sample a tenth of the way down from the top, no interpolation) and maximum.

Run as ``python bench/<script>.py``, a script finds this module beside it.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable


def spread(samples: Iterable[float]) -> tuple[int, float, float, float]:
    """How many samples, and their median, 90th percentile and maximum (at least one
    sample)."""
    ordered = sorted(samples)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return len(ordered), statistics.median(ordered), p90, ordered[-1]
