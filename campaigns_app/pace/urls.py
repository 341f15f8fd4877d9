"""Pauses of the pace and a new pace both players agree to."""
from django.urls import path

from campaigns_app.pace import views

urlpatterns = [
    path("pause/", views.pause_ask, name="campaign_pause"),
    path("pause/answer/", views.pause_answer, name="campaign_pause_answer"),
    path("pace/", views.pace_propose, name="campaign_pace"),
    path("pace/answer/", views.pace_answer, name="campaign_pace_answer"),
    path("pace/withdraw/", views.pace_withdraw, name="campaign_pace_withdraw"),
]
