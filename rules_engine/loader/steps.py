"""The between-scenario steps and the Idle rule (docs/cg-format.md "steps", "idle")."""
from __future__ import annotations

from collections.abc import Mapping

from rules_engine import step_kinds
from rules_engine.loader.checker import Checker, Context, kind_of
from rules_engine.loader.tables import read_params
from rules_engine.loader.words import ROUNDING, STEP_ACTIONS, STEP_ORDER_WORDS, STEP_REVEALED, STEP_SECRET, STEP_SIDES
from rules_engine.model import IdleRule, Step
from rules_engine.vocabulary import Automation, DiceKind, StepAction


def read_steps(c: Checker, value: object, path: str, ctx: Context) -> tuple[Step, ...]:
    """``steps``: the between-scenario sequence in order; each step's kind is derived from its action."""
    raw_steps = c.seq(value, path)
    ctx.step_refs = tuple(
        str(item["ref"]) for item in raw_steps if isinstance(item, dict) and isinstance(item.get("ref"), (str, int, float))
        and not isinstance(item.get("ref"), bool)
    )
    out = []
    refs = []
    for i, item in enumerate(raw_steps):
        p = f"{path}[{i}]"
        m = c.mapping(
            item,
            p,
            ("ref", "name"),
            ("markers", "loop_on_idle", "initial", "initial_only", "sides", "order", "secret", "revealed",
             "automation", "action", "params", "tables", "note", "board_rolls", "in_scenario"),
        )
        if m is None or "ref" not in m or "name" not in m:
            continue
        ref = c.text(m["ref"], f"{p}.ref", numbers=True)
        name = c.text(m["name"], f"{p}.name")
        markers = c.texts(m["markers"], f"{p}.markers") if "markers" in m else ()
        flags = {}
        for key in ("loop_on_idle", "initial", "initial_only"):
            flags[key] = bool(c.boolean(m[key], f"{p}.{key}")) if key in m else False
        sides = c.choice(m.get("sides", "simultaneous"), f"{p}.sides", STEP_SIDES)
        order: tuple[str, ...] = ()
        if "order" in m:
            allowed = (*STEP_ORDER_WORDS, *ctx.side_ids)
            order = c.refs(m["order"], f"{p}.order", allowed, "order entry")
            if sides != "ordered":
                c.error(f"{p}.order", "`order:` needs `sides: ordered`")
        elif sides == "ordered":
            c.error(p, "a step with `sides: ordered` needs `order:`")
        secret = c.choice(m.get("secret", "none"), f"{p}.secret", STEP_SECRET)
        revealed, revealed_at = "never", None
        if "revealed" in m:
            text = c.text(m["revealed"], f"{p}.revealed")
            if text is not None:
                if text.startswith("at-step"):
                    target = text.removeprefix("at-step").strip().strip('"')
                    if target not in ctx.step_refs:
                        c.error(f"{p}.revealed", f"unknown step {target!r}", ", ".join(ctx.step_refs))
                    else:
                        revealed, revealed_at = "at-step", target
                elif text in STEP_REVEALED:
                    revealed = text
                else:
                    c.error(f"{p}.revealed", f"unknown value {text!r}", ", ".join(STEP_REVEALED))
        action = _action(c, m["action"], f"{p}.action", ref) if "action" in m else None
        params = read_params(c, m, p)
        _balance_params(c, params, f"{p}.params", ctx)
        tables = c.refs(m["tables"], f"{p}.tables", ctx.tables, "table") if "tables" in m else ()
        derived = step_kinds.derive(action, tables, params)
        if "declare_first" in params:  # RR 2.524 / PHD C5.40: alternating declarations (rules_engine.recon_turns)
            c.ref(params["declare_first"], f"{p}.params.declare_first", ctx.side_ids, "side")
        if "losses" in params and not isinstance(params["losses"], bool):
            c.error(f"{p}.params.losses", f"expected true or false, got {kind_of(params['losses'])}", "true, false")
        if "board_part" in params and derived is not Automation.AUTOMATIC:
            c.error(f"{p}.params.board_part", "only an automatic step has a board part left to the players "
                    f"(this step is {derived.value}: the players do all of it)", "leave `board_part:` out")
        if "automation" in m:  # optional; when written it must say what the step's action makes it
            declared = c.choice(m["automation"], f"{p}.automation", [a.value for a in Automation])
            if declared is not None and declared != derived.value:
                c.error(f"{p}.automation", f"step {ref}: {declared!r} contradicts what the app does: {step_kinds.why(action and action.value, tables, derived)}",
                        f"{derived.value} (or leave `automation:` out)")
        note = c.text(m["note"], f"{p}.note") if "note" in m else None
        board: tuple[DiceKind, ...] | None = None
        if "board_rolls" in m:
            board = tuple(DiceKind(k) for k in c.refs(m["board_rolls"], f"{p}.board_rolls", [k.value for k in DiceKind],
                                                       "dice kind"))
            if board and secret == "roll":
                c.error(f"{p}.board_rolls", "a step whose rolls are secret (`secret: roll`) has no public rolls at the "
                        "board", "board_rolls: [] or leave it out")
        in_scenario = bool(c.boolean(m["in_scenario"], f"{p}.in_scenario")) if "in_scenario" in m else False
        if in_scenario and (action or flags["initial_only"] or derived is not Automation.ON_BOARD):
            c.error(f"{p}.in_scenario", "a step played during the scenario is done on the board: no `action:`, "
                    "`initial_only:` or `automation:` other than on-board")
        if ref:
            refs.append((f"{p}.ref", ref))
        if ref and name and sides and secret:
            out.append(
                Step(ref, name, markers, flags["loop_on_idle"], flags["initial"], flags["initial_only"], sides, order,
                     secret, revealed, revealed_at, derived, action, params, tables, note, board,
                     in_scenario)
            )
    c.unique(refs, "step ref")
    return tuple(out)


def _action(c: Checker, value: object, path: str, ref: str | None) -> StepAction | None:
    """A step's action: one the engine knows (vocabulary.StepAction), never a misspelling read as an on-board step."""
    text = c.text(value, path, numbers=True)
    if text is None:
        return None
    if text not in STEP_ACTIONS:
        step = f"step {ref}: " if ref else ""
        c.error(path, f"{step}unknown action {text!r}", ", ".join(STEP_ACTIONS))
        return None
    return StepAction(text)


def _balance_params(c: Checker, params: Mapping[str, object], path: str, ctx: Context) -> None:
    """KGP 8.31 on a rolling step: ``balance_setting`` (a setting whose value names the side whose DR is changed, or
    ``none``), ``balance_halves: true`` (the DR is halved) and ``rounding`` (``down`` = FRD, ``up`` = FRU)."""
    if "balance_setting" not in params:
        if "balance_halves" in params:
            c.error(f"{path}.balance_halves", "`balance_halves` needs `balance_setting:` (the setting naming the side)")
        return
    setting_id = c.ref(params["balance_setting"], f"{path}.balance_setting", ctx.settings, "setting")
    if setting_id is not None:
        choices = ctx.settings[setting_id].choices
        allowed = ("none", *ctx.side_ids)
        odd = [choice for choice in choices if choice not in allowed]
        if not choices or odd:
            c.error(f"{path}.balance_setting", f"the setting {setting_id!r} must choose a side id or none "
                    f"(it offers {', '.join(choices) or 'no choices'})", ", ".join(allowed))
    if "balance_halves" not in params:
        c.error(path, "a balance on this step needs `balance_halves: true` (8.31: the Secret DR is halved)", "true")
    elif c.boolean(params["balance_halves"], f"{path}.balance_halves") is False:
        c.error(f"{path}.balance_halves", "false leaves the balance without effect; the only change the rules know "
                "is halving (8.31)", "true")
    if "rounding" not in params:
        c.error(path, "a halved DR needs `rounding:` (down = FRD, up = FRU)", ", ".join(ROUNDING))
    else:
        c.choice(params["rounding"], f"{path}.rounding", ROUNDING)


def read_idle(c: Checker, value: object, path: str, ctx: Context) -> IdleRule | None:
    """``idle``: what happens when no side attacks (Idle Date, Idle Firefight, Lull)."""
    m = c.mapping(value, path, ("name", "loop"), ("steps", "then", "note"))
    if m is None or "name" not in m or "loop" not in m:
        return None
    name = c.text(m["name"], f"{path}.name")
    loop = c.choice(m["loop"], f"{path}.loop", ("steps-marked-loop", "listed-steps"))
    steps = c.refs(m["steps"], f"{path}.steps", ctx.step_refs, "step") if "steps" in m else ()
    if loop == "listed-steps" and "steps" not in m:
        c.error(path, "`loop: listed-steps` needs `steps:`")
    then = c.choice(m.get("then", "next-date"), f"{path}.then", ("next-date",))
    note = c.text(m["note"], f"{path}.note") if "note" in m else None
    if name and loop and then:
        return IdleRule(name, loop, steps, then, note)
    return None
