"""URLs. Campaigns are addressed by their random public id; every campaign URL is 404 to anyone without a seat."""
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

from campaigns_app.campaigns import views
from campaigns_app.fresh_stack import views_on_fresh_stack

campaign_patterns: list[URLPattern | URLResolver] = [
    path("", views.campaign_detail, name="campaign_detail"),
    path("invite/", views.campaign_invite, name="campaign_invite"),
    path("history/", views.campaign_history, name="campaign_history"),
    path("fragments/", views.campaign_fragments, name="campaign_fragments"),
    path("chit/", views.chit_confirm, name="chit_confirm"),
    path("chit/submit/", views.chit_submit, name="chit_submit"),
    path("done/", views.step_done, name="step_done"),
    path("seed/", views.seed_set, name="seed_set"),
    # The between-scenario phase (checklist, purchases, assisted rolls, results) and the records (roster, purchase
    # record, dice log, CG end, verification) live in their own URL modules so they can grow independently.
    path("", include("campaigns_app.phase.urls")),
    path("", include("campaigns_app.records.urls")),
    path("", include("campaigns_app.notes.urls")),
    path("", include("campaigns_app.archive.urls")),
    path("", include("campaigns_app.messages.urls")),
    path("", include("campaigns_app.pace.urls")),
    # The rules in use (system + the CG Card copied into the campaign), for both seated players (card_views).
    path("rules/", include("campaigns_app.cards.campaign_urls")),
]

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("campaigns/", views.campaign_list, name="campaign_list"),
    path("campaigns/new/", views.campaign_create, name="campaign_create"),
    path("campaigns/<str:public_id>/", include(campaign_patterns)),
    path("join/<str:token>/", views.campaign_join, name="campaign_join"),
    path("cards/", include("campaigns_app.cards.urls")),
    path("notifications/", include("campaigns_app.notify.urls")),
    path("admin/", admin.site.urls),
]

views_on_fresh_stack(urlpatterns)  # CPython 3.12's frame-stack cliff: campaigns_app/fresh_stack.py
