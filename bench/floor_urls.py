"""The URLs of bench/reveal_cpu.py's request floor: the site's own, plus one view that does nothing but what every
view of a campaign does first — read the signed-in user (the session, the user row). Used only by the benchmark
(``override_settings(ROOT_URLCONF=…)``); the site never routes it."""
from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from campaigns_app import urls as site


def nothing(request: HttpRequest, public_id: str) -> HttpResponse:
    """The same middleware, session and user as a campaign's views; no campaign, no rendering."""
    return HttpResponse(b"signed in" if request.user.is_authenticated else b"anonymous")


urlpatterns = [path("bench-floor/<str:public_id>/", nothing, name="bench_floor"), *site.urlpatterns]
