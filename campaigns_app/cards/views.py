"""CG Card pages: my cards, new card (paste or upload), card detail, edit, download, delete; and a campaign's
"Rules in use" page for both seated players.

A card is private to its owner: anyone else gets 404 for its URL (bundled example cards are shown to every player).
The opponent of a campaign sees the card through the campaign's Rules page (the text copied when it was created).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.files.uploadedfile import UploadedFile
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns_app.cards import selectors as card_selectors
from campaigns_app.cards import services as card_services
from campaigns_app.cards.services import MAX_CARD_BYTES, CardError, CardInvalid, Problem
from campaigns_app.models import CgSystem, Seat
from campaigns_app.records import lost_values as lost_value_selectors
from campaigns_app.request_user import signed_in
from campaigns_app.web import seated
from rules_engine.card_paths import yaml_line

NOT_FOUND = "No such CG Card."
CARD_EXTENSIONS = (".yaml", ".yml")


class CardForm(forms.Form):
    """A CG Card: its base system and its YAML text, pasted or uploaded as a .yaml file (exactly one of the two)."""

    system = forms.ChoiceField(label="Base CG system")
    text = forms.CharField(
        label="Card text (YAML)",
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "false", "autocomplete": "off", "class": "card-text"}),
        help_text="Paste the card here, or choose a file below. Format: docs/cg-format.md, Part 1.",
    )
    file = forms.FileField(label="…or upload a .yaml file", required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        system_field = self.fields["system"]
        assert isinstance(system_field, forms.ChoiceField)
        system_field.choices = [(s.id, f"{s.name} ({s.id})") for s in CgSystem.objects.order_by("name")]
        self.fields["system"].help_text = "The system the card fills in; it must be the one the card names in its extends: line."

    def clean_file(self) -> UploadedFile[bytes] | None:
        upload: UploadedFile[bytes] | None = self.cleaned_data.get("file")
        if upload is None:
            return None
        name = (upload.name or "").lower()
        if not name.endswith(CARD_EXTENSIONS):
            raise forms.ValidationError(f"“{upload.name}” is not a YAML file (allowed: {', '.join(CARD_EXTENSIONS)}).")
        if upload.size is not None and upload.size > MAX_CARD_BYTES:
            raise forms.ValidationError(f"The file is too large: at most {MAX_CARD_BYTES // 1024} KiB.")
        return upload

    def card_text(self) -> tuple[str, str]:
        """(text, file name) from the upload or the text box; ValidationError when neither or both are given."""
        upload: UploadedFile[bytes] | None = self.cleaned_data.get("file")
        text: str = self.cleaned_data.get("text") or ""
        if upload is not None and text.strip():
            raise forms.ValidationError("Give the card once: paste its text or choose a file, not both.")
        if upload is not None:
            raw = upload.read(MAX_CARD_BYTES + 1)
            try:
                return raw.decode("utf-8-sig"), _filename(upload.name or "card.yaml")
            except UnicodeDecodeError:
                raise forms.ValidationError("The file is not UTF-8 text (save it as UTF-8 and upload it again).") from None
        if not text.strip():
            raise forms.ValidationError("The card is empty: paste its YAML text or choose a .yaml file.")
        return text, "card.yaml"


def _filename(name: str) -> str:
    """A safe file name for error messages (no path)."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    return "".join(ch for ch in base if ch.isalnum() or ch in "._-")[:80] or "card.yaml"


def _with_lines(problems: list[Problem], text: str) -> list[Problem]:
    """Each problem with the line of the YAML text its path names (a duplicate key's path is its line already)."""
    return [replace(p, line=yaml_line(text, p.path)) if p.path and not p.path.startswith("line ") else p
            for p in problems]


def _problems(error: CardInvalid | forms.ValidationError) -> list[Problem]:
    if isinstance(error, CardInvalid):
        return error.problems
    return [Problem("", message) for message in error.messages]


# --------------------------------------------------------------------------------------------------- my cards


@login_required
@require_GET
def card_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "cards/list.html",
        {"cards": card_selectors.own_cards(signed_in(request)), "bundled": card_selectors.bundled_cards(),
         "published": card_selectors.published_cards(signed_in(request)), "nav": "cards"},
    )


def _card_form_page(request: HttpRequest, *, card: Any = None) -> HttpResponse:
    initial: dict[str, Any] = {"system": request.GET.get("system", "")}
    if card is not None:
        initial = {"system": card.system_id, "text": card.text}
    form = CardForm(request.POST or None, request.FILES or None, initial=initial)
    problems: list[Problem] = []
    status = 200
    if request.method == "POST":
        if form.is_valid():
            text = ""
            try:
                text, filename = form.card_text()
                if card is None:
                    saved = card_services.card_create(
                        signed_in(request), text, system_id=form.cleaned_data["system"], filename=filename
                    )
                else:
                    saved = card_services.card_update(
                        signed_in(request), card.id, text, system_id=form.cleaned_data["system"], filename=filename
                    )
            except (CardInvalid, forms.ValidationError) as error:
                problems = _problems(error)
                if isinstance(error, CardInvalid) and text:
                    problems = _with_lines(problems, text)
            except CardError as error:
                problems = [Problem("", str(error))]
            else:
                messages.success(request, "CG Card saved." if card is None else "CG Card updated. Campaigns already "
                                          "started keep the card they were started with.")
                return redirect("card_detail", card_id=saved.id)
        status = 400
    chosen = request.POST.get("system") or request.GET.get("system") or (card.system_id if card is not None else "")
    help_system = chosen if CgSystem.objects.filter(id=chosen).exists() else ""
    return render(
        request,
        "cards/form.html",
        {"form": form, "problems": problems, "card": card, "nav": "cards", "help_system": help_system},
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def card_new(request: HttpRequest) -> HttpResponse:
    return _card_form_page(request)


def _visible(request: HttpRequest, card_id: str) -> Any:
    card = card_selectors.card_for(signed_in(request), card_id)
    if card is None:
        raise Http404(NOT_FOUND)
    return card


def _own(request: HttpRequest, card_id: str) -> Any:
    card = _visible(request, card_id)
    if card.owner_id != signed_in(request).pk:
        raise Http404(NOT_FOUND)
    return card


@login_required
@require_http_methods(["GET", "POST"])
def card_edit(request: HttpRequest, card_id: str) -> HttpResponse:
    return _card_form_page(request, card=_own(request, card_id))


@login_required
@require_GET
def card_detail(request: HttpRequest, card_id: str) -> HttpResponse:
    card = _visible(request, card_id)
    return render(
        request,
        "cards/detail.html",
        {"card": card, "report": card_selectors.card_detail(card), "mine": card.owner_id == signed_in(request).pk,
         "nav": "cards"},
    )


def _yaml_response(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="application/yaml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(filename)}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


@login_required
@require_GET
def card_download(request: HttpRequest, card_id: str) -> HttpResponse:
    card = _visible(request, card_id)
    return _yaml_response(card.text, f"{card.card_id}.yaml")


@login_required
@require_POST
def card_delete(request: HttpRequest, card_id: str) -> HttpResponse:
    card = _own(request, card_id)
    try:
        card_services.card_delete(signed_in(request), card.id)
    except CardError as error:
        messages.error(request, str(error))
        return redirect("card_detail", card_id=card.id)
    messages.success(request, f"CG Card “{card.name}” deleted.")
    return redirect("card_list")


# --------------------------------------------------------------------------------------------------- a campaign's rules


@seated
@require_GET
def campaign_rules(request: HttpRequest, seat: Seat) -> HttpResponse:
    campaign = seat.campaign
    return render(
        request,
        "cards/rules.html",
        {"campaign": campaign, "rules": card_selectors.campaign_rules(campaign),
         "lost_values": lost_value_selectors.campaign_lost_values(campaign), "nav": "campaigns"},
    )


@seated
@require_GET
def campaign_card_download(request: HttpRequest, seat: Seat) -> HttpResponse:
    campaign = seat.campaign
    if not campaign.card_sha256:
        raise Http404("This campaign plays without a CG Card.")
    return _yaml_response(campaign.card_text, f"{campaign.card.card_id if campaign.card else 'cg-card'}.yaml")
