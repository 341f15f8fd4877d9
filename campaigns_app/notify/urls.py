"""The e-mail settings page and the one-click link."""
from django.urls import path

from campaigns_app.notify import views

urlpatterns = [
    path("", views.notify_settings, name="notify_settings"),
    path("link/<str:token>/", views.notify_link, name="notify_link"),
]
