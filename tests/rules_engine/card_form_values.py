"""TEST DATA — not from any published rule text. The ER and KGP values-only cards (tests/campaigns_app/cards/
er-values-test.yaml, kgp-values-test.yaml) typed into the CG Card form field by field, with no YAML box: the RePh
steps, currencies, initiative matrix, Idle rule, Fortification table (ER), set-up costs (KGP), calendar, OB and RG charts with their units. Every number is invented.
"""
from __future__ import annotations

from collections.abc import Mapping


def _step(n: int, ref: str, name: str, *, sides: str = "simultaneous", initial: bool = False, loop: bool = False,
          secret: str = "none", revealed: str = "", action: str = "", **params: str) -> dict[str, str]:
    p = f"steps.{n}"
    out = {f"{p}._row": "1", f"{p}.ref": ref, f"{p}.name": name, f"{p}.sides": sides, f"{p}.secret": secret,
           f"{p}.revealed": revealed, f"{p}.action": action}
    if initial:
        out[f"{p}.initial"] = "true"
    if loop:
        out[f"{p}.loop_on_idle"] = "true"
    out.update({f"{p}.params.{k}": v for k, v in params.items()})
    return out


def _currencies(cpp_ref: str, fpp_ref: str) -> dict[str, str]:
    return {"currencies.0._row": "1", "currencies.0.code": "CPP", "currencies.0.name": "Campaign Purchase Points",
            "currencies.0.carry_over": "true", "currencies.0.ref": cpp_ref, "currencies.0.note": "",
            "currencies.1._row": "1", "currencies.1.code": "FPP", "currencies.1.name": "Fortification Purchase Points",
            "currencies.1.carry_over": "false", "currencies.1.ref": fpp_ref, "currencies.1.note": ""}


def _initiative(ref: str, allied: str, axis: str, axis_name: str) -> dict[str, str]:
    p = "initiative.matrix"
    return {"initiative.ref": ref, "initiative.mode": "chit",
            f"{p}.attack/attack.result": "dual-attack", f"{p}.attack/attack.label": "Dual Attack",
            f"{p}.attack/attack.setup_first": allied, f"{p}.attack/attack.moves_first": axis,
            f"{p}.attack/idle.result": "axis-assault", f"{p}.attack/idle.label": f"{axis_name} Attack",
            f"{p}.attack/idle.setup_first": allied, f"{p}.attack/idle.moves_first": axis,
            f"{p}.idle/attack.result": "allied-assault", f"{p}.idle/attack.label": "U.S. Attack",
            f"{p}.idle/attack.setup_first": axis, f"{p}.idle/attack.moves_first": allied,
            f"{p}.idle/idle.result": "idle", f"{p}.idle/idle.label": "Idle Date",
            "idle.name": "Idle Date", "idle.loop": "steps-marked-loop", "idle.then": "next-date"}


def _rg_row(chart: int, m: int, rg_id: str, group: str, cost: str, date_max: str, cg_max: str,
            units: tuple[tuple[str, str], ...] = (), gives_fpp: str = "") -> dict[str, str]:
    p = f"rg_charts.{chart}.rows.{m}"
    out = {f"{p}._row": "1", f"{p}.id": rg_id, f"{p}.type": rg_id[0], f"{p}.group_type": group, f"{p}.cost": cost,
           f"{p}.date_max": date_max, f"{p}.cg_max": cg_max}
    for k, (count, unit) in enumerate(units):
        out |= {f"{p}.full.{k}._row": "1", f"{p}.full.{k}.count": count, f"{p}.full.{k}.unit": unit}
    if gives_fpp:
        out[f"{p}.gives.FPP"] = gives_fpp
    return out


def _chart(n: int, side: str, ref: str, name: str) -> dict[str, str]:
    p = f"rg_charts.{n}"
    return {f"{p}._row": "1", f"{p}.side": side, f"{p}.ref": ref, f"{p}.name": name, f"{p}.columns.cost": "CPP Cost",
            f"{p}.columns.date_max": "CG Date Max", f"{p}.columns.cg_max": "CG Max"}


ER_FORM: dict[str, str] = {
    "id": "test-er-form", "name": "TEST DATA — ER values-only card typed in the form",
    "source": "Invented for tests (card builder)",
    **_currencies("CG7", "1.520"),
    **_step(0, "1.516", "CPP Replenishment", loop=True, secret="roll", revealed="never",
            action="replenish-base-minus-dr", currency="CPP", dice="DR", base="calendar.base_numbers"),
    **_step(1, "1.518", "Purchasing RG", initial=True, loop=True, secret="purchase", revealed="never",
            action="purchase-rg", currency="CPP"),
    **_step(2, "1.520", "Purchasing Fortifications", initial=True, loop=True, secret="purchase", revealed="never",
            action="purchase-fortifications", currency="FPP"),
    **_step(3, "1.522", "Initiative", loop=True, secret="choice", action="initiative"),
    **_step(4, "1.5232", "Paths revealed before scenario setup", sides="none", action="on-board"),
    "fortifications.ref": "1.520", "fortifications.currency": "FPP",
    "fortifications.rows.0._row": "1", "fortifications.rows.0.type": "Jungle Path", "fortifications.rows.0.cost": "3",
    "fortifications.rows.1._row": "1", "fortifications.rows.1.type": "Foxhole", "fortifications.rows.1.cost": "2",
    **_initiative("1.522", "us", "japanese", "Japanese"),
    "calendar.0._row": "1", "calendar.0.id": "D1 AM", "calendar.0.initial": "true",
    "calendar.0.base_numbers.us": "0", "calendar.0.base_numbers.japanese": "0",
    "calendar.1._row": "1", "calendar.1.id": "D1 Night", "calendar.1.night": "true",
    "calendar.1.base_numbers.us": "40", "calendar.1.base_numbers.japanese": "30",
    "initial_ob.ref": "Initial Scenario (TEST DATA)",
    "initial_ob.sides.us.elr": "4", "initial_ob.sides.us.san": "3",
    "initial_ob.sides.japanese.elr": "5", "initial_ob.sides.japanese.san": "4",
    **_chart(0, "us", "1.518", "U.S. RG Chart (TEST DATA)"),
    **_rg_row(0, 0, "I1", "Marine Rifle Pl", "9", "2", "6", (("3", "6-6-8"),)),
    **_rg_row(0, 1, "O1", "60mm FPF Barrage", "4", "1", "3"),
    **_rg_row(0, 2, "M1", "Fortifications", "2", "1", "3", gives_fpp="10"),
    **_chart(1, "japanese", "1.518", "Japanese RG Chart (TEST DATA)"),
    **_rg_row(1, 0, "I1", "Rifle Pl", "7", "2", "6", (("3", "4-4-7"), ("1", "9-1"))),
    **_rg_row(1, 1, "O2", "Pre-Game Bombardment", "6", "1", "3"),
}

KGP_FORM: dict[str, str] = {
    "id": "test-kgp-form", "name": "TEST DATA — KGP values-only card typed in the form",
    "source": "Invented for tests (card builder)",
    **_currencies("8.619", "8.621"),
    **_step(0, "8.603", "CG-Scenario End and CG-LVP Totals"),
    **_step(1, "8.616", "The Secret DR", loop=True, secret="roll", revealed="never",
            action="replenish-base-minus-dr", currency="CPP", base="calendar.base_numbers"),
    **_step(2, "8.619", "Purchasing RG", initial=True, loop=True, secret="purchase", revealed="never",
            action="purchase-rg", currency="CPP"),
    **_step(3, "8.623", "Initiative", loop=True, secret="choice", revealed="never", action="initiative"),
    **_step(4, "8.624", "Setup", sides="none", action="on-board"),
    **_initiative("8.623", "us", "german", "German"),
    "setup_costs.ref": "8.6194",
    "setup_costs.modes.0._row": "1", "setup_costs.modes.0.mode": "on-map", "setup_costs.modes.0.ref": "8.6194",
    "setup_costs.modes.0.by_type.I": "2",
    "setup_costs.modes.1._row": "1", "setup_costs.modes.1.mode": "entry",
    "calendar.0._row": "1", "calendar.0.id": "18 AM", "calendar.0.initial": "true", "calendar.0.map_groups": "St",
    "calendar.0.base_numbers.us": "0", "calendar.0.base_numbers.german": "0",
    "calendar.1._row": "1", "calendar.1.id": "18 PM", "calendar.1.map_groups": "St",
    "calendar.1.base_numbers.us": "35", "calendar.1.base_numbers.german": "45",
    **_chart(0, "us", "8.619", "U.S. RG Chart (TEST DATA)"),
    **_rg_row(0, 0, "I1", "Rifle Pl", "10", "2", "6", (("3", "6-6-7"),)),
    **_rg_row(0, 1, "O1", "81mm OBA", "4", "1", "3"),
    **_chart(1, "german", "8.619", "German RG Chart (TEST DATA)"),
    **_rg_row(1, 0, "I1", "Gren Pl", "8", "2", "6", (("3", "4-6-7"),)),
    **_rg_row(1, 1, "O1", "Bombardment", "6", "1", "2"),
}


def form_over(start: Mapping[str, str], values: Mapping[str, str]) -> dict[str, str]:
    """The new-card form with its offered step, currency, calendar and RG rows replaced by ``values`` (as a player
    removes the rows the form starts with and types the printed ones)."""
    kept = {k: v for k, v in start.items()
            if not k.startswith(("steps.", "currencies.", "calendar.", "rg_charts.", "fortifications.rows.",
                                      "setup_costs.modes."))}
    return {**kept, **values}
