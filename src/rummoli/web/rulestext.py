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
        elif token.nesting == 1:
            node: list[Any] = [token.tag if token.tag in TAGS else "span"]
            stack[-1].append(node)
            stack.append(node)
        elif token.nesting == -1 and len(stack) > 1:
            stack.pop()
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
        elif token.nesting == 1:
            node: list[Any] = [token.tag if token.tag in TAGS else "div"]
            stack[-1].append(node)
            stack.append(node)
        elif token.nesting == -1 and len(stack) > 1:
            stack.pop()
        elif token.type in ("code_block", "fence"):
            stack[-1].append(["p", ["code", token.content]])
    return root[1:]
