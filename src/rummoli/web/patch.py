"""A small patch of JSON values: how a frame sends the views of a run's steps.

A run shown card by card has a view per laid card (:mod:`.steps`); each is the final
view with a few things different (fewer cards laid, chips not yet won, a bigger hand).
Sending each whole would multiply a frame by the run's length, so each step's view is
sent as a patch against the frame's final view, and the page applies it
(``static/js/patch.js``, the same five keys):

- a dict's patch: ``{"s": {key: value}, "d": [key], "p": {key: patch}}``: keys set to a
  value, keys deleted, keys patched (each part only when not empty);
- a list's patch: ``{"n": length, "i": {index: patch}}``: the list cut to its first
  ``length`` items, then items patched in place (only lists that become no longer, with
  dicts or lists where they differ, are patched; any other list is set whole).

``apply(a, diff(a, b)) == b`` for any JSON values ``a`` and ``b`` (a property test
checks it); ``diff(a, a)`` is ``{}``.
"""

from __future__ import annotations

from typing import Any

Patch = dict[str, Any]


def _patchable(a: Any, b: Any) -> bool:
    """Whether ``b`` is best sent as a patch of ``a`` (else it is sent whole)."""
    if type(a) is dict and type(b) is dict:
        return True
    if type(a) is list and type(b) is list and len(b) <= len(a):
        return all(x == y or _patchable(x, y) for x, y in zip(a, b, strict=False))
    return False


def diff(a: Any, b: Any) -> Patch:
    """The patch that turns ``a`` into ``b`` (both dicts, or both lists that
    :func:`_patchable` accepts)."""
    if type(a) is list:
        # Every item that differs is patchable here (``_patchable`` vouched for it).
        items = {str(i): diff(x, y) for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y}
        patch: Patch = {}
        if len(b) < len(a):
            patch["n"] = len(b)
        if items:
            patch["i"] = items
        return patch
    differ = [k for k, v in b.items() if k in a and a[k] != v]
    changed = {k: b[k] for k in b if k not in a}
    changed.update((k, b[k]) for k in differ if not _patchable(a[k], b[k]))
    nested = {k: diff(a[k], b[k]) for k in differ if _patchable(a[k], b[k])}
    deleted = [k for k in a if k not in b]
    patch = {}
    if changed:
        patch["s"] = changed
    if deleted:
        patch["d"] = deleted
    if nested:
        patch["p"] = nested
    return patch


def apply(value: Any, patch: Patch) -> Any:
    """``value`` with ``patch`` applied (a new value: ``value`` is not changed)."""
    if type(value) is list:
        out = value[: patch.get("n", len(value))]
        for index, part in patch.get("i", {}).items():
            out[int(index)] = apply(out[int(index)], part)
        return out
    result = dict(value)
    for key in patch.get("d", ()):
        del result[key]
    result.update(patch.get("s", {}))
    for key, part in patch.get("p", {}).items():
        result[key] = apply(result[key], part)
    return result


__all__ = ["Patch", "apply", "diff"]
