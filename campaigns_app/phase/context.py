"""What the live page shows of the between-scenario phase for one seat, from its side's SideView only."""
from __future__ import annotations

from typing import Any

from campaigns_app import door, engine
from campaigns_app.engine import System
from campaigns_app.form_tokens import form_token
from campaigns_app.models import Campaign, Seat
from campaigns_app.phase import order_forms
from campaigns_app.phase.board import assisted_tables, board_context, group_board, scenario_roll_forms
from campaigns_app.phase.orders import balance, fort_rows, has_chart, nothing_to_buy, recon_context, rg_rows
from campaigns_app.phase.results import differ_rows, group_results_form, lvp_recorders, results_rows
from campaigns_app.phase.step_records import (
    describe_record,
    recon_inspection,
    recon_turn,
    record_line,
    with_step_cautions,
)
from campaigns_app.phase.steps import checklist, side_list, step_kind_label
from rules_engine.board import PURPOSE_MAX, REPAIR_DRM
from rules_engine.ledger import amount_text
from rules_engine.losses import counts_leaders, records_losses
from rules_engine.results import scenario_victory_conditions
from rules_engine.sequence import main_currency
from rules_engine.view import SideView


def phase_context(campaign: Campaign, seat: Seat, system: System, side_view: SideView, both_seated: bool
                  ) -> dict[str, Any]:
    """What the live page shows of the between-scenario phase for ``seat`` (its own side only: its SideView)."""
    view: Any = side_view.json
    if not view.get("started"):
        return {"started": False}
    side = seat.side
    opponent = view["opponent"]
    phase = view["phase"]
    step = side_view.current_step
    kind = phase.get("kind")
    ledger = side_view.ledger
    panel = "none"
    if view.get("ended"):
        panel = "ended"
    elif side_view.step == "results":
        panel = "results"
    elif side_view.step == "initiative":
        panel = "initiative"
    elif side_view.step in ("initial-scenario", "scenario"):
        panel = "scenario"
    elif step is not None:
        if kind == "input":
            panel = {"purchase-fortifications": "fortifications", "purchase-recon": "recon",
                     "purchase-patrols": "patrols"}.get(step.action or "", "order")
        elif kind == "assisted":
            panel = "assisted"
        elif kind == "automatic":
            panel = "automatic"
        else:
            panel = "on-board"
    waiting_for = side_view.waiting_for
    you_done = side_view.you_done
    currency = main_currency(system)
    balances = []
    if ledger is not None:
        codes = [c.code for c in system.currencies]
        for code in codes:
            balances.append({"code": code, "amount": amount_text(ledger.balance(code)),
                             "main": code == currency})
    own_records = with_step_cautions(
        [r for r in (describe_record(system, e, side) for e in view.get("records", [])) if r])
    step_records = [r for r in own_records if r.get("step") == side_view.phase_ref]
    # the rolls at this step: the viewer's own, and the opponent's where the step's rolls are public (RR 2.504 …)
    step_rolls = [r for r in step_records if r.get("breakdown") and r.get("you")]
    opponent_step_rolls = [r for r in step_records if r.get("breakdown") and not r.get("you")]
    needs = door.needs(side_view)
    inspection = recon_inspection(system, side_view.date_id, step, ledger)
    # what a side types is seen by both when the step is not secret (RR 2.512: each side announces its SAN, 2.525)
    needs_public = bool(needs) and step is not None and str(step.secret or "none") == "none" and all(
        n.get("public") for n in needs if n["kind"] == "table-value")
    context: dict[str, Any] = {
        "started": True,
        "pass": phase.get("pass"),
        "title": getattr(system.between_phase, "name", None) or "Between scenarios",
        "checklist": checklist(system, view, side),
        "panel": panel if both_seated else "waiting",
        "step": step,
        "step_ref": side_view.phase_ref,
        "kind": kind,
        "kind_label": (step_kind_label(system, {"ref": step.ref, "kind": kind, "secret": step.secret},
                                       side_view.pass_kind == "initial")[0] if step is not None else ""),
        "you_done": you_done,
        "opponent_done": side_view.opponent_done,
        "waiting_for": engine.side_name(system, waiting_for) if waiting_for else None,
        "needs": needs,
        "roll_questions": list(phase.get("roll_questions") or []),  # this side's own (view_for)
        "records_losses": records_losses(step),
        "losses_leaders": records_losses(step) and counts_leaders(system),
        "recon_turn": recon_turn(system, side_view.recon_turn),
        "needs_public": needs_public,
        "needs_public_names": " and ".join(str(n["id"]).upper() for n in needs if n["kind"] == "track"),
        "opponent_needs": door.opponent_needs(side_view),
        "records": own_records,
        "record_lines": tuple(record_line(r) for r in own_records),  # what the step-records card prints of them
        "step_records": step_records,
        "step_rolls": step_rolls,
        "recon_inspection": inspection,
        "purpose_max": PURPOSE_MAX,
        "opponent_step_rolls": opponent_step_rolls,
        "balances": balances,
        "currency": currency,
        "results": view["results"],
        "sides": [{"id": s, "name": engine.side_name(system, s), "you": s == side} for s in engine.side_ids(system)],
        "end_proposals": view.get("end_proposals") or {},
        "cg_end": view.get("cg_end"),
        "this_date_purchases": [p for p in (view.get("ledger") or {}).get("purchases", []) if p.get("date_id") == side_view.date_id],
        "you_proposed": bool((view.get("end_proposals") or {}).get(side)),
        "opponent_proposed": bool((view.get("end_proposals") or {}).get(opponent)),
        "end_reason": view.get("end_reason"),
        "end_claimant_name": engine.side_name(system, view["end_claimant"]) if view.get("end_claimant") else None,
        "points_left": balance(ledger, currency),
    }
    groups = view.get("map_groups") or []
    context["map_groups"] = groups
    if panel in ("scenario", "assisted", "on-board") and both_seated:
        # the "Mark finished" form names the step occurrence it finishes (services.phase_mark_done)
        context["done_step"] = side_view.current_step_ref
        context["done_token"] = form_token(campaign, seat, side_view.forms, "done")
    if panel == "scenario" and both_seated and groups:
        # KGP 8.2: one scenario per Map Group in play, each marked finished on its own form
        context["scenario_groups"] = [
            {**group, "you_done": bool(group["scenario_done"].get(side)),
             "opponent_done": bool(group["scenario_done"].get(opponent)),
             "token": form_token(campaign, seat, side_view.forms, "done", group["id"])}
            for group in groups
        ]
    if panel == "on-board" and both_seated:
        context["run_steps"] = [{"ref": s.ref, "name": s.name, "option": order_forms.chosen_option(system, s)}
                                for s in side_view.board_run]
        context["run_label"] = f"Mark these {len(context['run_steps'])} steps finished"
    context["chosen_option"] = order_forms.chosen_option(system, step)
    if both_seated and step is not None and not view.get("ended"):
        context["repair_rows"] = order_forms.repair_rows(system, step)
        if context["repair_rows"]:
            context["repair_token"] = form_token(campaign, seat, side_view.forms, "board")
            context["repair_drm"] = REPAIR_DRM
            context["purpose_max"] = PURPOSE_MAX
    if panel in ("order", "fortifications", "recon", "patrols"):
        context["order_token"] = form_token(campaign, seat, side_view.forms, "recon" if panel == "recon" else "order")
    if panel == "order" and step is not None:
        context["attack_option"] = order_forms.attack_option(system, side_view, step, currency)
    if panel == "patrols":
        context["patrols"] = order_forms.patrol_purchase(system, side_view, currency)
    if both_seated and step is not None and not view.get("ended"):
        context["resolution_choice"] = order_forms.resolution_choice(system, side_view)
        if context["resolution_choice"] and context["resolution_choice"]["you_choose"]:
            context["first_token"] = form_token(campaign, seat, side_view.forms, "first")
    if panel == "order" and step is not None:
        context["rg_rows"] = rg_rows(system, side, ledger, side_view.date_id, side_view.date_index,
                                      initial=side_view.pass_kind == "initial", chit=side_view.chits.own)
        context["setup_note"] = system.setup_costs.note if system.setup_costs else None
        context["chart"] = system.rg_chart(side) if has_chart(system, side) else None
        context["nothing_to_buy"] = nothing_to_buy(context["rg_rows"], ledger, currency)
        context["initial_ob_missing"] = (
            side_view.pass_kind == "initial" and system.initial_ob is None
            and any(m.part == "initial_ob" for m in system.missing_parts))
        context["system_short"] = str(system.id).upper()
    if panel == "fortifications":
        context["fort_rows"] = fort_rows(system, side, side_view.pass_kind == "initial")
        table = system.fortifications
        context["fort_currency"] = table.currency if table is not None else None
        context["fort_ref"] = table.ref if table is not None else None
        context["fort_forfeit"] = bool(table and table.forfeit_unspent)
        context["fort_points"] = balance(ledger, table.currency if table is not None else None)
        context["points_purchase"] = order_forms.points_purchase(system, side, ledger)
    if panel == "recon" and step is not None:
        context["recon"] = recon_context(system, side_view, step, currency)
    if panel == "assisted" and step is not None:
        context["tables"] = assisted_tables(system, step, side)
        context["roll_token"] = form_token(campaign, seat, side_view.forms, "roll")
    board_view = view.get("board") or {}
    if both_seated and not view.get("ended") and (board_view.get("kinds") or board_view.get("log")):
        context["board"] = board_context(system, board_view, side)
        context["board"]["token"] = form_token(campaign, seat, side_view.forms, "board")
    if panel == "scenario" and both_seated:
        context["in_scenario_steps"] = [s for s in system.steps if s.in_scenario]
        context["scenario_rolls"] = scenario_roll_forms(system, board_view.get("scenario_rolls") or [], side)
        context["declarations"] = [dict(d) for d in side_view.declarations]
        if context.get("scenario_groups") and context.get("board"):
            # KGP 8.2: each Map Group's scenario has its own rolls (CG23: a Turn Record Chart on each Map Group)
            rolling = set(board_view.get("map_groups") or [])
            for group in context["scenario_groups"]:
                group["board"] = group_board(context["board"], group["id"], group["id"] in rolling)
    if panel == "results":
        has_vc, vc_rule = scenario_victory_conditions(system)
        context["winner_allowed"] = has_vc
        context["no_winner_rule"] = vc_rule
        own = view["results"].get("own")
        context["results_own"] = own
        context["results_differ"] = differ_rows(system, side, view["results"])
        lvp_sides, lvp_ref = lvp_recorders(system)
        context["lvp_ref"] = lvp_ref
        context["lvp_recorder_names"] = side_list(system, lvp_sides or []).replace(" then ", " and ")
        context["results_rows"] = results_rows(system, side, own, lvp_sides)
        if groups:
            context["result_forms"] = [group_results_form(system, side, group, lvp_sides) for group in groups]
        else:
            context["result_forms"] = [{
                "map_group": None, "prefix": "", "suffix": "", "own": own, "rows": context["results_rows"],
                "differ": context["results_differ"], "opponent_submitted": view["results"].get("opponent_submitted"),
                "agreed": None}]
    return context
