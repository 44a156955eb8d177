"""The bots' generator: the same numbers on every Python version, and figures pinned.

Python's ``random.Random`` guarantees only its ``random()`` sequence across versions, so
the bots draw from :class:`rummoli.engine.rng.SeededRandom`, whose every step is integer
arithmetic written in the project. These tests pin its numbers and a few simulation
figures for a fixed seed: a change to any bot's use of randomness, or to the generator,
shows here as a changed number (update the pins only on purpose, and say why).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from rummoli.engine.rng import SeededRandom
from rummoli.games.registry import describe
from rummoli.sim.game import simulation_part
from rummoli.sim.runner import run
from rummoli.sim.spec import ROUNDS, SimSpec

SRC = Path(__file__).resolve().parents[1] / "src" / "rummoli"
M32 = 0xFFFFFFFF


def reference_xoshiro128pp(state: list[int], count: int) -> list[int]:
    """xoshiro128++ as its authors' C reads (uint32_t arithmetic), written independently."""

    def rotl(x: int, k: int) -> int:
        return ((x << k) | (x >> (32 - k))) & M32

    s = state[:]
    out = []
    for _ in range(count):
        out.append((rotl((s[0] + s[3]) & M32, 7) + s[0]) & M32)
        t = (s[1] << 9) & M32
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 11)
    return out


def test_the_generator_is_xoshiro128pp() -> None:
    rng = SeededRandom(0)
    state = [rng._s0, rng._s1, rng._s2, rng._s3]
    assert [rng.next32() for _ in range(50)] == reference_xoshiro128pp(state, 50)
    # The published first output for the state (1, 2, 3, 4): rotl(1 + 4, 7) + 1.
    assert reference_xoshiro128pp([1, 2, 3, 4], 1) == [641]


def test_pinned_numbers_for_fixed_seeds() -> None:
    rng = SeededRandom(0)
    assert [rng.next32() for _ in range(4)] == [186209838, 2791913456, 1129268389, 3993707367]
    rng = SeededRandom(12345)
    assert [rng.below(10) for _ in range(10)] == [6, 1, 4, 0, 7, 0, 1, 5, 3, 5]
    assert rng.below(10**12) == 186706175165
    assert rng.random() == 0.9529610511290219
    items = list(range(10))
    SeededRandom(7).shuffle(items)
    assert items == [7, 1, 9, 4, 2, 0, 8, 6, 3, 5]
    assert SeededRandom(7).choice("abcdef") == "d"


def test_draws_are_uniform_and_in_range() -> None:
    rng = SeededRandom(3)
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(abs(n - 10_000) < 500 for n in counts.values()), counts
    big = [rng.below(3 << 40) for _ in range(2000)]
    assert all(0 <= b < 3 << 40 for b in big) and max(big) > 2 << 40
    floats = [rng.random() for _ in range(20_000)]
    assert all(0.0 <= f < 1.0 for f in floats)
    assert abs(sum(floats) / len(floats) - 0.5) < 0.01
    assert all(rng.randrange(5, 8) in (5, 6, 7) for _ in range(100))


def test_bad_bounds_are_refused() -> None:
    rng = SeededRandom(1)
    with pytest.raises(ValueError, match="at least 1"):
        rng.below(0)
    with pytest.raises(ValueError, match="empty range"):
        rng.randrange(3, 3)
    with pytest.raises(IndexError, match="empty"):
        rng.choice([])


def test_no_bot_or_simulation_module_uses_pythons_random() -> None:
    """Every random choice of a bot or of the simulator comes from the project's
    generator: no module of theirs imports ``random``."""
    offenders = []
    for folder in ("bots", "sim"):
        for path in sorted((SRC / folder).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            if re.search(r"^\s*(import random\b|from random import)", text, re.MULTILINE):
                offenders.append(str(path.relative_to(SRC)))
    assert offenders == []


def _figures(game: str, bots: tuple[str, ...], total: int) -> dict[str, object]:
    spec = SimSpec(bots, describe(game).rules({}), ROUNDS, total, 2024, False, 6, False, game)
    figures: dict[str, object] = simulation_part(game).summarize(run(spec), spec)
    return figures


def _totals(figures: dict[str, object], key: str) -> list[int]:
    """Each bot's total (mean times count: whole chips or points, exact)."""
    bots = figures["bots"]
    assert isinstance(bots, list)
    return [round(b[key]["mean"] * b[key]["n"]) for b in bots]


def test_pinned_rummoli_figures_for_a_fixed_seed() -> None:
    """A random, two basic and a strong bot (all three use the generator: choices, ties,
    sampled deals, wild opponents), 12 rounds in two chunks."""
    figures = _figures("rummoli", ("random", "basic", "strong", "basic"), 12)
    assert figures["rounds"] == 12
    assert _totals(figures, "chips_per_round") == PINNED_RUMMOLI


def test_pinned_rummy_figures_for_a_fixed_seed() -> None:
    figures = _figures("rummy", ("random", "basic"), 20)
    assert figures["hands"] == 20
    assert _totals(figures, "points_per_hand") == PINNED_RUMMY


#: Chips won over the 12 rounds by random, basic#1, strong, basic#2 (seed 2024).
PINNED_RUMMOLI = [-182, -137, 220, 12]
#: Points over the 20 hands by random and basic (seed 2024).
PINNED_RUMMY = [0, 908]
