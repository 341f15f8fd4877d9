"""Record forms, special rules and the parts a system leaves to the CG Card."""
from __future__ import annotations

from rules_engine.loader.checker import Checker
from rules_engine.loader.tables import read_params
from rules_engine.loader.words import CARD_PARTS, FORM_PER, FORM_VISIBILITY, WORD_PATTERN
from rules_engine.model import Form, FormColumn, MissingPart, SpecialRule


def read_forms(c: Checker, value: object, path: str) -> tuple[Form, ...]:
    """``forms``: the record forms, each column with who may see it."""
    out = []
    ids = []
    for p, m in c.entries(value, path, ("id", "name", "per", "columns"), ("ref", "header_fields", "note"), label="id"):
        ident = c.ident(m["id"], f"{p}.id", "form id")
        name = c.text(m["name"], f"{p}.name")
        per = c.choice(m["per"], f"{p}.per", FORM_PER)
        columns = []
        col_ids = []
        for cp, cm in c.entries(m["columns"], f"{p}.columns", ("id", "label", "visibility")):
            cid = c.ident(cm["id"], f"{cp}.id", "column id", WORD_PATTERN)
            label = c.text(cm["label"], f"{cp}.label", numbers=True)
            vis = c.choice(cm["visibility"], f"{cp}.visibility", FORM_VISIBILITY)
            if cid:
                col_ids.append((f"{cp}.id", cid))
            if cid and label and vis:
                columns.append(FormColumn(cid, label, FORM_VISIBILITY[vis]))
        c.unique(col_ids, "form column id")
        ref = c.text(m["ref"], f"{p}.ref", numbers=True) if "ref" in m else None
        header = c.texts(m["header_fields"], f"{p}.header_fields") if "header_fields" in m else ()
        note = c.text(m["note"], f"{p}.note") if "note" in m else None
        if ident:
            ids.append((f"{p}.id", ident))
        if ident and name and per:
            out.append(Form(ident, name, per, tuple(columns), ref, header, note))
    c.unique(ids, "form id")
    return tuple(out)


def read_special_rules(c: Checker, value: object, path: str) -> tuple[SpecialRule, ...]:
    """``special_rules``: each rule's text as printed and the params the engine reads."""
    out = []
    ids = []
    for p, m in c.entries(value, path, ("id", "ref", "name", "text"), ("enforced", "params"), label="id"):
        ident = c.ident(m["id"], f"{p}.id", "rule id")
        ref = c.text(m["ref"], f"{p}.ref", numbers=True)
        name = c.text(m["name"], f"{p}.name")
        text = c.text(m["text"], f"{p}.text")
        enforced = c.boolean(m["enforced"], f"{p}.enforced") if "enforced" in m else False
        params = read_params(c, m, p)
        if ident:
            ids.append((f"{p}.id", ident))
        if ident and ref and name and text:
            out.append(SpecialRule(ident, ref, name, text, bool(enforced), params))
    c.unique(ids, "special rule id")
    return tuple(out)


def read_missing_parts(c: Checker, value: object, path: str) -> tuple[MissingPart, ...]:
    """``missing_parts``: the parts (or one item of a part) a system leaves to the CG Card."""
    out = []
    for p, m in c.entries(value, path, ("part", "note"), ("id",)):
        part = c.choice(m["part"], f"{p}.part", CARD_PARTS)
        note = c.text(m["note"], f"{p}.note")
        ident = c.text(m["id"], f"{p}.id", numbers=True) if "id" in m else None
        if part and note:
            out.append(MissingPart(part, note, ident))
    return tuple(out)
