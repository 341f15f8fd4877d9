"""The live page's campaign addresses (live_page.CAMPAIGN_URLS), reversed once per campaign instead of by a {% url %}
tag per render: every one its templates name is there, and each is what {% url NAME public_id %} gives."""
from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.urls import clear_script_prefix, reverse, set_script_prefix

from campaigns_app.phase import live_page

TEMPLATES = Path(settings.BASE_DIR) / "templates" / "campaigns"
LIVE_TEMPLATES = [TEMPLATES / "detail.html", TEMPLATES / "pace.html", *sorted((TEMPLATES / "phase").glob("*.html"))]


def test_every_address_the_live_templates_name_is_one_the_live_context_holds() -> None:
    named = {name for path in LIVE_TEMPLATES for name in re.findall(r"\burls\.(\w+)", path.read_text())}
    assert named and named <= set(live_page.CAMPAIGN_URLS)


def test_the_live_templates_reverse_no_campaign_address_themselves() -> None:
    for path in LIVE_TEMPLATES:
        assert "campaign.public_id %}" not in path.read_text(), path


def test_each_address_is_what_the_url_tag_gives_under_the_script_prefix_of_the_request() -> None:
    for prefix in ("/", "/refit/"):
        set_script_prefix(prefix)
        try:
            urls = live_page.campaign_urls("AbC-12_x")
            assert urls == {name: reverse(name, args=["AbC-12_x"]) for name in live_page.CAMPAIGN_URLS}
            assert urls["phase_done"].startswith(prefix)
        finally:
            clear_script_prefix()
