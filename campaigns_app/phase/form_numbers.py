"""Every number a player types, parsed and bounded before anything is built from it.

A number is read from at most ``DIGITS_MAX`` characters (a 10²³ quantity never reaches ``int``, nor a loop), then
checked against the range the rules allow — or, where the rules give none, against ``FORM_MAX``: far above any count
in an ASL campaign, and small enough that every sum of such entries fits a PostgreSQL ``integer`` column. A refusal
says what was typed (a short excerpt) and the allowed range; the value returned then is the field's default, so a
refused number is never used.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from rules_engine.sequence import TRACK_RANGES

FORM_MAX = 99_999
"""The largest whole number any form accepts where the rules set no smaller bound (a column is 2³¹ − 1)."""
DRM_RANGE = (-FORM_MAX, FORM_MAX)
"""A typed DRM or modifier: any sign, the same magnitude bound."""
DIGITS_MAX = 12
EXCERPT = 20
_WHOLE = re.compile(r"[+-]?[0-9]{1,%d}" % DIGITS_MAX)


def excerpt(raw: str, limit: int = EXCERPT) -> str:
    """At most ``limit`` characters of what was typed, marked when cut."""
    return raw if len(raw) <= limit else raw[:limit] + "…"


def allowed(low: int | None, high: int | None) -> str:
    """The allowed range in words ("0 to 20", "at least 1")."""
    low = -FORM_MAX if low is None else low
    high = FORM_MAX if high is None else high
    return f"a whole number from {low} to {high}"


def whole_number(raw: object, label: str, problems: list[str], default: int | None = 0,
                 low: int | None = 0, high: int | None = None) -> int | None:
    """``raw`` as a whole number within ``low``..``high`` (``None``: ±``FORM_MAX``); blank gives ``default``; a problem
    is appended (naming the label and the allowed range) and ``default`` returned when it is not one."""
    text = str(raw if raw is not None else "").strip()
    if text == "":
        return default
    low_ = -FORM_MAX if low is None else low
    high_ = FORM_MAX if high is None else high
    if not _WHOLE.fullmatch(text):
        problems.append(f"{label}: “{excerpt(text)}” is not allowed: enter {allowed(low_, high_)}.")
        return default
    value = int(text)
    if value < low_ or value > high_:
        problems.append(f"{label}: {excerpt(text)} is out of range: enter {allowed(low_, high_)}.")
        return default
    return value


def field(data: Mapping[str, object], name: str, label: str, problems: list[str], default: int | None = 0,
          low: int | None = 0, high: int | None = None) -> int | None:
    """The bounded whole number posted as ``name`` (the last value when repeated, like ``QueryDict.get``)."""
    return whole_number(data.get(name, ""), label, problems, default, low, high)


def small_index(text: str, digits: int = 3) -> int | None:
    """A field name's index suffix (``q-12`` → 12) when it is a short decimal, else ``None``."""
    return int(text) if re.fullmatch(r"[0-9]{1,%d}" % digits, text) else None


def track_value(raw: object, key: str, ref: str | None, problems: list[str]) -> int | None:
    """A SAN, ELR or LVP a side types, bounded by the range the rules allow for that track (a SAN is matched against a
    Dice Roll: 0 to 12), the refusal naming the track, its range, why, and the step's rule; another value a step needs
    has the forms' own bound."""
    if key not in TRACK_RANGES:
        return whole_number(raw, "The value", problems, None, None)
    low, high, why = TRACK_RANGES[key]
    found: list[str] = []
    value = whole_number(raw, key.upper(), found, None, low, high)
    if found:
        text = str(raw if raw is not None else "").strip()
        typed = f"{excerpt(text)} is out of range" if _WHOLE.fullmatch(text) else f"“{excerpt(text)}” is not allowed"
        rule = f" (rule {ref})" if ref and not ref.startswith("@") else ""
        problems.append(f"{key.upper()} must be {allowed(low, high)} ({why}); {typed}{rule}")
    return value
