"""Build a CG Card through the browser form's own endpoints (``card_build_new`` / ``card_build_validate``), as a player
would, for tests that need a card without writing YAML.

Use::

    from tests.campaigns_app.card_builder import build_card, card_form, validate_card

    client = client_for(alice)                      # a logged-in django.test.Client
    response = build_card(client, "pl25", {         # the system's new-card form, these fields filled, "Check and save"
        "id": "my-pl-card", "name": "My PL card (TEST DATA)",
        "settings_values.intensity": "mid",
        "calendar.0.id": "FF1", "calendar.0.initial": "true",
    })
    assert response.status_code == 302              # saved: redirected to the card page (400: refused, nothing saved)

Field names mirror the `refit-cg/1` document (docs/cg-format.md, "The card builder"): ``settings_values.<setting>``
or ``settings_values.<setting>.<side>``, ``calendar.<n>.<id|name|date|night|initial|weather|ec|map_groups|
base_numbers.<side>|extra>``, ``initial_ob.ref``, ``initial_ob.sides.<side>.<elr|san|text|points.<code>>``,
``initial_ob.sides.<side>.rg.<n>.<id|group_type|count>``, ``rg_charts.<n>.<side|ref|name|columns.cost|extra>``,
``rg_charts.<n>.rows.<m>.<id|type|group_type|cost|date_max|cg_max|notes|description|extra>``,
``rg_charts.<n>.notes.<k>.<letter|text|leader_table|columns_by_type ("I: us, A: armour")|extra>``,
``rg_charts.<n>.rows.<m>.<full|depleted>.<k>.<count|unit>`` (the RG's units at full and reduced strength, one row per
unit kind; buttons ``add:rg_charts.<n>.rows.<m>.full`` / ``remove:rg_charts.<n>.rows.<m>.full.<k>``),
``rg_charts.<n>.rows.<m>.gives.<currency code>`` (points a bought RG gives, e.g. ``gives.FPP``),
``tables.<n>.<id|ref|name|dice|per|secret|columns|extra>``, ``tables.<n>.rows.<m>.<label|min|max|cells.<k>|extra>``,
``victory_conditions.<ref|text|otherwise>``, ``victory_conditions.conditions.<n>.<side|measure|op|value>``,
``supply.<table>.<row index>.<column id>``, ``other`` (YAML of any other card part).

Where the system leaves them to the card (`missing_parts`: ER, KGP), the RePh sequence, points, initiative and Idle:
``steps.<n>.<ref|name|sides|initial|loop_on_idle|secret|revealed|action|params.currency|params.dice|params.base|
params.table|extra>`` — ``sides`` is ``simultaneous``, ``none``, ``order:<side>`` (one side) or ``order:<a>,<b>`` (both
in order: side ids or attacker/defender, setup-first/setup-second, moves-first/moves-second); ``action`` is "" (as the
rules file says for that step), ``on-board`` or an action (``replenish-base-minus-dr``, ``replenish-from-table``,
``purchase-rg``, ``purchase-fortifications``, ``initiative``, ``secret-roll``, ``roll-per-side``, ``record-lvp``,
``weather-from-calendar``; rules_engine.card_parts.STEP_ACTIONS); a param the action does not take is refused.
``currencies.<n>.<code|name|carry_over (true/false)|ref|note>``; ``initiative.<ref|mode|extra>``,
``initiative.matrix.<axis chit>/<allied chit>.<result|label|setup_first|moves_first>`` (``attack/attack``,
``attack/idle``, ``idle/attack``, ``idle/idle``); ``idle.<name|loop|steps|then|note>``;
``fortifications.<ref|currency|extra>``, ``fortifications.rows.<n>.<type|cost|note|extra>``;
``setup_costs.<ref|minimum|note|extra>``, ``setup_costs.modes.<n>.<mode (on-map|reserve|entry)|ref|by_type.<RG type letter>>``. The ER and KGP values-only
cards typed this way: tests/rules_engine/card_form_values.py (``ER_FORM``, ``KGP_FORM``, ``form_over``). Booleans are "true" (ticked)
or absent. ``card_form(system_id, yaml_text)`` gives the whole form of an existing card (to post it unchanged or
change a few fields); ``edit_card`` posts to an existing card's form (``card_build_edit``).
"""
from __future__ import annotations

from collections.abc import Mapping

import yaml
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from campaigns_app import engine
from campaigns_app.models import CgSystem
from rules_engine.card_form import document_to_form, initial_form


def _system(system_id: str):  # type: ignore[no-untyped-def]
    return engine.system_of(CgSystem.objects.get(id=system_id))


def card_form(system_id: str, yaml_text: str | None = None) -> dict[str, str]:
    """The form data the builder shows for a new card of a system (or for this card's YAML text)."""
    system = _system(system_id)
    if yaml_text is None:
        return initial_form(system)
    return document_to_form(system, yaml.safe_load(yaml_text))


def build_card(client: Client, system_id: str, values: Mapping[str, str], *, start: Mapping[str, str] | None = None,
               action: str = "save") -> HttpResponse:
    """POST the new-card form of ``system_id``: ``start`` (default: the new-card form) with ``values`` over it."""
    data = {**(card_form(system_id) if start is None else start), **values, "action": action}
    return client.post(reverse("card_build_new", args=[system_id]), data)  # type: ignore[return-value]


def edit_card(client: Client, card_id: str, values: Mapping[str, str], *, start: Mapping[str, str]) -> HttpResponse:
    """POST an existing card's form (``card_build_edit``) with ``values`` over ``start`` and save."""
    return client.post(reverse("card_build_edit", args=[card_id]),  # type: ignore[return-value]
                       {**start, **values, "action": "save"})


def validate_card(client: Client, system_id: str, values: Mapping[str, str], *,
                  start: Mapping[str, str] | None = None) -> HttpResponse:
    """POST the form to ``card_build_validate`` (as htmx does on each change): the answer holds every problem slot."""
    data = {**(card_form(system_id) if start is None else start), **values}
    return client.post(reverse("card_build_validate", args=[system_id]), data,  # type: ignore[return-value]
                       HTTP_HX_REQUEST="true")
