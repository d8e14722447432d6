"""What a reader's program produced, as plain data: the one form in which it leaves the Python that ran it
(`glassgrad.exercises.sealed`).

`encode` reads objects into JSON-able data without calling a method of the reader's classes on a number or a
text: a ``float`` (or subclass) is read as its C value with ``float.__float__``, an ``int`` with
``int.__int__``, a ``str`` with ``str.__str__``, a list, tuple or dict through the built-in type's own
methods. Any other object is a row of its type's name, its ``repr`` and the fields a Value or a ParentLink
has (`FIELDS`); objects that more than one place holds are one row, referenced by its index, so identity
survives. `Decoder` rebuilds the objects from that data: exact built-in numbers and texts, built-in
containers, and for every other row a `Rebuilt` object with exactly the fields it had and its ``repr``.

Every ref is a list: ``["f", float.hex(x)]``, ``["i", decimal digits]``, ``["s", text]``, ``["b", bool]``,
``["n"]`` (None) or ``["r", row]``. A row is ``["list" | "tuple", [ref, ...]]``, ``["dict", [[ref, ref],
...]]`` or ``["obj", type name, repr (None if it failed), {field: ref}]``.
"""

from __future__ import annotations

from typing import Any

FIELDS = ("data", "grad", "label", "op", "parents", "value", "local_grad")
"""The fields read from an object that is not a number, a text or a container: those of a Value and a ParentLink."""

MAX_ROWS = 5000
"""The most objects one call's arguments and answer may hold (a check's graphs have a few dozen)."""

MAX_TEXT = 10_000
"""A text longer than this is cut."""

MAX_INT_BITS = 4096
"""An int wider than this is kept as its type and repr only."""

# Bound now: a reader's program may replace the builtins' names, never the built-in types' own methods.
_float_value: Any = float.__float__
_int_value: Any = int.__int__
_str_value, _float_hex, _list_copy, _tuple_items, _dict_items = (
    str.__str__,
    float.hex,
    list.copy,
    tuple.__getitem__,
    dict.items,
)
_type_name: Any = type.__dict__["__name__"].__get__
_isinstance, _type, _hasattr, _getattr, _id, _len, _repr = isinstance, type, hasattr, getattr, id, len, repr


class TooBig(Exception):
    """What `encode` raises when the objects pass `MAX_ROWS`."""


class Malformed(Exception):
    """What `Decoder` raises on data that is not a record `encode` could have written."""


def _text_of(thing: object) -> str | None:
    """``repr(thing)``, cut to 60 characters; None when it raises (anything, even KeyboardInterrupt) or is no str."""
    try:
        text = _repr(thing)
        if not _isinstance(text, str):
            return None
        text = _str_value(text)
    except BaseException:  # the reader's __repr__: whatever it raises, the row is still written
        return None
    return text if _len(text) <= 60 else text[:59] + "…"


class Encoder:
    """Rows for the objects it is given, one per object (by identity), in the order first met."""

    def __init__(self) -> None:
        self.rows: list[list[Any]] = []
        self.objects: list[Any] = []  # the object of each row
        self._row_of: dict[int, int] = {}
        self._todo: list[int] = []

    def ref(self, thing: object) -> list[Any]:
        """The ref of `thing`; an object not met yet gets a row, filled in by `finish`."""
        kind = _type(thing)
        if thing is None:
            return ["n"]
        if kind is bool:
            return ["b", thing is True]
        if _isinstance(thing, float):
            return ["f", _float_hex(_float_value(thing))]  # the C value: never the reader's __float__
        if _isinstance(thing, int) and not _isinstance(thing, bool):
            number = _int_value(thing)
            if number.bit_length() <= MAX_INT_BITS:
                return ["i", str(number)]
        elif _isinstance(thing, str):
            return ["s", _str_value(thing)[:MAX_TEXT]]
        row = self._row_of.get(_id(thing))
        if row is None:
            if _len(self.rows) >= MAX_ROWS:
                raise TooBig(f"more than {MAX_ROWS:,} objects")
            row = self._row_of[_id(thing)] = _len(self.rows)
            self.rows.append([])
            self.objects.append(thing)
            self._todo.append(row)
        return ["r", row]

    def finish(self) -> list[list[Any]]:
        """Fill in every row met so far (and those its fields meet); the rows."""
        while self._todo:
            row = self._todo.pop()
            self.rows[row] = self._row(self.objects[row])
        return self.rows

    def _row(self, thing: Any) -> list[Any]:
        if _isinstance(thing, list):
            return ["list", [self.ref(item) for item in _list_copy(thing)]]
        if _isinstance(thing, tuple):
            return ["tuple", [self.ref(item) for item in _tuple_items(thing, slice(None))]]
        if _isinstance(thing, dict):
            return ["dict", [[self.ref(key), self.ref(item)] for key, item in list(_dict_items(thing))]]
        fields = {name: self.ref(_getattr(thing, name)) for name in FIELDS if _hasattr(thing, name)}
        return ["obj", _type_name(_type(thing)), _text_of(thing), fields]


def encode(things: list[Any], encoder: Encoder | None = None) -> tuple[dict[str, Any], list[Any]]:
    """``({"rows", "refs"}, objects)``: `things` as plain data, and the object of each row.

    With `encoder`, the rows it holds come first, each read again (the objects as they are now).
    """
    encoder = encoder or Encoder()
    encoder._todo = list(range(_len(encoder.rows)))  # noqa: SLF001  (read again: a call may have changed them)
    refs = [encoder.ref(thing) for thing in things]
    return {"rows": list(encoder.finish()), "refs": refs}, list(encoder.objects)


class Rebuilt:
    """An object of the reader's that is not a number, a text or a container, rebuilt from its row: only the fields
    it had, and its ``repr``. (Its class is a subclass named as the reader's was.)"""

    _gg_repr: str | None = None

    def __repr__(self) -> str:
        if self._gg_repr is None:  # the reader's repr failed: so does this one (messages then name the type)
            raise TypeError("no repr")
        return self._gg_repr


_SCALARS: dict[str, Any] = {
    "f": lambda text: float.fromhex(_checked(text, str)),
    "i": lambda text: int(_checked(text, str)),
    "s": lambda text: _checked(text, str),
    "b": lambda flag: _checked(flag, bool),
}


def _checked(thing: Any, kind: type) -> Any:
    if _type(thing) is not kind:
        raise Malformed(f"expected {kind.__name__}, got {_type_name(_type(thing))}")
    return thing


class Decoder:
    """The objects of `rows` (as `encode` wrote them); `existing[i]`, when given, stands for row ``i`` and is
    updated in place to the row's fields (the objects a call received, as the call left them)."""

    def __init__(self, rows: Any, existing: list[Any] | None = None) -> None:
        self.rows = _checked(rows, list)
        if _len(self.rows) > MAX_ROWS:
            raise Malformed("too many rows")
        self.existing = existing or []
        self.objects: list[Any] = [None] * _len(self.rows)
        self._built = [False] * _len(self.rows)
        self._classes: dict[str, type] = {}
        for row, plain in enumerate(self.rows):  # every mutable object first, empty: rows may refer to each other
            kind = _checked(plain, list)[0] if plain else None
            if kind == "tuple":
                continue
            if row < _len(self.existing):
                self.objects[row] = self.existing[row]
            elif kind in ("list", "dict"):
                self.objects[row] = [] if kind == "list" else {}
            elif kind == "obj":
                self.objects[row] = self._class(_checked(plain[1], str))()
            else:
                raise Malformed(f"row {row}: {kind!r}")
            self._built[row] = True
        for row, plain in enumerate(self.rows):
            if plain[0] == "tuple":
                self._tuple(row)
        for row, plain in enumerate(self.rows):
            self._fill(row, plain)

    def _class(self, name: str) -> type:
        if name not in self._classes:
            self._classes[name] = type(name, (Rebuilt,), {})
        return self._classes[name]

    def value(self, ref: Any) -> Any:
        """The object `ref` stands for."""
        ref = _checked(ref, list)
        if not ref or ref[0] == "n":
            return None
        if ref[0] == "r":
            row = _checked(ref[1], int)
            if not 0 <= row < _len(self.rows):
                raise Malformed(f"no row {row}")
            return self.objects[row]
        if ref[0] not in _SCALARS or _len(ref) != 2:
            raise Malformed(f"ref {ref[:1]!r}")
        return _SCALARS[ref[0]](ref[1])

    def _tuple(self, top: int) -> None:
        """Build tuple row `top` after the tuples it holds (a loop, not recursion: tuples nest without limit)."""
        stack = [top]
        while stack:
            row = stack[-1]
            if self._built[row]:
                stack.pop()
                continue
            items = _checked(self.rows[row][1], list)
            waiting = [r[1] for r in items if r[:1] == ["r"] and self.rows[r[1]][:1] == ["tuple"]]
            waiting = [r for r in waiting if not self._built[r]]
            if waiting:
                if _len(stack) > _len(self.rows):
                    raise Malformed("tuples that hold each other")
                stack.extend(waiting)
                continue
            stack.pop()
            built = tuple(self.value(item) for item in items)
            self.objects[row] = self.existing[row] if row < _len(self.existing) else built  # (a tuple cannot change)
            self._built[row] = True

    def _fill(self, row: int, plain: list[Any]) -> None:
        thing = self.objects[row]
        if plain[0] == "list":
            thing[:] = [self.value(item) for item in _checked(plain[1], list)]
        elif plain[0] == "dict":
            thing.clear()
            thing.update((self.value(key), self.value(item)) for key, item in _checked(plain[1], list))
        elif plain[0] == "obj":
            fields = _checked(plain[3], dict)
            if row >= _len(self.existing):
                thing._gg_repr = None if plain[2] is None else _checked(plain[2], str)
            for name in FIELDS:
                if name in fields:
                    setattr(thing, name, self.value(fields[name]))
                elif hasattr(thing, name):
                    delattr(thing, name)
