"""What every seated view shares: the seat (404 to anyone without one), the signed-in player, the page or its
fragments as the answer, a bounded whole number from a form."""
from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme

from campaigns_app.campaigns import selectors as campaign_selectors
from campaigns_app.live import fragments
from campaigns_app.live import pages as live
from campaigns_app.messages.selectors import message_form_id
from campaigns_app.models import Campaign, Seat
from campaigns_app.phase import form_numbers

NOT_FOUND = "No such campaign."

SeatView = Callable[..., HttpResponse]


def seated(view: SeatView) -> Callable[..., HttpResponse]:
    """Resolve the user's seat in ``public_id`` or answer 404 (anonymous, third user and unknown id alike)."""

    @wraps(view)
    def wrapper(request: HttpRequest, public_id: str, *args: Any, **kwargs: Any) -> HttpResponse:
        seat = campaign_selectors.seat_for(public_id, request.user)
        if seat is None:
            raise Http404(NOT_FOUND)
        return view(request, seat, *args, **kwargs)

    return wrapper


def player(request: HttpRequest) -> User:
    """The signed-in user of a view behind ``seated`` or ``login_required`` (anyone else was answered already)."""
    user = request.user
    if not isinstance(user, User):
        raise Http404(NOT_FOUND)
    return user


def is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def safe_next(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return fallback


def page(request: HttpRequest, seat: Seat, status: int = 200, **extra: Any) -> HttpResponse:
    """The whole live page (with CSRF fields: its forms also post without JavaScript)."""
    extra.setdefault("message_form_id", message_form_id(seat.campaign, seat.side))
    return live.render(seat, lambda context: render(request, "campaigns/detail.html", context, status=status), **extra)


def fragments_response(seat: Seat, ids: list[str], status: int = 200, written: Campaign | None = None,
                       **extra: Any) -> HttpResponse:
    """Live fragments for htmx: the published view (``written``: the campaign as the player's write left it — the
    rendering that write published, when this worker holds it), or rendered with ``extra`` (errors, a notice, a
    confirmation) — like the published view, without the request (no CSRF field: htmx sends the header), so only
    ``extra`` differs."""
    if not extra:
        view = (live.published_at(seat.pk, written) if written is not None else None) or live.published(seat.pk)
        if view is None:
            raise Http404(NOT_FOUND)
        return HttpResponse("".join(view.stamped(f) for f in ids), status=status)
    return live.render(seat, lambda context: HttpResponse(
        "".join(fragments.render_fragment(f, context) for f in ids), status=status), **extra)


def panel_response(request: HttpRequest, seat: Seat, status: int, written: Campaign | None = None,
                   **extra: Any) -> HttpResponse:
    """The chit panel alone (htmx) or the whole live page (no JavaScript), with ``extra`` in its context
    (``written``: as in ``fragments_response``)."""
    if is_htmx(request):
        return fragments_response(seat, ["chit-panel"], status, written, **extra)
    return page(request, seat, status, **extra)


def int_field(request: HttpRequest, name: str, label: str, problems: list[str], default: int | None = 0,
               low: int | None = 0, high: int | None = None) -> int | None:
    """The posted whole number, bounded (``form_numbers``): out of range or not a number is a problem and ``default``."""
    return form_numbers.field(request.POST, name, label, problems, default, low, high)
