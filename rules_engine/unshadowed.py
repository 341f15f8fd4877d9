"""Frozen records whose fields CPython reads on its fast path: no class attribute shadows an instance's field."""
from __future__ import annotations

from dataclasses import fields, is_dataclass


def unshadowed[C: type[object]](cls: C) -> C:
    """Put above ``@dataclass``: drop the class attributes it leaves for the fields' defaults (its ``__init__`` keeps its
    own copy of each). CPython 3.12 does not specialise the read of an instance attribute that a class attribute
    shadows: such a read takes about 35 ns more, on fields the engine reads thousands of times a phase."""
    record: type[object] = cls
    if not is_dataclass(record):
        raise TypeError(f"{record.__name__} is not a dataclass: put @unshadowed above @dataclass")
    own = vars(record)
    for field in fields(record):
        if field.name in own and own[field.name] is field.default:  # a slot's descriptor is kept
            delattr(record, field.name)
    return cls
