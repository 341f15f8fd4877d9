"""The CG Card form's building blocks (``card_schema``, ``card_parts``): a field, a grid of rows, a block, a section.

A field's name is its place in the `refit-cg/1` document (``calendar.2.weather``); rows of a grid are numbered in the
name and kept in that order.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

TEXT, INT, BOOL, CHOICE, CELL, YAML, LONGTEXT, LIST = "text", "int", "bool", "choice", "cell", "yaml", "longtext", "list"
UNITS = "units"  # a small repeatable list of (count, unit) under the field's name: ``<name>.<k>.count``, ``<name>.<k>.unit``
ROW_MARK = "_row"
DICE = ("DR", "dr")
CARD_CHART = "the CG Card"


@dataclass(frozen=True)
class Field:
    """One form field: its name (a document path), label, kind, rule number and printed chart, and value shown."""

    name: str
    label: str
    kind: str = TEXT
    ref: str = ""
    chart: str = ""
    help: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    value: str = ""
    items: tuple[tuple[int, str, str], ...] = ()  # UNITS: (row number, count, unit) of each unit row


@dataclass(frozen=True)
class Grid:
    """Rows of fields under ``prefix``; ``dice`` leading columns are the dice column (row label, lowest, highest)."""

    prefix: str
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[int, tuple[Field, ...]], ...]
    dice: int = 0
    ref: str = ""
    chart: str = ""


@dataclass(frozen=True)
class Block:
    """A group of fields and grids inside a section (one side's OB, one RG chart, one table)."""

    title: str
    fields: tuple[Field, ...] = ()
    grids: tuple[Grid, ...] = ()
    prefix: str = ""
    removable: bool = False


@dataclass(frozen=True)
class Section:
    """One part of the card: title, rule number, printed chart, help, and what to fill."""

    id: str
    title: str
    ref: str
    chart: str
    help: str
    blocks: tuple[Block, ...]
    add: str = ""  # the prefix a new block is added under ("tables")


def rows_of(data: Mapping[str, str], prefix: str) -> list[int]:
    """The row numbers the form data has under ``prefix`` (``calendar`` → 0, 1, 3 …), in order."""
    pattern = re.compile(re.escape(prefix) + r"\.(\d+)\.")
    return sorted({int(m.group(1)) for key in data if (m := pattern.match(key))})


__all__ = ["BOOL", "CARD_CHART", "CELL", "CHOICE", "DICE", "INT", "LIST", "LONGTEXT", "ROW_MARK", "TEXT", "UNITS",
           "YAML", "Block", "Field", "Grid", "Section", "rows_of"]
