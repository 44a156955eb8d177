"""Drawing a deal's cards for the environments' fast path: ``random.Random.sample``'s own
draws, in compiled code.

Why: an environment's ``reset`` draws a whole deal (all 52 cards for Rummoli, whose
rounds are a few decisions long), and ``random.Random.sample`` spends most of that time
in its Python-level helper, one call per card. :func:`sample` makes the very same draws
from the generator's ``getrandbits`` (so a seed gives the same deal as before, and as
``sample`` would), in a module mypyc compiles (standard library only). It covers the case
the deals are: ``k`` of ``n`` cards with ``k`` large enough that ``sample`` takes them
from a pool (a test compares the two); anything else is handed to ``sample`` itself.
"""

from __future__ import annotations

import random
from math import ceil, log


def _below(rng: random.Random, n: int) -> int:
    """``rng._randbelow(n)`` for a ``random.Random``: a whole number in ``[0, n)``."""
    bits = n.bit_length()
    r: int = rng.getrandbits(bits)
    while r >= n:
        r = rng.getrandbits(bits)
    return r


def sample(rng: random.Random, population: list[int], k: int) -> list[int]:
    """``rng.sample(population, k)``: the same cards, in the same order."""
    n = len(population)
    setsize = 21
    if k > 5:
        setsize += 4 ** ceil(log(k * 3, 4))
    if type(rng) is not random.Random or not 0 <= k <= n or n > setsize:
        return rng.sample(population, k)
    pool = population[:]
    result: list[int] = []
    for i in range(k):
        j = _below(rng, n - i)
        result.append(pool[j])
        pool[j] = pool[n - i - 1]
    return result
