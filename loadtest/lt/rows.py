"""How typed rows become JSON and back, in one place: summary.json, sidebyside.json and each run's
row.json keep the field names they always had, so older results stay readable."""

import dataclasses
import json
import typing
from pathlib import Path


class JsonRow:
    """Mixin for a frozen dataclass row: `to_json()` writes every field (None as null, except the fields
    older files leave out when they have no value); `from_json()` reads one back, ignoring keys it does not
    know and leaving fields the file lacks at their defaults."""

    OMITTED_WHEN_NONE: typing.ClassVar[tuple[str, ...]] = ("problem",)

    def to_json(self) -> dict:
        out = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None and f.name in self.OMITTED_WHEN_NONE:
                continue
            out[f.name] = (
                value.to_json() if isinstance(value, JsonRow) else list(value) if isinstance(value, tuple) else value
            )
        return out

    @classmethod
    def from_json(cls, data: dict):
        hints = typing.get_type_hints(cls)
        kwargs = {}
        for f in dataclasses.fields(cls):
            if f.name not in data:
                continue
            value = data[f.name]
            nested = _row_type(hints[f.name])
            if nested and isinstance(value, dict):
                value = nested.from_json(value)
            elif isinstance(value, list) and tuple in (hints[f.name], typing.get_origin(hints[f.name])):
                value = tuple(value)  # JSON has no tuples
            kwargs[f.name] = value
        return cls(**kwargs)


def _row_type(hint):
    for t in typing.get_args(hint) or (hint,):
        if isinstance(t, type) and issubclass(t, JsonRow):
            return t
    return None


def encode(value):
    """json.dumps' `default`: rows as their JSON objects, anything else as its str (paths, tuples of rows)."""
    if isinstance(value, JsonRow):
        return value.to_json()
    return str(value)


def dumps(value, indent: int = 2) -> str:
    return json.dumps(value, indent=indent, default=encode)


def write(path: Path, value, indent: int = 2) -> None:
    path.write_text(dumps(value, indent))
