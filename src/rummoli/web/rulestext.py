"""A game's rules text (Markdown) as a tree of plain elements the page builds with the DOM.

The page never parses HTML (no ``innerHTML`` anywhere: the security tests check it), so
the server turns the text into ``[tag, child, ...]`` lists, with only the tags a rules
text needs, and text as strings the page writes with ``textContent``. Markdown's own raw
HTML is dropped, never passed on.
"""

from __future__ import annotations

from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

#: The elements a rules text may have (anything else becomes its children alone).
TAGS = frozenset(
    [
        "h1",
        "h2",
        "h3",
        "h4",
        "p",
        "ul",
        "ol",
        "li",
        "strong",
        "em",
        "code",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "blockquote",
    ]
)
_PARSER = MarkdownIt("commonmark", {"html": False}).enable("table")

Node = list[Any] | str


def _nest(stack: list[list[Any]], token: Token, other: str) -> None:
    """Follow ``token``'s nesting in the tree being built: a token that opens an element
    starts one inside the current element (with its tag if a rules text may have it,
    else ``other``, which keeps the children alone), one that closes it ends it (never
    the root)."""
    if token.nesting == 1:
        node: list[Any] = [token.tag if token.tag in TAGS else other]
        stack[-1].append(node)
        stack.append(node)
    elif token.nesting == -1 and len(stack) > 1:
        stack.pop()


def _inline(tokens: list[Token]) -> list[Node]:
    root: list[Any] = ["span"]
    stack = [root]
    for token in tokens:
        if token.type == "text":
            if token.content:
                stack[-1].append(token.content)
        elif token.type in ("softbreak", "hardbreak"):
            stack[-1].append(" ")
        elif token.type == "code_inline":
            stack[-1].append(["code", token.content])
        else:
            _nest(stack, token, "span")
    return root[1:]


def rules_tree(text: str) -> list[Node]:
    """The blocks of ``text``, each ``[tag, children...]``."""
    root: list[Any] = ["div"]
    stack = [root]
    for token in _PARSER.parse(text):
        if token.type == "inline":
            stack[-1].extend(_inline(token.children or []))
        elif token.hidden:  # a tight list's paragraphs: their text joins the item
            continue
        elif token.type in ("code_block", "fence"):
            stack[-1].append(["p", ["code", token.content]])
        else:
            _nest(stack, token, "div")
    return root[1:]
