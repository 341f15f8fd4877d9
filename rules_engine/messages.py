"""Messages: the two players' conversation, kept with the campaign as public events (both sides read every one)."""
from __future__ import annotations

from rules_engine.events import Event, EventKind
from rules_engine.plain_text import plain_text
from rules_engine.vocabulary import SideId, Visibility

MAX_MESSAGE = 2000  # characters


def message(side: SideId, text: str, form: str = "") -> Event:
    """A message from ``side`` (TextError when it is empty, too long or not plain text; ``form``: the sending form's
    id, so a form sent twice sends one message)."""
    return Event(EventKind.MESSAGE, Visibility.PUBLIC, side, {"text": plain_text(text, MAX_MESSAGE, "A message"),
                                                               "form": form})
