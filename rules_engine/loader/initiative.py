"""The initiative: the chit matrix, chit limits and the Dual Attack order rolls (RR 2.522, PL 2.41)."""
from __future__ import annotations

from rules_engine.loader.checker import Checker, Context, kind_of
from rules_engine.loader.tables import read_roll_range
from rules_engine.loader.words import MATRIX_RESULTS
from rules_engine.model import Initiative, MatrixCell, OrderRoll, OrderRollRow, Row
from rules_engine.vocabulary import Chit, DiceKind, SideId


def _order_roll(c: Checker, value: object, path: str, ctx: Context) -> OrderRoll | None:
    """A Dual Attack set-up or move-order roll: contiguous rows of finals, each naming the side it favours."""
    m = c.mapping(value, path, ("ref", "dice", "roller", "rows"))
    if m is None or len(m) < 4:
        return None
    ref = c.text(m["ref"], f"{path}.ref", numbers=True)
    dice = c.choice(m["dice"], f"{path}.dice", [k.value for k in DiceKind])
    roller = c.ref(m["roller"], f"{path}.roller", ctx.side_ids, "side")
    rows: list[OrderRollRow] = []
    items = c.seq(m["rows"], f"{path}.rows")
    for i, item in enumerate(items):
        p = f"{path}.rows[{i}]"
        rm = c.mapping(item, p, ("result",), ("label", "min", "max", "edge", "verify", "note"))
        if rm is None or "result" not in rm:
            continue
        lo, hi = read_roll_range(c, rm, p, i, len(items))
        result = c.ref(rm["result"], f"{p}.result", ctx.side_ids, "side")
        edge = c.choice(rm.get("edge", "legible"), f"{p}.edge", ("legible", "interpreted"))
        verify = c.boolean(rm["verify"], f"{p}.verify") if "verify" in rm else False
        row_label = c.text(rm["label"], f"{p}.label", numbers=True) if "label" in rm else None
        row_note = c.text(rm["note"], f"{p}.note") if "note" in rm else None
        if result is None:
            continue
        probe = Row(lo, hi, None, ())
        rows.append(OrderRollRow(lo, hi, result, row_label or probe.range_text, edge == "interpreted", bool(verify),
                                 row_note))
    for i in range(1, len(rows)):
        prev, row = rows[i - 1], rows[i]
        if prev.max is not None and row.min is not None and row.min != prev.max + 1:
            c.error(f"{path}.rows[{i}]", f"rows are not contiguous (previous row ends at {prev.max}, this starts at {row.min})")
    if ref and dice and roller and rows and len(rows) == len(items):
        return OrderRoll(ref, DiceKind(dice), roller, tuple(rows))
    return None


def read_initiative(c: Checker, value: object, path: str, ctx: Context) -> Initiative | None:
    """``initiative``: the chit matrix over the four Attack/Idle pairs, chit limits and order rolls."""
    m = c.mapping(value, path, ("ref", "mode", "matrix"), ("choices", "chit_limits", "dual_attack", "chosen_at"))
    if m is None or "ref" not in m or "mode" not in m or "matrix" not in m:
        return None
    ref = c.text(m["ref"], f"{path}.ref", numbers=True)
    mode = c.choice(m["mode"], f"{path}.mode", ("chit", "purchase"))
    choices = [Chit.ATTACK.value, Chit.IDLE.value]
    if "choices" in m:
        given = c.texts(m["choices"], f"{path}.choices")
        if sorted(given) != sorted(choices):
            c.error(f"{path}.choices", f"the choices are {', '.join(given) or 'none'}", "attack, idle")
    matrix: dict[tuple[Chit, Chit], MatrixCell] = {}
    wanted = [f"{a}/{b}" for a in choices for b in choices]
    raw_matrix = m["matrix"]
    if not isinstance(raw_matrix, dict):
        c.error(f"{path}.matrix", f"expected a mapping keyed \"<axis choice>/<allied choice>\", got {kind_of(raw_matrix)}")
        raw_matrix = {}
    for key, raw in raw_matrix.items():
        name = str(key)
        p = f"{path}.matrix.{name}"
        if name not in wanted:
            c.error(p, f"unknown matrix key {name!r} (keys are \"<axis choice>/<allied choice>\")", ", ".join(wanted))
            continue
        cm = c.mapping(raw, p, ("result", "label"), ("setup_first", "moves_first"))
        if cm is None or "result" not in cm or "label" not in cm:
            continue
        result = c.choice(cm["result"], f"{p}.result", MATRIX_RESULTS)
        label = c.text(cm["label"], f"{p}.label")
        setup = c.ref(cm["setup_first"], f"{p}.setup_first", ctx.side_ids, "side") if "setup_first" in cm else None
        moves = c.ref(cm["moves_first"], f"{p}.moves_first", ctx.side_ids, "side") if "moves_first" in cm else None
        axis, allied = name.split("/")
        if result and label:
            matrix[(Chit(axis), Chit(allied))] = MatrixCell(result, label, setup, moves)
    absent = [key for key in wanted if key not in {str(k) for k in raw_matrix}]
    if absent:
        c.error(f"{path}.matrix", f"the matrix does not cover {', '.join(absent)}", "all four: " + ", ".join(wanted))
    limits: dict[SideId, int] = {}
    limits_ref = ""
    initial_counts = False
    if "chit_limits" in m:
        raw_limits = m["chit_limits"]
        lp = f"{path}.chit_limits"
        if not isinstance(raw_limits, dict):
            c.error(lp, f"expected a mapping of side ids to numbers, got {kind_of(raw_limits)}")
        else:
            for key, raw in raw_limits.items():
                name = str(key)
                if name == "ref":
                    limits_ref = c.text(raw, f"{lp}.ref", numbers=True) or ""
                elif name == "initial_counts":
                    initial_counts = bool(c.boolean(raw, f"{lp}.initial_counts"))
                elif name in ctx.side_ids:
                    number = c.integer(raw, f"{lp}.{name}", minimum=0)
                    if number is not None:
                        limits[name] = number
                else:
                    c.error(f"{lp}.{name}", f"chit limit for unknown side {name!r}", ", ".join((*ctx.side_ids, "ref", "initial_counts")))
    setup_roll = move_roll = None
    if "dual_attack" in m:
        dm = c.mapping(m["dual_attack"], f"{path}.dual_attack", (), ("setup", "move"))
        if dm is not None:
            setup_roll = _order_roll(c, dm["setup"], f"{path}.dual_attack.setup", ctx) if "setup" in dm else None
            move_roll = _order_roll(c, dm["move"], f"{path}.dual_attack.move", ctx) if "move" in dm else None
    chosen_at = c.ref(m["chosen_at"], f"{path}.chosen_at", ctx.step_refs, "step") if "chosen_at" in m else None
    if ref and mode and len(matrix) == 4:
        return Initiative(ref, mode, matrix, limits, limits_ref, initial_counts, setup_roll, move_roll, chosen_at)
    return None
