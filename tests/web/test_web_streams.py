"""Seeds nobody can foresee (issue 22): a table's computers, stand-ins and hints each draw
from a stream derived from the whole secret seed by a keyed hash, never by arithmetic.

Before, each computer was seeded with ``(seed * 31 + seat) mod 2**32``: its public bids
narrowed the deck's seed to a search of 2**32. The tests below would fail on that."""

from __future__ import annotations

import random
from pathlib import Path

from webtools import create_table, room, server

from rummoli.engine.rng import SeededRandom
from rummoli.web.security import new_seed, stream_seed


def _first_draws(seed: int, purpose: str, count: int = 2) -> tuple[int, ...]:
    rng = SeededRandom(stream_seed(seed, purpose))
    return tuple(rng.next32() for _ in range(count))


def test_the_tables_computers_draw_from_the_keyed_streams(tmp_path: Path) -> None:
    """The room's own computers and stand-ins (not only the function) use these streams."""
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "basic", "strong"], public=True)
        the_room = room(client, table)
        for seat, purpose in ((1, "computer:1"), (2, "computer:2"), (0, "standin:0")):
            bot = the_room._bot(seat)
            expected = SeededRandom(stream_seed(the_room.seed, purpose))
            got = bot._rng  # type: ignore[attr-defined]
            assert [got.next32() for _ in range(8)] == [expected.next32() for _ in range(8)]


def test_a_computers_choices_depend_on_no_32_bit_value_of_the_seed() -> None:
    """If a computer's stream were a function of any 32-bit value computed from the seed
    (its low or high word, ``seed * 31 + seat`` masked, a sum, a fold...), then among
    2**18 seeds that value would repeat (about 8 times, by the birthday bound: all 2**18
    distinct has odds of e**-8) and with it the whole stream. Its first 64 bits never do."""
    rng = random.Random(22)
    seeds = [rng.getrandbits(62) for _ in range(1 << 18)]
    firsts = {_first_draws(s, "computer:1") for s in seeds}
    assert len(firsts) == len(set(seeds))


def test_seeds_alike_in_32_bits_give_unrelated_computers() -> None:
    """The attack's own case: seeds that agree in their low 32 bits (the old scheme gave
    their computers one stream) and seeds that agree in their high bits."""
    base = new_seed()
    low_alike = [base ^ (k << 32) for k in range(1, 200)]
    high_alike = [base ^ k for k in range(1, 200)]
    for others in (low_alike, high_alike):
        streams = {_first_draws(s, "computer:2") for s in [base, *others]}
        assert len(streams) == 1 + len(others)


def test_two_computers_streams_are_unrelated() -> None:
    """Two computers of one table (and the same seat's stand-in and hint): no stream is
    another shifted (no window of one appears in the other), and their bits agree about
    half the time, as unrelated streams do (a six-sigma band over 2**17 bits)."""
    seed = new_seed()
    count = 4096
    streams = {}
    for purpose in ("computer:1", "computer:2", "standin:1", "hint:1"):
        rng = SeededRandom(stream_seed(seed, purpose))
        streams[purpose] = [rng.next32() for _ in range(count)]
    names = list(streams)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            one, two = streams[a], streams[b]
            windows = {tuple(one[k : k + 2]) for k in range(count - 1)}
            assert not any(tuple(two[k : k + 2]) in windows for k in range(count - 1)), (a, b)
            agree = sum(32 - bin(x ^ y).count("1") for x, y in zip(one, two, strict=True))
            bits = 32 * count
            sigma = (bits / 4) ** 0.5
            assert abs(agree - bits / 2) < 6 * sigma, (a, b, agree / bits)


def test_the_stream_is_a_function_of_the_seed_and_the_label() -> None:
    """Determinism: a resumed table gets its computers back (the same seed and label,
    the same stream); another label, another stream."""
    seed = new_seed()
    assert stream_seed(seed, "computer:1") == stream_seed(seed, "computer:1")
    assert stream_seed(seed, "computer:1") != stream_seed(seed, "computer:2")
    assert stream_seed(seed, "computer:1").bit_length() > 128
