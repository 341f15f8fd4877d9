"""Sealed notes and secret rolls at the board: the page, sealing a note, revealing one, rolling, revealing a roll."""
from django.urls import path

from campaigns_app.notes import views

urlpatterns = [
    path("notes/", views.notes_page, name="campaign_notes"),
    path("notes/seal/", views.note_seal, name="campaign_note_seal"),
    path("notes/<int:number>/reveal/", views.note_reveal, name="campaign_note_reveal"),
    path("notes/roll/", views.secret_roll, name="campaign_secret_roll"),
    path("notes/rolls/<int:number>/reveal/", views.secret_roll_reveal, name="campaign_secret_roll_reveal"),
]
