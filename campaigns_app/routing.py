"""Websocket routes (wrapped by AllowedHostsOriginValidator + AuthMiddlewareStack in asgi.py)."""
from django.urls import path

from campaigns_app import echo
from campaigns_app.consumers import CampaignConsumer

websocket_urlpatterns = [
    path("ws/campaigns/<str:public_id>/", CampaignConsumer.as_asgi()),
]
websocket_urlpatterns += echo.websocket_urlpatterns  # bench/ only: empty unless REFIT_BENCH_ECHO=1
