"""Loader paths to CG Card form fields and to YAML line numbers, the form's row actions (add, remove, move up), and the
card document as YAML text."""
from __future__ import annotations

import re
from collections.abc import Mapping

import yaml

from rules_engine import yaml_limits
from rules_engine.card_form import Built
from rules_engine.card_schema import ROW_MARK, rows_of

MAX_ROWS = 400

_TOKEN = re.compile(r"\[([^\]]*)\]|\.?([^.\[]+)")


def path_tokens(path: str) -> list[str]:
    """``calendar[D1 AM].weather`` → ['calendar', '[D1 AM]', 'weather'] (a bracketed token keeps its brackets)."""
    return [f"[{m.group(1)}]" if m.group(1) is not None else m.group(2) for m in _TOKEN.finditer(path)]


def _step(node: object, token: str) -> tuple[str | int, object] | None:
    if token.startswith("["):
        key = token[1:-1]
        if isinstance(node, list):
            for i, item in enumerate(node):
                if isinstance(item, dict) and any(str(item.get(k)) == key for k in ("id", "side")):
                    return i, item
            if key.isdigit() and int(key) < len(node):
                return int(key), node[int(key)]
        return None
    if isinstance(node, dict) and token in node:
        return token, node[token]
    if isinstance(node, dict):
        return token, None
    return None


def field_for_path(built: Built, path: str) -> str | None:
    """The form field a loader path names (``calendar[D1 AM].weather`` → ``calendar.0.weather``), or None."""
    resolved: list[str | int] = []
    node: object = built.doc
    for token in path_tokens(path):
        if token.startswith("line "):
            return None
        step = _step(node, token)
        if step is None:
            break
        resolved.append(step[0])
        node = step[1]
    for n in range(len(resolved), 0, -1):
        name = built.origin.get(tuple(resolved[:n]))
        if name is not None:
            return name
    return None


def yaml_line(text: str, path: str) -> int | None:
    """The line (1-based) of a loader path in a card's YAML text, when the text has that place."""
    if yaml_limits.check(text) is not None:
        return None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    line = None
    for token in path_tokens(path):
        if node is None:
            break
        line = node.start_mark.line + 1
        key = token[1:-1] if token.startswith("[") else token
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if str(k.value) == key), None)
        elif isinstance(node, yaml.SequenceNode):
            items = node.value
            match = next((i for i in items if isinstance(i, yaml.MappingNode) and any(
                str(k.value) in ("id", "side") and str(getattr(v, "value", "")) == key for k, v in i.value)), None)
            node = match if match is not None else (items[int(key)] if key.isdigit() and int(key) < len(items) else None)
        else:
            node = None
    return node.start_mark.line + 1 if node is not None else line


def _rename(data: Mapping[str, str], old: str, new: str) -> dict[str, str]:
    return {(new + k[len(old):] if k.startswith(old + ".") else k): v for k, v in data.items()}


def apply_action(data: Mapping[str, str], action: str) -> dict[str, str]:
    """``add:calendar`` (a new empty row or block), ``remove:calendar.3`` and ``up:calendar.3`` (swap with the row
    above); an action naming nothing changes nothing."""
    out = dict(data)
    verb, _, target = action.partition(":")
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,200}", target):
        return out
    if verb == "add":
        rows = rows_of(out, target)
        if len(rows) < MAX_ROWS:
            out[f"{target}.{(rows[-1] + 1) if rows else 0}.{ROW_MARK}"] = "1"
        return out
    prefix, _, index = target.rpartition(".")
    if not index.isdigit():
        return out
    if verb == "remove":
        return {k: v for k, v in out.items() if not k.startswith(target + ".")}
    if verb == "up":
        rows = rows_of(out, prefix)
        n = int(index)
        if n in rows and rows.index(n) > 0:
            above = rows[rows.index(n) - 1]
            swap = "\x00swap"
            out = _rename(out, f"{prefix}.{above}", f"{prefix}.{swap}")
            out = _rename(out, f"{prefix}.{n}", f"{prefix}.{above}")
            out = _rename(out, f"{prefix}.{swap}", f"{prefix}.{n}")
    return out


def card_yaml(doc: Mapping[str, object]) -> str:
    """The card document as `refit-cg/1` YAML text (keys in the document's order)."""
    return str(yaml.safe_dump(dict(doc), allow_unicode=True, sort_keys=False, width=110, default_flow_style=None))


__all__ = ["apply_action", "card_yaml", "field_for_path", "path_tokens", "yaml_line"]
