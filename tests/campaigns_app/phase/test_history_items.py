"""The live page's latest events: each printed from its EventLine alone, rendered once per process for the same line."""
from __future__ import annotations

import pytest
from django.template import Context, Engine
from django.utils.html import conditional_escape

from campaigns_app.phase.history import EventLine
from campaigns_app.templatetags.rendered_once import REMEMBERED

pytestmark = pytest.mark.usefixtures("nothing_remembered")  # the renderings store, empty around each test

ITEM = '{% load rendered_once %}{% rendered_once "campaigns/detail.html#history_item" 7 e=line %}'


def item(line: EventLine) -> str:
    return Engine.get_default().from_string(ITEM).render(Context({"line": line}))


def test_an_own_secret_roll_prints_its_badge_words_and_dice() -> None:
    text = "German rolled 2.506 Escape: 5 <Infantry>"
    html = item(EventLine("roll", True, text, (2, 3), conditional_escape(text)))
    assert html == (
        '<li class="event event-roll secret" data-announce="German rolled 2.506 Escape: 5 &lt;Infantry&gt; Dice: 2 and 3.">'
        '<span class="badge badge-secret">Only you</span> German rolled 2.506 Escape: 5 &lt;Infantry&gt; '
        '<span class="dice"><span class="visually-hidden">dice 2 and 3</span><span class="die" aria-hidden="true">2</span>'
        '<span class="die" aria-hidden="true">3</span></span></li>')


def test_the_same_line_is_rendered_once() -> None:
    line = EventLine("message", False, "Canadian: Hold the crossroads", (), conditional_escape("Canadian: Hold"))
    assert item(line) == item(line) and (REMEMBERED.hits, REMEMBERED.misses) == (1, 1)
    assert 'class="event event-message"' in item(line) and "Only you" not in item(line)
