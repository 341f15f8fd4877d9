"""The campaign's archive (after CG end)."""
from django.urls import path

from campaigns_app.archive import views

urlpatterns = [
    path("archive.json", views.archive_download, name="campaign_archive"),
]
