"""Fixtures the storage tests of this folder share: one private PostgreSQL server per
test module (``pgserver.py``), started only by the modules that ask for it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A private PostgreSQL server for this module; skipped only where none can run."""
    from pgserver import Unavailable, postgres_server

    try:
        with postgres_server() as url:
            yield url
    except Unavailable as why:
        pytest.skip(f"PostgreSQL cannot run here: {why}")
