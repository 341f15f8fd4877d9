"""The CG Card builder: a card made in a form from what its system leaves to a card, checked field by field as it is
filled (htmx posts the form to ``card_build_validate``), saved only when the whole card is valid; and a card's copy
and publish actions.

URL names: ``card_build_choose`` (pick a system), ``card_build_new`` (/cards/build/<system>/), ``card_build_validate``
(/cards/build/<system>/validate/, answers the problem slots out of band), ``card_build_edit`` (/cards/<id>/build/),
``card_copy`` and ``card_publish`` (POST).
"""
from __future__ import annotations

import yaml
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns_app import engine
from campaigns_app.cards import builder as card_builder
from campaigns_app.cards import selectors as card_selectors
from campaigns_app.cards import services as card_services
from campaigns_app.cards.services import CardError, CardInvalid
from campaigns_app.engine import System
from campaigns_app.models import CgCard, CgSystem
from campaigns_app.request_user import signed_in
from rules_engine import yaml_limits
from rules_engine.card_form import document_to_form, initial_form
from rules_engine.card_paths import apply_action
from rules_engine.errors import RulesError

NOT_FOUND = "No such CG Card."


def _system(system_id: str) -> tuple[CgSystem, System]:
    cg_system = CgSystem.objects.filter(id=system_id).first()
    if cg_system is None:
        raise Http404("No such CG system.")
    try:
        return cg_system, engine.system_of(cg_system)
    except RulesError:
        raise Http404("This CG system does not load.") from None


def _own(request: HttpRequest, card_id: str) -> CgCard:
    card = card_selectors.card_for(signed_in(request), card_id)
    if card is None or card.owner_id != signed_in(request).pk:
        raise Http404(NOT_FOUND)
    return card


@login_required
@require_GET
def card_build_choose(request: HttpRequest) -> HttpResponse:
    chosen = request.GET.get("system", "")
    if chosen and CgSystem.objects.filter(id=chosen).exists():
        return redirect("card_build_new", system_id=chosen)
    systems = [{"id": s.id, "name": s.name} for s in CgSystem.objects.order_by("name")]
    return render(request, "cards/build_choose.html", {"systems": systems, "nav": "cards"})


def _page(request: HttpRequest, cg_system: CgSystem, system: System, data: dict[str, str], *,
          card: CgCard | None, check: card_builder.BuilderCheck | None, status: int = 200) -> HttpResponse:
    errors = check.by_field if check else {}
    sections = card_builder.page_sections(system, data, errors)
    if check is not None:
        card_builder.place(check, sections)
    return render(request, "cards/build.html", {
        "cg_system": cg_system, "system": system, "sections": sections, "card": card, "check": check,
        "nav": "cards",
    }, status=status)


def _builder(request: HttpRequest, cg_system: CgSystem, system: System, *, card: CgCard | None) -> HttpResponse:
    if request.method != "POST":
        if card is None:
            data = initial_form(system)
        else:
            try:
                loaded = yaml_limits.load(card.text)
            except yaml.YAMLError:  # a saved card passed the loader's own limits; never a 500 if one did not
                loaded = {}
            data = document_to_form(system, loaded if isinstance(loaded, dict) else {})
        return _page(request, cg_system, system, data, card=card, check=None)
    data = card_builder.form_data(request.POST)
    action = request.POST.get("action", "save")
    if action == "check":
        check = card_builder.check_form(cg_system, system, data)
        return _page(request, cg_system, system, data, card=card, check=check)
    if action != "save":
        data = apply_action(data, action)
        return _page(request, cg_system, system, data, card=card, check=None)
    check = card_builder.check_form(cg_system, system, data)
    if check.checked is None:
        return _page(request, cg_system, system, data, card=card, check=check, status=400)
    try:
        if card is None:
            saved = card_services.card_create(signed_in(request), check.text, system_id=cg_system.id)
        else:
            saved = card_services.card_update(signed_in(request), card.id, check.text, system_id=cg_system.id)
    except CardInvalid as error:
        check.general += error.problems
        return _page(request, cg_system, system, data, card=card, check=check, status=400)
    except CardError as error:
        check.general.append(card_services.Problem("", str(error)))
        return _page(request, cg_system, system, data, card=card, check=check, status=400)
    messages.success(request, "CG Card saved." if card is None else
                     "CG Card updated. Campaigns already started keep the card they were started with.")
    return redirect("card_detail", card_id=saved.id)


@login_required
@require_http_methods(["GET", "POST"])
def card_build_new(request: HttpRequest, system_id: str) -> HttpResponse:
    cg_system, system = _system(system_id)
    return _builder(request, cg_system, system, card=None)


@login_required
@require_http_methods(["GET", "POST"])
def card_build_edit(request: HttpRequest, card_id: str) -> HttpResponse:
    card = _own(request, card_id)
    cg_system, system = _system(card.system_id)
    return _builder(request, cg_system, system, card=card)


@login_required
@require_POST
def card_build_validate(request: HttpRequest, system_id: str) -> HttpResponse:
    """Check the whole form; answer every problem slot (out of band), the summary and the YAML the form makes."""
    cg_system, system = _system(system_id)
    data = card_builder.form_data(request.POST)
    check = card_builder.check_form(cg_system, system, data)
    sections = card_builder.page_sections(system, data, check.by_field)
    card_builder.place(check, sections)
    return render(request, "cards/_build_check.html",
                  {"slots": card_builder.all_slots(sections), "check": check, "oob": True})


@login_required
@require_POST
def card_copy(request: HttpRequest, card_id: str) -> HttpResponse:
    try:
        copy = card_services.card_copy(signed_in(request), card_id)
    except card_services.CardNotFound:
        raise Http404(NOT_FOUND) from None
    except CardError as error:
        messages.error(request, str(error))
        return redirect("card_detail", card_id=card_id)
    messages.success(request, "Copied: this copy is yours and private; edit it as you like.")
    return redirect("card_detail", card_id=copy.id)


@login_required
@require_POST
def card_publish(request: HttpRequest, card_id: str) -> HttpResponse:
    card = _own(request, card_id)
    publish = request.POST.get("publish") == "1"
    card_services.card_publish(signed_in(request), card.id, publish)
    messages.success(request, "Published: every player on this server finds it on the create page, with your name."
                     if publish else "No longer published: only you see it (campaigns started with it keep it).")
    return redirect("card_detail", card_id=card.id)
