"""The e-mail settings: the page of a logged-in player, and the one-click page an e-mail links to (no login: its
signed token names one seat). A GET never changes anything (mail scanners follow links); the forms POST."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaigns_app.notify import links, selectors
from campaigns_app.services import ServiceError
from campaigns_app.services import notify as notify_services
from campaigns_app.web import player

FIELD_PREFIX = "campaign-"
VALUE_MAX = 20


def _value(request: HttpRequest, name: str) -> str:
    return request.POST.get(name, "")[:VALUE_MAX]


@login_required
@require_http_methods(["GET", "POST"])
def notify_settings(request: HttpRequest) -> HttpResponse:
    user = player(request)
    error = ""
    if request.method == "POST":
        campaigns = {name.removeprefix(FIELD_PREFIX): _value(request, name)
                     for name in request.POST if name.startswith(FIELD_PREFIX)}
        try:
            notify_services.choose(user=user, default=_value(request, "default"), campaigns=campaigns)
        except ServiceError as refused:
            error = str(refused)
        else:
            messages.success(request, "Your e-mail settings are saved.")
            return redirect("notify_settings")
    return render(request, "notify/settings.html", {**selectors.settings_context(user), "error": error,
                                                    "nav": "notify"}, status=400 if error else 200)


@require_http_methods(["GET", "POST"])
def notify_link(request: HttpRequest, token: str) -> HttpResponse:
    try:
        seat = links.seat_of(token)
    except links.LinkError as bad:
        return render(request, "notify/link_error.html", {"expired": bad.expired, "days": links.MAX_AGE.days},
                      status=400)
    error = ""
    if request.method == "POST":
        try:
            notify_services.choose(user=seat.user, default=_value(request, "default"),
                                   campaigns={seat.campaign.public_id: _value(request, "campaign")})
        except ServiceError as refused:
            error = str(refused)
        else:
            messages.success(request, "Your e-mail settings are saved.")
            return redirect("notify_link", token)
        seat.refresh_from_db(fields=["notify"])
    return render(request, "notify/link.html", {**selectors.link_context(seat), "error": error},
                  status=400 if error else 200)
