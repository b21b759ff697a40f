"""Declaring a state's fields once: how each is copied, keyed, saved and loaded.

A state class is a dataclass whose fields carry a ``Slot`` in their metadata (made by ``slot``); ``Schema``
reads them and derives what used to be listed by hand for every field: the clone, the
position key, the saved document (its layout given by each slot's path) and loading it back.
Both games' states are declared this way (``spots.games.spots.state``, ``spots.games.double_spot.state``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from operator import itemgetter
from typing import Any

_MISSING: Any = object()


def same(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Slot:
    """How one state field is handled.

    path: where the field sits in the saved document (``("supply", "dice")``).
    copy: how a clone copies the value (None: immutable, shared by clones).
    key: how the value enters the position key (None: left out: history, not position).
    dump: the value as plain data (must not share mutable parts with the state).
    load: the value from plain data; gets the state being loaded (its rules are loaded first).
    null: the value when the enclosing section is saved as null (the chance section between chance events).
    absent: the raw value when the document has no such key (a field added after documents were saved).
    """

    path: tuple[str, ...]
    copy: Callable[[Any], Any] | None = None
    key: Callable[[Any], Any] | None = same
    dump: Callable[[Any], Any] = same
    load: Callable[[Any, Any], Any] = lambda raw, state: raw
    null: Any = _MISSING
    absent: Any = _MISSING


def slot(path: str, **how: Any) -> dict[str, Slot]:
    """A field's ``Slot`` as dataclass field metadata: ``field(metadata=slot("supply.dice"))``."""
    return {"slot": Slot(tuple(path.split(".")), **how)}


class Schema:
    """The slots of a state class, in declaration order, and what is derived from them."""

    def __init__(self, cls: type) -> None:
        self.slots = [(f.name, f.metadata["slot"]) for f in fields(cls) if "slot" in f.metadata]
        self.copied = [(name, s.copy) for name, s in self.slots if s.copy is not None]
        plain = [name for name, s in self.slots if s.key is same]
        self._plain = itemgetter(*plain)  # fields that enter the key as they are, read in one go
        self.converted = [(name, s.key) for name, s in self.slots if s.key is not None and s.key is not same]
        keyed = [(name, s.key) for name, s in self.slots if s.key is not None]
        # One tuple expression, as a state would write it by hand (searches take keys by the million): made
        # from the slots the way ``dataclasses`` makes its methods.
        converters = {f"k{i}": key for i, (_, key) in enumerate(keyed) if key is not same}
        items = [f"v[{name!r}]" if key is same else f"k{i}(v[{name!r}])" for i, (name, key) in enumerate(keyed)]
        self._flat = eval(f"lambda v: ({', '.join(items)},)", converters)  # only names of the class

    def clone(self, obj: Any) -> Any:
        """A copy sharing only immutable values."""
        other = object.__new__(type(obj))
        values = dict(obj.__dict__)
        for name, copy in self.copied:
            values[name] = copy(values[name])
        other.__dict__ = values
        return other

    def key(self, obj: Any) -> tuple[Any, ...]:
        values = obj.__dict__
        return self._plain(values), tuple([key(values[name]) for name, key in self.converted])

    def flat_key(self, obj: Any) -> tuple[Any, ...]:
        """The keyed fields in declaration order, one flat tuple (``key`` groups them for speed instead)."""
        return self._flat(obj.__dict__)

    def dump(self, obj: Any, doc: dict[str, Any]) -> dict[str, Any]:
        """Write every slot into ``doc`` at its path, in declaration order."""
        values = obj.__dict__
        for name, s in self.slots:
            target = doc
            for part in s.path[:-1]:
                target = target.setdefault(part, {})
            target[s.path[-1]] = s.dump(values[name])
        return doc

    def load(self, obj: Any, doc: dict[str, Any]) -> None:
        """Set every slot of ``obj`` from ``doc``; a missing key raises KeyError naming it."""
        for name, s in self.slots:
            raw = doc
            for part in s.path:
                if raw is None and s.null is not _MISSING:
                    raw = s.null
                    break
                if s.absent is not _MISSING and isinstance(raw, dict) and part not in raw:
                    raw = s.absent
                    break
                raw = raw[part]
            setattr(obj, name, s.load(raw, obj))
