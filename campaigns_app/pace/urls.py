"""Pauses of the pace."""
from django.urls import path

from campaigns_app.pace import views

urlpatterns = [
    path("pause/", views.pause_ask, name="campaign_pause"),
    path("pause/answer/", views.pause_answer, name="campaign_pause_answer"),
]
