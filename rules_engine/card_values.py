"""How one typed form value becomes a `refit-cg/1` value and back (docs/cg-format.md "Values and provenance").

A typed ``25`` is a number, ``9-2`` or ``yes`` is text (never a YAML boolean), and a value written as YAML flow text
(``{missing: "OCR-LOST"}``, ``[10-3, 9-1]``, ``"12"``) keeps its provenance or its quoting.
"""
from __future__ import annotations

import re

import yaml

from rules_engine import yaml_limits

INT_TEXT = re.compile(r"^[+-]?\d{1,9}$")
DECIMAL_TEXT = re.compile(r"^[+-]?\d{1,9}\.\d{1,6}$")
FLOW_START = ("{", "[", '"', "'")
MAX_FIELD_CHARS = 4000


class FlowTextError(ValueError):
    """A value written as YAML flow text that YAML cannot read."""


def flow(value: object) -> str:
    """A value as one line of YAML flow text."""
    dumped = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10**6, sort_keys=False)
    return str(dumped).strip().removesuffix("...").strip()


def value_text(value: object) -> str:
    """What a form field shows for a document value (the inverse of ``typed_value``)."""
    if value is None:
        return ""
    if isinstance(value, bool) or isinstance(value, (dict, list)):
        return flow(value)
    if isinstance(value, (int, float)):
        return str(value)
    text = str(value)
    try:
        same = typed_value(text) == text
    except FlowTextError:
        same = False
    return text if same else flow(text)


def typed_value(text: str) -> object:
    """A typed field as a document value: a whole or decimal number, YAML flow text, or text; ``None`` when blank."""
    text = text.strip()
    if not text:
        return None
    if INT_TEXT.match(text):
        return int(text)
    if DECIMAL_TEXT.match(text):
        return float(text)
    if text.startswith(FLOW_START):
        try:
            loaded: object = yaml_limits.load(text)
        except yaml_limits.LimitExceeded as exc:
            raise FlowTextError(f"refused: {exc}") from None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem", None) or "cannot be read"
            raise FlowTextError(f"not valid YAML flow text ({mark})") from None
        return loaded
    return text


def word_list(text: str) -> list[object]:
    """``St, Lg`` or ``l; m`` as a list of values (each typed as ``typed_value``)."""
    if text.strip().startswith("["):
        whole = typed_value(text)
        return list(whole) if isinstance(whole, list) else [whole]
    out: list[object] = []
    for part in re.split(r"[;,]", text):
        value = typed_value(part)
        if value is not None:
            out.append(value)
    return out


def list_text(values: object) -> str:
    """A list of simple values as ``a, b`` (the inverse of ``word_list``); anything else as flow text."""
    if isinstance(values, list) and all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in values):
        texts = [value_text(v) for v in values]
        if all("," not in t and ";" not in t for t in texts):
            return ", ".join(texts)
    return flow(values)


__all__ = ["FlowTextError", "MAX_FIELD_CHARS", "flow", "list_text", "typed_value", "value_text", "word_list"]
