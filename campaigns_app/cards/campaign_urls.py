"""A campaign's "Rules in use" pages (included at /campaigns/<public id>/rules/; 404 to anyone without a seat)."""
from django.urls import path

from campaigns_app.cards import views as card_views

urlpatterns = [
    path("", card_views.campaign_rules, name="campaign_rules"),
    path("card.yaml", card_views.campaign_card_download, name="campaign_card_download"),
]
