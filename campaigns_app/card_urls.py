"""CG Card pages (included at /cards/). A campaign's "Rules in use" page is under /campaigns/<id>/rules/ (urls.py)."""
from django.urls import path

from campaigns_app import card_views

urlpatterns = [
    path("", card_views.card_list, name="card_list"),
    path("new/", card_views.card_new, name="card_new"),
    path("<str:card_id>/", card_views.card_detail, name="card_detail"),
    path("<str:card_id>/edit/", card_views.card_edit, name="card_edit"),
    path("<str:card_id>/download/", card_views.card_download, name="card_download"),
    path("<str:card_id>/delete/", card_views.card_delete, name="card_delete"),
]
