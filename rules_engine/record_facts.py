"""DRM facts Refit reads from its own records instead of asking the players: PL 3.47 "–2 per Friendly Elite Infantry
Pltn purchased in the previous CG Firefight" / "–1 per Friendly 1st Line Infantry Pltn …" are counted on the RG
Purchase Record, by the quality the CG Card prints on each RG line (``quality:``)."""
from __future__ import annotations

from rules_engine.errors import UnknownNameError
from rules_engine.ledger import PurchaseLine, SideLedger
from rules_engine.model import RG_QUALITIES, RgChart, RgRow, System
from rules_engine.system_memo import SystemMemo

PLATOON_WORDS = ("platoon", "pltn")


def fact_name(quality: str) -> str:
    """The DRM fact counting the infantry platoons of ``quality`` bought on the date just played."""
    return f"{quality.replace('-', '_')}_platoons_purchased_previous"


def is_infantry_platoon(chart: RgChart, row: RgRow) -> bool:
    """2.36 "AFV/Infantry Platoon (Pltn, not Section)": an I RG whose group type says Platoon, or that gets a platoon
    leader DR (a chart note with a leader table)."""
    if row.type != "I" or row.company:
        return False
    if any(word in row.group_type.casefold() for word in PLATOON_WORDS):
        return True
    return any(chart.notes[n].leader_table for n in row.notes if n in chart.notes)


def platoons_purchased(system: System, ledger: SideLedger, side: str, date_id: str) -> dict[str, int]:
    """Each quality's count of infantry platoons bought (not OB-given) on ``date_id``; empty when one of them has no
    quality on its chart line (then the players are asked)."""
    purchases = ledger.purchases
    key = (id(purchases), id(system), side, date_id)
    found = _COUNTED.get(key)
    if found is None or found[0] is not purchases or found[1] is not system:
        if len(_COUNTED) >= 512:
            _COUNTED.clear()
        found = _COUNTED[key] = (purchases, system, _counted(system, purchases, side, date_id))
    return dict(found[2])  # the caller's own copy


def _counted(system: System, purchases: tuple[PurchaseLine, ...], side: str, date_id: str) -> dict[str, int]:
    platoons = _PLATOONS(system, side)
    if platoons is None:
        return {}
    counts = {quality: 0 for quality in RG_QUALITIES}
    for line in purchases:
        if line.date_id != date_id or line.initial_ob or line.rg_id not in platoons:
            continue
        quality = platoons[line.rg_id]
        if quality is None:
            return {}
        counts[quality] += 1
    return {_FACT_NAMES[quality]: count for quality, count in counts.items()}


def _platoons(system: System, side: str) -> dict[str, str | None] | None:
    """The side's infantry platoon RG (chart line id → its quality), None without an RG chart."""
    try:
        chart = system.rg_chart(side)
    except UnknownNameError:
        return None
    rows = {row.id: row for row in chart.rows}
    return {rg_id: row.quality for rg_id, row in rows.items() if is_infantry_platoon(chart, row)}


_PLATOONS = SystemMemo(_platoons).lookup
# per purchases tuple (frozen: a purchase makes a new one) and System, both kept alive with their entry
_COUNTED: dict[tuple[int, int, str, str], tuple[tuple[PurchaseLine, ...], System, dict[str, int]]] = {}
_FACT_NAMES = {quality: fact_name(quality) for quality in RG_QUALITIES}
