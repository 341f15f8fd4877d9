"""The order form's RG rows: each printed from its RgLine, the currency and whether nothing can be bought, rendered once
per process for the same seat and values; a refused form's typed values are printed through the same partial."""
from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from campaigns_app.phase.orders import ModeChoice, NoteChip, RgLine
from campaigns_app.templatetags.rendered_once import REMEMBERED
from rules_engine.model.rg_charts import PreRegistered

pytestmark = pytest.mark.usefixtures("nothing_remembered")  # the renderings store, empty around each test

# RR's RG O1 as the German chart prints it (2.518): 5 CPP, Date max 1, CG max 6, entering or on map
MORTARS = RgLine("O1", "Btln Mtr", "2 × 81mm MTR", "", "", (NoteChip("m", "Mortar <note>"),), (), "5", "1", "6", 0, 6, 1,
                 (ModeChoice("entry", "Enters", "5"), ModeChoice("on-map", "On map", "6")), PreRegistered(1, 2), None,
                 None)


def form(*lines: RgLine, typed: dict[str, str] | None = None, nothing: bool = False, seat: int = 7) -> str:
    rows = [{"id": line.id, "type": "O", "line": line} for line in lines]
    return render_to_string("campaigns/phase/order.html", {
        "phase": {"rg_rows": rows, "currency": "CPP", "nothing_to_buy": nothing, "points_left": 12},
        "seat": {"pk": seat}, "order_typed": typed or {}})


def test_a_row_prints_its_costs_limits_modes_notes_and_pre_registered_hexes() -> None:
    html = form(MORTARS)
    assert '<tr class="rg-row" data-rg="O1" data-cost-entry="5" data-cost-on-map="6" data-pre-cost="1">' in html
    assert '<td data-label="CPP" class="num cost">5</td>' in html
    assert '<td data-label="#R" class="num">6</td>' in html
    assert ('<input id="qty-O1" name="qty-O1" type="number" min="0" max="1" step="1" value="0" inputmode="numeric" '
            'class="input input-qty">') in html
    assert '<option value="entry" >Enters · 5</option><option value="on-map" >On map · 6</option>' in html
    assert 'title="Note m: Mortar &lt;note&gt;"' in html
    assert 'Pre-Reg. hexes <span class="muted">(1 each, max 2)</span>' in html


def test_nothing_to_buy_disables_the_quantity_and_typed_values_come_back_after_a_refusal() -> None:
    assert 'class="input input-qty" disabled>' in form(MORTARS, nothing=True)
    refused = form(MORTARS, typed={"qty-O1": "3", "mode-O1": "on-map", "pre-O1": "2"})
    assert 'name="qty-O1" type="number" min="0" max="1" step="1" value="3"' in refused
    assert '<option value="on-map" selected>On map · 6</option>' in refused
    assert 'name="pre-O1" type="number" min="0" max="2" value="2"' in refused


def test_a_row_already_rendered_for_the_seat_is_not_rendered_again_but_a_refused_form_is() -> None:
    form(MORTARS)
    form(MORTARS)
    assert (REMEMBERED.hits, REMEMBERED.misses) == (1, 1)
    form(MORTARS, typed={"qty-O1": "3"})  # the page's typed values: rendered with the page's context, not kept
    form(MORTARS, seat=8)
    assert (REMEMBERED.hits, REMEMBERED.misses) == (1, 2)
