"""Reading game records: the part every game shares (JSON in, an object out)."""

from __future__ import annotations

import json
from typing import Any

from rummoli.engine.base import SetupError


def record_object(record: object) -> dict[str, Any]:
    """A record given as JSON text, bytes or an already parsed object, as a dict;
    anything else is a :class:`SetupError` naming the problem."""
    if isinstance(record, str | bytes):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as error:
            raise SetupError(f"the record is not JSON: {error}") from None
    if not isinstance(record, dict):
        raise SetupError("a record must be a JSON object")
    return record
