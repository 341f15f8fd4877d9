"""YAML text in, plain data out: safe, within fixed limits, duplicate keys refused."""
from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import yaml

from rules_engine import yaml_limits
from rules_engine.errors import DefinitionError, DefinitionErrors


class _StrictLoader(yaml_limits.LimitedLoader):
    """yaml_limits.LimitedLoader that also refuses duplicate keys in a mapping (PyYAML silently keeps the last one)."""

    duplicate_keys: list[tuple[int, str]]


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Hashable, Any]:
    """A YAML mapping, noting a key seen twice in it."""
    seen: set[object] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        if isinstance(key, Hashable) and key in seen:
            loader.duplicate_keys.append((key_node.start_mark.line + 1, str(key)))
        if isinstance(key, Hashable):
            seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_yaml(text: str, filename: str) -> object:
    """Parse YAML safely (no object construction) within fixed limits (``yaml_limits``: depth, expanded size, scalars),
    reporting syntax errors and duplicate keys."""
    too_big = yaml_limits.check(text)
    if too_big is not None:
        raise DefinitionErrors([DefinitionError(filename, "", f"refused: {too_big}")])
    loader = _StrictLoader(text)
    loader.duplicate_keys = []
    try:
        data = loader.get_single_data()
    except yaml.YAMLError as exc:
        raise DefinitionErrors([DefinitionError(filename, "", f"not valid YAML: {exc}")]) from None
    finally:
        loader.dispose()
    if loader.duplicate_keys:
        raise DefinitionErrors(
            [
                DefinitionError(filename, f"line {line}", f"key {key!r} appears twice in the same mapping")
                for line, key in loader.duplicate_keys
            ]
        )
    return data
