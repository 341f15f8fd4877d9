"""CG Card pages (included at /cards/). A campaign's "Rules in use" page is under /campaigns/<id>/rules/ (urls.py)."""
from django.urls import path

from campaigns_app.cards import builder_views as card_builder_views
from campaigns_app.cards import views as card_views

urlpatterns = [
    path("", card_views.card_list, name="card_list"),
    path("new/", card_views.card_new, name="card_new"),
    path("build/", card_builder_views.card_build_choose, name="card_build_choose"),
    path("build/<str:system_id>/", card_builder_views.card_build_new, name="card_build_new"),
    path("build/<str:system_id>/validate/", card_builder_views.card_build_validate, name="card_build_validate"),
    path("<str:card_id>/build/", card_builder_views.card_build_edit, name="card_build_edit"),
    path("<str:card_id>/copy/", card_builder_views.card_copy, name="card_copy"),
    path("<str:card_id>/publish/", card_builder_views.card_publish, name="card_publish"),
    path("<str:card_id>/", card_views.card_detail, name="card_detail"),
    path("<str:card_id>/edit/", card_views.card_edit, name="card_edit"),
    path("<str:card_id>/download/", card_views.card_download, name="card_download"),
    path("<str:card_id>/delete/", card_views.card_delete, name="card_delete"),
]
