"""Websocket routes (wrapped by AllowedHostsOriginValidator + AuthMiddlewareStack in asgi.py)."""
from django.urls import path, re_path

from campaigns_app.live import echo
from campaigns_app.live.consumers import CampaignConsumer, NotesConsumer, RefusedSocket

websocket_urlpatterns = [
    path("ws/campaigns/<str:public_id>/", CampaignConsumer.as_asgi()),
    path("ws/campaigns/<str:public_id>/notes/", NotesConsumer.as_asgi()),
]
websocket_urlpatterns += echo.websocket_urlpatterns  # bench/ only (echo, group broadcast): empty unless REFIT_BENCH_ECHO=1
websocket_urlpatterns += [re_path(r"", RefusedSocket.as_asgi())]  # any other path: refused at the handshake (403)
