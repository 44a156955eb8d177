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

from typing import Any, Final

Patch = dict[str, Any]


def diff(a: Any, b: Any) -> Patch:
    """The patch that turns ``a`` into ``b`` (both dicts, or both lists that are sent as
    a patch: see :func:`_list_patch`)."""
    if type(a) is list:
        patch = _list_patch(a, b)
        assert patch is not None, "diff of lists that are not patchable"
        return patch
    return _dict_patch(a, b)


#: How a key's pair of values is sent: not at all (equal), whole, or as a patch.
_EQUAL: Final = 0
_WHOLE: Final = 1
_NESTED: Final = 2


def _pair(old: Any, new: Any) -> tuple[int, Any]:
    """How a dict's patch sends a key whose value was ``old`` and is ``new``: the kind,
    and the patch when it is one."""
    if old == new:
        return _EQUAL, None
    kind = type(old)
    if kind is dict and type(new) is dict:
        return _NESTED, _dict_patch(old, new)
    if kind is list and type(new) is list:
        inner = _list_patch(old, new)
        if inner is not None:
            return _NESTED, inner
    return _WHOLE, None


#: :func:`diff_shared`'s memory: by key, the last pair of values seen there and what it gave.
Shared = dict[str, tuple[Any, Any, int, Any]]


#: A dict's patch in its four parts, as :func:`dict_parts` gives them: the keys added (in
#: the new dict's order), the values changed and sent whole (the same order), the keys
#: deleted (in the old dict's order), the values patched (the new dict's order).
Parts = tuple[dict[str, Any], dict[str, Any], list[str], dict[str, Any]]


def dict_parts(a: dict[str, Any], b: dict[str, Any], shared: Shared | None = None) -> Parts:
    """:func:`diff` of two dicts in its four parts (:data:`Parts`), in one pass: each pair
    of values is compared once (at C speed), and only those that differ are looked into.
    Kept apart so that the patch of two dicts made of two groups of keys can be made from
    each group's parts (:func:`joined`).

    With ``shared`` (:func:`diff_shared`), for dicts whose values other pairs share
    (every seat's views of the same two states hold the same objects for what every seat
    sees alike): what a key's pair of values gives is kept in ``shared``, with the two
    objects, and not worked out again for the next pair that holds the very same objects
    there. The same parts as without, key for key."""
    added: dict[str, Any] = {}
    whole: dict[str, Any] = {}
    nested: dict[str, Any] = {}
    for key, new in b.items():
        if key not in a:
            added[key] = new
            continue
        old = a[key]
        if old is new:
            continue
        if shared is None:
            kind, inner = _pair(old, new)
        else:
            known = shared.get(key)
            if known is None or known[0] is not old or known[1] is not new:
                known = shared[key] = (old, new, *_pair(old, new))
            _, _, kind, inner = known
        if kind == _NESTED:
            nested[key] = inner
        elif kind == _WHOLE:
            whole[key] = new
    # ``b``'s keys that ``a`` has too: fewer than ``a``'s when some were deleted.
    kept = len(b) - len(added)
    deleted = [key for key in a if key not in b] if kept != len(a) else []
    return added, whole, deleted, nested


def _dict_patch(a: dict[str, Any], b: dict[str, Any], shared: Shared | None = None) -> Patch:
    """:func:`diff` of two dicts (:func:`dict_parts`, put together). The patch's keys come
    in the order :func:`diff` always gave them: ``s`` holds the new keys (in ``b``'s
    order), then the changed values sent whole; ``d`` the deleted keys (in ``a``'s order);
    ``p`` the values patched."""
    added, whole, deleted, nested = dict_parts(a, b, shared)
    patch: Patch = {}
    if added or whole:
        added.update(whole)
        patch["s"] = added
    if deleted:
        patch["d"] = deleted
    if nested:
        patch["p"] = nested
    return patch


def joined(first: Parts, then: Parts) -> Patch:
    """The patch of ``a`` to ``b`` from the parts of two groups of their keys: ``first``,
    :func:`dict_parts` of the keys that come first in both ``a`` and ``b``, ``then`` of
    the keys after them in both (the same patch, key for key, as :func:`diff` of the
    whole dicts, given that order). A run's step makes what every seat sees alike once
    (``first``) and each seat's own keys, which its views hold last, apart (``then``)."""
    added, whole, deleted, nested = first
    added_then, whole_then, deleted_then, nested_then = then
    patch: Patch = {}
    if added or whole or added_then or whole_then:
        patch["s"] = {**added, **added_then, **whole, **whole_then}
    if deleted or deleted_then:
        patch["d"] = deleted + deleted_then
    if nested or nested_then:
        patch["p"] = {**nested, **nested_then}
    return patch


#: :func:`diff` of two dicts with a memory shared by other pairs (see :func:`_dict_patch`):
#: the function itself, not a wrapper, as it runs for every seat's every step of a run.
diff_shared = _dict_patch


def _list_patch(a: list[Any], b: list[Any]) -> Patch | None:
    """:func:`diff` of two lists, or None when ``b`` is not sent as a patch of ``a`` (it
    is longer, or an item that differs is neither two dicts nor a patchable list)."""
    if len(b) > len(a):
        return None
    if len(b) < len(a) and a[: len(b)] == b:
        # The common case of a run's step (fewer cards laid so far): a cut, compared at C
        # speed rather than item by item.
        return {"n": len(b)}
    items: dict[str, Any] = {}
    for index, (old, new) in enumerate(zip(a, b, strict=False)):
        if old is new or old == new:
            continue
        kind = type(old)
        if kind is dict and type(new) is dict:
            items[str(index)] = _dict_patch(old, new)
        elif kind is list and type(new) is list:
            inner = _list_patch(old, new)
            if inner is None:
                return None
            items[str(index)] = inner
        else:
            return None
    patch: Patch = {}
    if len(b) < len(a):
        patch["n"] = len(b)
    if items:
        patch["i"] = items
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


__all__ = ["Parts", "Patch", "Shared", "apply", "dict_parts", "diff", "diff_shared", "joined"]
