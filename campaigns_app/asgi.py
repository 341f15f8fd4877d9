"""ASGI entry point: HTTP through Django, websockets through the Channels router."""
import faulthandler
import os
import signal

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaigns_app.settings")
if os.environ.get("REFIT_THREAD_DUMPS") == "1":  # the browser tests' server: SIGUSR1 writes every thread's stack
    faulthandler.register(signal.SIGUSR1, all_threads=True)  # to stderr (what a failed test's server was doing)
from campaigns_app.one_hop import one_hop_asgi_application  # noqa: E402

django_asgi_app = one_hop_asgi_application()  # the middleware chain and the view in one thread hop per request

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from campaigns_app.live.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
