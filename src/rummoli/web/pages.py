"""The HTML pages: one frame that every page shares, filled with each page's own part.

Every page has the same head (the character set, the viewport, the style sheet, the icon)
around the same body; what differs is its title, its module and its ``<main>``. So the
shared part is written once, in ``static/page.html`` (a :class:`string.Template`), and
each page's file (``static/index.html``, ``static/table.html``, ``static/404.html``, ...)
holds only its own: its head elements (its ``<title>`` and its ``<script>``), then its
``<main>``. The server fills the frame each time a page is asked for, reading both files
then, as it did when it served the page's file as it was: an edited page shows at the next
load, without a restart.

The answer carries what a file's answer carried for a browser's cache (``ETag``,
``Last-Modified``); the Content-Security-Policy and its cousins are the Guard's, as for
every answer (:mod:`.guard`).
"""

from __future__ import annotations

import hashlib
import re
from email.utils import formatdate
from pathlib import Path
from string import Template

from fastapi import Response

STATIC = Path(__file__).parent / "static"

#: The frame every page shares: ``$head`` takes the page's head elements, ``$main`` its
#: ``<main>`` and what follows it.
FRAME = STATIC / "page.html"

#: The line where a page's own head elements end and its body begins.
_BODY_START = re.compile(r"^[ \t]*<main\b", re.MULTILINE)


def filled_page(name: str) -> tuple[str, float]:
    """The page ``name`` (a file of ``static/``) inside the shared frame, and when the
    later of the two files was last changed."""
    own_file = STATIC / name
    own = own_file.read_text(encoding="utf-8")
    body = _BODY_START.search(own)
    if body is None:
        raise ValueError(f"static/{name} has no line that opens its <main>")
    frame = Template(FRAME.read_text(encoding="utf-8"))
    text = frame.substitute(head=own[: body.start()], main=own[body.start() :])
    return text, max(own_file.stat().st_mtime, FRAME.stat().st_mtime)


def page_response(name: str, status_code: int = 200) -> Response:
    """The answer for the page ``name``: its HTML, and the validators a browser keeps
    (an ``ETag`` of its content, ``Last-Modified`` of its files)."""
    text, modified = filled_page(name)
    body = text.encode("utf-8")
    etag = hashlib.blake2b(body, digest_size=16).hexdigest()
    return Response(
        body,
        status_code=status_code,
        media_type="text/html",
        headers={"etag": f'"{etag}"', "last-modified": formatdate(modified, usegmt=True)},
    )
