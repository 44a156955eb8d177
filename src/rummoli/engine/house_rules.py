"""What a game's house rules share when they are a frozen dataclass: read from a record's
JSON object, written back, and the ones that differ from the defaults.

Why one base: Rummoli's rules and Basic Rummy's are each a frozen dataclass of house
rules with a ``rules_version`` beside them, and both read, wrote and compared themselves
the same way. What differs, the names a game accepts (Rummoli's presets, Rummy's list of
its rules in the error), stays in each game's :meth:`DataclassRules._from_object`.
"""

from __future__ import annotations

from dataclasses import Field, asdict, fields
from typing import Any, ClassVar, Self

from rummoli.engine.base import SetupError


class DataclassRules:
    """The base of a game's house rules written as a frozen dataclass with defaults."""

    __slots__ = ()

    #: Set by ``@dataclass`` on the game's rules (what :func:`dataclasses.asdict` reads).
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @classmethod
    def from_dict(cls, data: object) -> Self:
        """Rules from a JSON object of house rules by name; unknown names are an error."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise SetupError("rules must be an object of house rules by name")
        return cls._from_object(data, {f.name for f in fields(cls)})

    @classmethod
    def _from_object(cls, data: dict[str, Any], known: set[str]) -> Self:
        """The rules of a JSON object, whose keys ``known`` (the dataclass's fields) lists
        the accepted ones of; the game's own reading."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def changed(self) -> dict[str, Any]:
        """Only the house rules that differ from the defaults (the rules version is not
        a house rule)."""
        default = type(self)()
        return {
            k: v
            for k, v in self.to_dict().items()
            if getattr(default, k) != v and k != "rules_version"
        }
