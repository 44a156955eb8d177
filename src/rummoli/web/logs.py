"""The server's log: plain text for a person at a terminal, or one JSON object a line for
a log collector (``rummoli serve --log-format json``), each line with its table's id.

Why a table id on every line: a host running many tables follows one family's game
through the log (``jq 'select(.table == "...")'``) without parsing sentences. The id
travels in a context variable (:data:`TABLE`): set by a room's owner task for all it
does (:meth:`.room.Room.run`), and by the request middleware for a request or a
WebSocket about one table (:mod:`.ops`); asyncio copies it into the tasks and threads
started from there. A line may also name its table itself (``extra={"table": id}``).
Lines about no table (the server starting, a sweep) carry ``"table": null``.
"""

from __future__ import annotations

import json
import logging
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Final

#: The table the code running now works for (None: none in particular).
TABLE: ContextVar[str | None] = ContextVar("rummoli_table", default=None)

FORMATS: Final = ("text", "json")
LEVELS: Final = ("debug", "info", "warning", "error")


class TableFilter(logging.Filter):
    """Gives every record its ``table`` (its own ``extra``, else :data:`TABLE`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "table", None) is None:
            record.table = TABLE.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, table, and
    the exception's traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "table": getattr(record, "table", None),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """``time level logger [table id]: message``."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s%(where)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        table = getattr(record, "table", None)
        record.where = f" [table {table}]" if table else ""
        return super().format(record)


def configure(log_format: str = "text", level: str = "info") -> logging.Handler:
    """Send every log record (the server's and uvicorn's) to stderr in ``log_format``;
    returns the handler (tests remove it again)."""
    if log_format not in FORMATS:
        raise ValueError(f"log format must be one of {', '.join(FORMATS)}")
    if level not in LEVELS:
        raise ValueError(f"log level must be one of {', '.join(LEVELS)}")
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(TableFilter())
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h.formatter, JsonFormatter | TextFormatter)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        # uvicorn's own loggers go through the same handler, in the same format.
        uvicorn_logger = logging.getLogger(name)
        uvicorn_logger.handlers.clear()
        uvicorn_logger.propagate = True
    return handler


__all__ = ["FORMATS", "LEVELS", "TABLE", "JsonFormatter", "TableFilter", "configure"]
