"""Under ASGI every middleware runs async: none needs a thread and an AsyncToSync bridge per request (a client that
hung up left such a bridge's thread waiting with its pooled connection: campaigns_app.static_files,
tests/e2e/test_dropped_requests.py)."""
from __future__ import annotations

import pytest
from django.conf import settings
from django.test import AsyncClient
from django.utils.module_loading import import_string


@pytest.mark.parametrize("path", settings.MIDDLEWARE)
def test_every_middleware_can_run_async_so_no_request_waits_on_a_bridge_thread(path: str) -> None:
    middleware = import_string(path)
    assert getattr(middleware, "async_capable", False) is True, path

@pytest.mark.django_db(transaction=True)
async def test_a_page_and_a_missing_static_file_pass_through_the_async_static_files_middleware() -> None:
    client = AsyncClient()

    page = await client.get("/accounts/login/")
    missing = await client.get("/static/no-such-file.css")

    assert page.status_code == 200 and b"csrfmiddlewaretoken" in page.content
    assert missing.status_code == 404
