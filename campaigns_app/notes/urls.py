"""Sealed notes: the page, sealing a note, revealing one."""
from django.urls import path

from campaigns_app.notes import views

urlpatterns = [
    path("notes/", views.notes_page, name="campaign_notes"),
    path("notes/seal/", views.note_seal, name="campaign_note_seal"),
    path("notes/<int:number>/reveal/", views.note_reveal, name="campaign_note_reveal"),
]
