"""The signed-in user of a request: ``request.user`` is ``User | AnonymousUser``; a view behind login_required has the
first, and says so by asking for it here."""
from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest


def signed_in(request: HttpRequest) -> User:
    """The request's user, signed in (PermissionDenied otherwise: login_required has redirected before)."""
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        raise PermissionDenied
    return user
