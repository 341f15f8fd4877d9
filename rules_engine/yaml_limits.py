"""Fixed limits on a YAML document, checked on its event stream before any node or object is built.

A CG definition or card is small (the largest bundled system: ~4 700 nodes, 9 deep). A document deeper than
``DEPTH_MAX``, or larger than ``NODES_MAX`` nodes once every alias is expanded (a "billion laughs" tree), is refused
from the parser's events alone — the parser keeps its own stack, so nothing recurses and nothing is expanded. Scalars
that would not construct (a date that is no date, an integer of thousands of digits) are refused with their line and a
short excerpt; see ``safe_int`` and ``safe_timestamp``.
"""
from __future__ import annotations

import yaml
from yaml.constructor import ConstructorError

DEPTH_MAX = 32
NODES_MAX = 50_000
INT_DIGITS_MAX = 15
EXCERPT = 40


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """At most ``limit`` characters of ``text``, marked when cut."""
    return text if len(text) <= limit else text[:limit] + "…"


def check(text: str) -> str | None:
    """The first limit ``text`` breaks, as "line N: what" (``None`` when within them); YAML syntax errors are left to
    the loader, which reports them with their place."""
    depth = 0
    expanded = 0
    open_nodes: list[tuple[str | None, int]] = []
    anchors: dict[str, int] = {}
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            line = event.start_mark.line + 1 if event.start_mark else 0
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > DEPTH_MAX:
                    return f"line {line}: nested more than {DEPTH_MAX} levels deep (at most {DEPTH_MAX} allowed)"
                expanded += 1
                open_nodes.append((event.anchor, expanded - 1))
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
                anchor, start = open_nodes.pop()
                if anchor is not None:
                    anchors[anchor] = expanded - start
            elif isinstance(event, yaml.ScalarEvent):
                expanded += 1
                if event.anchor is not None:
                    anchors[event.anchor] = 1
            elif isinstance(event, yaml.AliasEvent):
                expanded += anchors.get(event.anchor or "", 1)
            if expanded > NODES_MAX:
                return (f"line {line}: more than {NODES_MAX} values once aliases (*name) are expanded "
                        f"(at most {NODES_MAX} allowed)")
    except yaml.YAMLError:
        return None
    return None


def safe_int(constructor: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    """A YAML integer of at most ``INT_DIGITS_MAX`` digits."""
    text = str(node.value)
    digits = sum(ch.isdigit() for ch in text)
    if digits > INT_DIGITS_MAX:
        raise ConstructorError(None, None, f"the whole number “{excerpt(text)}” has {digits} digits "
                               f"(at most {INT_DIGITS_MAX} allowed)", node.start_mark)
    return int(constructor.construct_yaml_int(node))


def safe_timestamp(constructor: yaml.SafeLoader, node: yaml.ScalarNode) -> object:
    """A YAML date that is a real date; anything else shaped like one is refused (quote it to make it text)."""
    try:
        return constructor.construct_yaml_timestamp(node)
    except (ValueError, OverflowError):
        raise ConstructorError(None, None, f"“{excerpt(str(node.value))}” looks like a date but is not a real one "
                               "(write a real date, or put the text in quotes)", node.start_mark) from None


class LimitExceeded(yaml.YAMLError):
    """A document beyond the limits (its message says which, with its line)."""


class LimitedLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` whose whole numbers and dates are bounded (``safe_int``, ``safe_timestamp``)."""


LimitedLoader.add_constructor("tag:yaml.org,2002:int", safe_int)
LimitedLoader.add_constructor("tag:yaml.org,2002:timestamp", safe_timestamp)


def load(text: str) -> object:
    """``text`` as YAML within the limits: what ``yaml.safe_load`` gives, or a ``yaml.YAMLError`` (``LimitExceeded``
    for a limit broken, checked before any node is built) — never RecursionError or ValueError. Every YAML a user
    types goes through here (the loader's own loader extends ``LimitedLoader``)."""
    too_big = check(text)
    if too_big is not None:
        raise LimitExceeded(too_big)
    loader = LimitedLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()
