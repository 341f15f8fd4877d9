"""Django's model backend with the signed-in user read by a prepared query: every request of a signed-in player reads
its user, and building and compiling ``User.objects.get(pk=…)`` costs more CPU than the database takes to answer."""
from __future__ import annotations

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User

from campaigns_app.prepared import Prepared

PATH = "campaigns_app.auth_backend.PreparedModelBackend"  # as AUTHENTICATION_BACKENDS and a session name it
BY_ID = Prepared(lambda user_id: User.objects.filter(pk=user_id)[:1], int)


class PreparedModelBackend(ModelBackend):
    """ModelBackend (passwords, active users, permissions) whose ``get_user`` runs a prepared query."""

    def get_user(self, user_id: object) -> User | None:
        """The active user ``user_id`` (the session's), or None — as ModelBackend.get_user answers."""
        if type(user_id) is not int:  # not the integer key Django's User has: ModelBackend's own query
            return super().get_user(user_id)
        user = BY_ID.first(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None
