"""Sentences the server sends to people, as a message id and its values.

An error a person may read (a refused name, a seat taken, a private table) travels as
``text``, the English sentence with ``{name}`` fields (a message id of the ``web``
catalogue, marked with :func:`rummoli.i18n.N_` where it is written, so ``make messages``
extracts it), and ``params``, the values; each page words it in its own person's language
(``_(text, params)`` in ``static/js/i18n.js``). ``message`` (WebSocket) and ``detail``
(HTTP) keep the English sentence for programs. So two people at one table read one
refusal each in their language, and no English sentence has to be taken apart.
"""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException


class Worded(ValueError):
    """An error worded for people: ``template`` (English, with ``{fields}``) and its
    ``params``; ``str()`` is the English sentence."""

    def __init__(self, template: str, /, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params) if params else template)

    def wording(self) -> dict[str, Any]:
        """``{"text": template, "params": {...}}`` for a frame or an answer."""
        return {"text": self.template, "params": dict(self.params)}


def wording_of(error: BaseException) -> dict[str, Any]:
    """The wording of any error: a :class:`Worded` one's own, else its English text as a
    message id without fields (shown in English unless a catalogue has it)."""
    if isinstance(error, Worded):
        return error.wording()
    return {"text": str(error), "params": {}}


class Refused(HTTPException):
    """An HTTP error with its wording (the app's error handler adds ``text`` and
    ``params`` beside ``detail``)."""

    def __init__(self, status: int, template: str, /, **params: Any) -> None:
        super().__init__(status, template.format(**params) if params else template)
        self.wording = {"text": template, "params": params}

    @classmethod
    def of(cls, status: int, error: BaseException, lang: str | None = None) -> Refused:
        """``error`` (a :class:`Worded` one keeps its fields) as an HTTP error. An
        engine's sentence (``error.engine``: no message id of the pages) is worded here
        in ``lang`` by its shape (:func:`rummoli.i18n.sentences.error`), ``detail``
        staying English."""
        found = wording_of(error)
        refused = cls(status, found["text"], **found["params"])
        if lang is not None and getattr(error, "engine", False):
            from rummoli import i18n
            from rummoli.i18n import sentences

            with i18n.language(lang):
                refused.wording = {"text": sentences.error(str(error)), "params": {}}
        return refused


__all__ = ["Refused", "Worded", "wording_of"]
