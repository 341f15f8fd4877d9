"""The CG Card builder's check: form data → `refit-cg/1` text → the loader (card_services.card_check), each problem put
beside the field it belongs to (rules_engine.card_paths.field_for_path), and the sections the page shows.

Form field names mirror the document (rules_engine.card_schema): ``id``, ``name``, ``settings_values.<setting>[.<side>]``,
``calendar.<n>.<key>``, ``initial_ob.sides.<side>.points.<code>``, ``rg_charts.<n>.rows.<m>.<key>``,
``tables.<n>.rows.<m>.cells.<k>``, ``victory_conditions.conditions.<n>.<key>``, ``supply.<table>.<row>.<column>``,
``steps.<n>.<key>``, ``currencies.<n>.<key>``, ``initiative.matrix.<a>/<b>.<key>``, ``idle.<key>``
(rules_engine.card_parts), ``rg_charts.<n>.rows.<m>.full.<k>.<count|unit>``, ``other``; ``<prefix>.<n>._row`` keeps
an empty row.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from campaigns_app.cards.services import CardInvalid, Checked, Problem, card_check
from campaigns_app.engine import System
from campaigns_app.models import CgSystem
from rules_engine.card_build import form_to_document
from rules_engine.card_form import HEADER
from rules_engine.card_paths import card_yaml, field_for_path
from rules_engine.card_schema import Block, Field, Grid, card_sections

IGNORED = ("csrfmiddlewaretoken", "action")
MAX_FIELDS = 3000
MISSING_KEY = re.compile(r"^missing required key '([A-Za-z0-9_-]+)'")


def slot_id(name: str) -> str:
    """The id of the element that shows a field's problem (``calendar.2.weather`` → ``err-calendar-2-weather``)."""
    return "err-" + re.sub(r"[^A-Za-z0-9_-]", "-", name)


def input_id(name: str) -> str:
    return "f-" + re.sub(r"[^A-Za-z0-9_-]", "-", name)


def form_data(post: Any) -> dict[str, str]:
    """A POST as flat form data: the last value of each name (a ticked checkbox), without the CSRF token and action."""
    out: dict[str, str] = {}
    for key in list(post.keys())[:MAX_FIELDS]:
        if key in IGNORED:
            continue
        values = post.getlist(key) if hasattr(post, "getlist") else [post[key]]
        out[str(key)] = str(values[-1]) if values else ""
    return out


@dataclass
class BuilderCheck:
    """The outcome of checking the form: the YAML text made, problems by field and those no field holds."""

    text: str
    by_field: dict[str, list[str]] = field(default_factory=dict)
    general: list[Problem] = field(default_factory=list)
    checked: Checked | None = None

    @property
    def count(self) -> int:
        return sum(len(v) for v in self.by_field.values()) + len(self.general)


def check_form(cg_system: CgSystem, system: System, data: Mapping[str, str]) -> BuilderCheck:
    """Build the card from the form and check it exactly as an uploaded card is checked."""
    built = form_to_document(system, data)
    text = card_yaml(built.doc)
    result = BuilderCheck(text)
    for field_name, said in built.problems:
        result.by_field.setdefault(field_name, []).append(said)
    stand_in = dict(built.doc)  # the header's required texts, so that the loader goes on to check the rest
    for key, words in (("id", "the card's id, e.g. my-card"), ("name", "the card's name")):
        if not stand_in.get(key):
            result.by_field.setdefault(key, []).append(f"required: {words}")
            stand_in[key] = "unnamed-card" if key == "id" else "Unnamed card"
    problems: list[Problem] = []
    try:
        result.checked = card_check(card_yaml(stand_in), system_id=cg_system.id, filename="the card")
    except CardInvalid as error:
        problems = list(error.problems)
    if problems and "settings" not in stand_in:
        # the loader checks values only once the parts load: check the values alone too, so each shows at once
        alone = {k: v for k, v in stand_in.items() if k in (*HEADER, "settings_values", "supply")}
        try:
            card_check(card_yaml(alone), system_id=cg_system.id, filename="the card")
        except CardInvalid as error:
            problems += [p for p in error.problems if p not in problems]
    if problems:
        for problem in problems:
            path = problem.path
            missing = MISSING_KEY.match(problem.problem)
            if missing:
                path = f"{path}.{missing.group(1)}" if path else missing.group(1)
            target = field_for_path(built, path) if path else None
            message = problem.problem + (f" (allowed: {problem.allowed})" if problem.allowed else "")
            if target is not None:
                result.by_field.setdefault(target, []).append(message)
            else:
                result.general.append(problem)
    if result.by_field:
        result.checked = None
    return result


def _field(f: Field, errors: Mapping[str, list[str]], label: str = "") -> dict[str, Any]:
    return {"f": f, "id": input_id(f.name), "slot": slot_id(f.name), "errors": errors.get(f.name, []),
            "label": label or f.label,
            "checked": f.value.strip().lower() in ("true", "on", "1", "yes")}


def _grid(g: Grid, errors: Mapping[str, list[str]]) -> dict[str, Any]:
    rows = []
    for number, (n, fields) in enumerate(g.rows, start=1):
        rows.append({"n": n, "number": number, "prefix": f"{g.prefix}.{n}",
                     "fields": [_field(f, errors, f"{f.label}, row {number} of {g.title}") for f in fields]})
    return {"g": g, "rows": rows, "slot": slot_id(g.prefix), "errors": errors.get(g.prefix, [])}


def _block(b: Block, errors: Mapping[str, list[str]]) -> dict[str, Any]:
    return {"b": b, "fields": [_field(f, errors) for f in b.fields], "grids": [_grid(g, errors) for g in b.grids]}


def page_sections(system: System, data: Mapping[str, str], errors: Mapping[str, list[str]]) -> list[dict[str, Any]]:
    """The builder's sections, each field with its input id, problem slot id and problems."""
    out = []
    for s in card_sections(system, data):
        out.append({"s": s, "blocks": [_block(b, errors) for b in s.blocks], "slot": slot_id(f"section-{s.id}")})
    return out


def all_slots(sections: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every field and grid of the page (the validate answer refreshes each one's problem slot)."""
    out: list[dict[str, Any]] = []
    for section in sections:
        for block in section["blocks"]:
            out += block["fields"]
            for grid in block["grids"]:
                out.append(grid)
                for row in grid["rows"]:
                    out += row["fields"]
    return out


def place(result: BuilderCheck, sections: list[dict[str, Any]]) -> None:
    """Move the problems of fields the page does not show to the general list (nothing is lost)."""
    shown = {item["f"].name if "f" in item else item["g"].prefix for item in all_slots(sections)}
    for name in [n for n in result.by_field if n not in shown]:
        result.general += [Problem(name, message) for message in result.by_field.pop(name)]


__all__ = ["BuilderCheck", "all_slots", "check_form", "form_data", "input_id", "page_sections", "place",
           "slot_id"]
