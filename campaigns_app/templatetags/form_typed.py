"""What the player typed into a refused form, put back into its fields (issue 9: nothing typed is lost)."""
from __future__ import annotations

from collections.abc import Mapping

from django import template

register = template.Library()


@register.simple_tag
def typed(values: Mapping[str, str] | None, prefix: str, key: object, default: object = "") -> object:
    """The value typed for ``prefix`` + ``key`` in a refused form, else ``default``."""
    if not values:
        return default
    return values.get(f"{prefix}{key}", default)


@register.simple_tag
def typed_selected(values: Mapping[str, str] | None, prefix: str, key: object, option: object) -> str:
    """``selected`` when the refused form had ``option`` chosen for ``prefix`` + ``key``."""
    return "selected" if values and values.get(f"{prefix}{key}") == str(option) else ""
