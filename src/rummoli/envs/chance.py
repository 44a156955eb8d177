"""Drawing a deal's cards for the environments' fast path: ``random.Random.sample``'s own
draws, in compiled code; and the seed a round's engine gets from the table's history
(written at every deal).

Why: an environment's ``reset`` draws a whole deal (all 52 cards for Rummoli, whose
rounds are a few decisions long), and ``random.Random.sample`` spends most of that time
in its Python-level helper, one call per card. :func:`sample` makes the very same draws
from the generator's ``getrandbits`` (so a seed gives the same deal as before, and as
``sample`` would), in a module mypyc compiles (standard library only). It covers the case
the deals are: ``k`` of ``n`` cards with ``k`` large enough that ``sample`` takes them
from a pool (a test compares the two); anything else is handed to ``sample`` itself.
"""

from __future__ import annotations

import hashlib
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


#: The text of the small numbers a history holds (cards, seats, most actions), made once:
#: :func:`history_seed` writes a whole deal's history at every round.
_NUMBER_TEXT = tuple(str(number) for number in range(2048))


def history_seed(history: list[int]) -> int:
    """The engine seed of a round: a function of the table's history, so that replaying
    the history (``deserialize``) rebuilds the same game, and different deals differ."""
    text = _NUMBER_TEXT
    data = ",".join([text[a] if 0 <= a < 2048 else str(a) for a in history]).encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")
