"""A system's sides and settings (docs/cg-format.md "sides", "settings")."""
from __future__ import annotations

from rules_engine.loader.checker import Checker, Context
from rules_engine.loader.words import MATRIX_ROLES, SETTING_SOURCES, SETTING_TYPES, WORD_PATTERN
from rules_engine.model import Setting, SettingValue, Side


def read_sides(c: Checker, value: object, path: str) -> tuple[Side, ...]:
    """``sides``: exactly two, with different matrix roles (allied, axis)."""
    out = []
    items = c.seq(value, path)
    for i, item in enumerate(items):
        p = f"{path}[{i}]"
        m = c.mapping(item, p, ("id", "name", "nationality", "matrix_role"))
        if m is None or len(m) < 4:
            continue
        ident = c.ident(m["id"], f"{p}.id", "side id")
        name = c.text(m["name"], f"{p}.name")
        nationality = c.ident(m["nationality"], f"{p}.nationality", "nationality", WORD_PATTERN)
        role = c.choice(m["matrix_role"], f"{p}.matrix_role", MATRIX_ROLES)
        if ident and name and nationality and role:
            out.append(Side(ident, name, nationality, role))
    if len(items) != 2:
        c.error(path, f"a system has exactly two sides, found {len(items)}")
    elif len(out) == 2:
        if out[0].id == out[1].id:
            c.error(f"{path}[1].id", f"duplicate side id {out[1].id!r}")
        if out[0].matrix_role == out[1].matrix_role:
            c.error(f"{path}[1].matrix_role", "the two sides need different matrix roles", "allied, axis")
    return tuple(out)


def read_settings(c: Checker, value: object, path: str, ctx: Context) -> tuple[Setting, ...]:
    """``settings``: each id once; a choice setting lists its choices."""
    out = []
    ids = []
    for p, m in c.entries(
        value, path, ("id", "label"), ("type", "choices", "per_side", "source", "ref", "default", "range", "note"), label="id"
    ):
        ident = c.ident(m["id"], f"{p}.id", "setting id", WORD_PATTERN)
        label = c.text(m["label"], f"{p}.label")
        choices = c.texts(m["choices"], f"{p}.choices", numbers=True) if "choices" in m else ()
        kind = c.choice(m.get("type", "choice" if choices else "int"), f"{p}.type", SETTING_TYPES)
        if kind == "choice" and not choices:
            c.error(p, "a choice setting needs `choices:`")
        if kind != "choice" and choices:
            c.error(f"{p}.choices", f"`choices:` is only for a choice setting, this one is {kind}")
        per_side = c.boolean(m["per_side"], f"{p}.per_side") if "per_side" in m else False
        source = c.choice(m.get("source", "cg-card"), f"{p}.source", SETTING_SOURCES)
        ref = c.text(m["ref"], f"{p}.ref", numbers=True) if "ref" in m else None
        rng = read_range(c, m["range"], f"{p}.range") if "range" in m else None
        note = c.text(m["note"], f"{p}.note") if "note" in m else None
        default: SettingValue | None = None
        if "default" in m and kind is not None:
            default = read_setting_value(c, m["default"], f"{p}.default", kind, choices, rng)
        if ident and label and kind and source:
            setting = Setting(ident, label, kind, choices, bool(per_side), source, ref, default, rng, note)
            out.append(setting)
            ids.append((f"{p}.id", ident))
            ctx.settings.setdefault(ident, setting)
    c.unique(ids, "setting id")
    return tuple(out)


def read_range(c: Checker, value: object, path: str) -> tuple[int, int] | None:
    """A ``[lowest, highest]`` range of whole numbers."""
    items = c.seq(value, path)
    if len(items) != 2:
        c.error(path, "a range is two whole numbers [lowest, highest]")
        return None
    low = c.integer(items[0], f"{path}[0]")
    high = c.integer(items[1], f"{path}[1]")
    if low is None or high is None:
        return None
    if low > high:
        c.error(path, f"the range [{low}, {high}] is upside down")
        return None
    return (low, high)


def read_setting_value(
    c: Checker, value: object, path: str, kind: str, choices: tuple[str, ...], rng: tuple[int, int] | None
) -> SettingValue | None:
    """A value of a setting of this type (a choice, a whole number within range, true/false or text)."""
    if kind == "choice":
        return c.choice(value, path, choices)
    if kind == "int":
        number = c.integer(value, path)
        if number is not None and rng is not None and not rng[0] <= number <= rng[1]:
            c.error(path, f"{number} is out of range", f"{rng[0]} to {rng[1]}")
            return None
        return number
    if kind == "bool":
        return c.boolean(value, path)
    return c.text(value, path, numbers=True)
