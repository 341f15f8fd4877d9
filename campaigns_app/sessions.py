"""Sessions in the database, as Django keeps them, read by a prepared query (every request reads its session)."""
from __future__ import annotations

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.utils import timezone

from campaigns_app.prepared import Prepared

BY_KEY = Prepared(lambda key: Session.objects.filter(session_key=key), str)


class SessionStore(db.SessionStore):
    """Django's database session store; the session is read by a prepared query, its expiry checked here."""

    def _get_session_from_db(self) -> Session | None:
        key = self.session_key
        found = BY_KEY.first(key) if isinstance(key, str) else None
        if found is not None and found.expire_date > timezone.now():
            return found
        self._session_key = None
        return None
