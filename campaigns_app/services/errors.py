"""What a write service refuses: every error says what is wrong and what is allowed; nothing was changed."""
from __future__ import annotations

from datetime import datetime


class ServiceError(ValueError):
    """A request Refit refuses, with a message for the player; nothing was changed."""


class RateLimited(ServiceError):
    """Too many messages: ``again`` is when the writer may write again (None: never, the campaign holds its most)."""

    def __init__(self, message: str, again: datetime | None) -> None:
        self.again = again
        super().__init__(message)


class NotSeated(ServiceError):
    """The user holds no seat in the campaign (views answer 404: existence is not confirmed)."""


class InvitationNotFound(ServiceError):
    """No invitation has this token."""


class CampaignFull(ServiceError):
    """Both seats are taken."""


class FormNotValid(ServiceError):
    """A form token this server never issued (forged or altered): refused, nothing changed."""


class RefusedOrder(ServiceError):
    """An order the rules refuse: ``messages`` has one message per broken rule, each citing it."""

    def __init__(self, messages: list[str]) -> None:
        self.messages = messages
        super().__init__(" ".join(messages))


class PlayerSettingsInvalid(ServiceError):
    """The players' choices (``source: players`` settings) break the system's rules for them: ``problems`` maps a
    setting id to what is wrong and what is allowed; nothing was created."""

    def __init__(self, problems: dict[str, str]) -> None:
        self.problems = problems
        super().__init__("The players' choices are not valid: " + " ".join(problems.values()))


class LostValuesInvalid(ServiceError):
    """Values lost in the rule text that the campaign needs are not supplied (or not as a chart prints them):
    ``problems`` maps a value's key (``lost_values.cell_key``) to what is wrong and allowed; nothing was created."""

    def __init__(self, problems: dict[str, str]) -> None:
        self.problems = problems
        super().__init__("Values lost in the rule text must be typed before the campaign starts: "
                         + " ".join(p.rstrip(".") + "." for p in problems.values()))
