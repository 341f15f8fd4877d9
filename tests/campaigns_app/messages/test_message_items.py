"""The conversation's messages: each printed from its MessageLine alone, rendered once per process for the same seat
and line (urlize made each message cost more than a whole checklist)."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.template.loader import render_to_string

from campaigns_app.messages.selectors import MessageLine
from campaigns_app.templatetags.rendered_once import REMEMBERED

pytestmark = pytest.mark.usefixtures("nothing_remembered")  # the renderings store, empty around each test

DAWN = datetime(2026, 11, 29, 5, 30, tzinfo=UTC)


def conversation(*lines: MessageLine, seat: int = 7) -> str:
    return render_to_string("campaigns/detail.html#messages", {"conversation": lines, "seat": {"pk": seat}})


def test_an_own_message_and_the_opponents_print_who_when_and_the_text_escaped_with_its_link() -> None:
    html = conversation(MessageLine("German", True, "See <b>https://vasl.info/hill112</b>\nAttack", DAWN),
                        MessageLine("Canadian", False, "Hold & wait", DAWN))
    assert (
        '<li class="message message-own"><span class="message-head"><strong>You</strong> '
        '<time datetime="2026-11-29T05:30:00+00:00" data-local="short" class="muted small">29 Nov, 05:30 UTC</time>'
        '</span><span class="message-text">See &lt;b&gt;<a href="https://vasl.info/hill112" rel="nofollow">'
        'https://vasl.info/hill112</a>&lt;/b&gt;<br>Attack</span></li>'
    ) in html
    assert (
        '<li class="message"><span class="message-head"><strong>Canadian</strong> '
        '<time datetime="2026-11-29T05:30:00+00:00" data-local="short" class="muted small">29 Nov, 05:30 UTC</time>'
        '</span><span class="message-text">Hold &amp; wait</span></li>'
    ) in html


def test_the_conversation_and_each_message_already_rendered_for_the_seat_are_not_rendered_again() -> None:
    first = MessageLine("German", True, "Ready at dawn", DAWN)
    second = MessageLine("Canadian", False, "Bring the Shermans", DAWN)
    conversation(first)
    assert (REMEMBERED.hits, REMEMBERED.misses) == (0, 2)  # the list and its message
    conversation(first, second)
    assert (REMEMBERED.hits, REMEMBERED.misses) == (1, 4)  # a new list: the first message kept, the second new
    conversation(first, second)
    assert (REMEMBERED.hits, REMEMBERED.misses) == (2, 4)  # the same list (a write that sent no message): kept whole
    conversation(first, seat=8)  # the other seat's page: its own renderings
    assert (REMEMBERED.hits, REMEMBERED.misses) == (2, 6)


def test_no_message_yet_says_how_to_write_one() -> None:
    assert '<li class="muted">No messages yet.' in conversation()
