"""DRM facts Refit reads from its own records instead of asking the players: PL 3.47 "–2 per Friendly Elite Infantry
Pltn purchased in the previous CG Firefight" / "–1 per Friendly 1st Line Infantry Pltn …" are counted on the RG
Purchase Record, by the quality the CG Card prints on each RG line (``quality:``)."""
from __future__ import annotations

from rules_engine.errors import UnknownNameError
from rules_engine.ledger import SideLedger
from rules_engine.model import RG_QUALITIES, RgChart, RgRow, System

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
    try:
        chart = system.rg_chart(side)
    except UnknownNameError:
        return {}
    rows = {row.id: row for row in chart.rows}
    counts = {quality: 0 for quality in RG_QUALITIES}
    for line in ledger.purchases:
        row = rows.get(line.rg_id)
        if line.date_id != date_id or line.initial_ob or row is None or not is_infantry_platoon(chart, row):
            continue
        if row.quality is None:
            return {}
        counts[row.quality] += 1
    return {fact_name(quality): count for quality, count in counts.items()}
