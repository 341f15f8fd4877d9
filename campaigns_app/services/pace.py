"""Pace: asking for a pause and answering it, proposing a new pace and answering or withdrawing it (locked writes
like every other; the pace changes only when both agree), and the reminders a scheduler sends
(``manage.py send_reminders``): once before a deadline, once when it passes — never to a player whose page is open,
never while paused. Overdue never plays for anyone: it is recorded in the history and shown on both pages."""
from __future__ import annotations

from datetime import date, datetime, timedelta
from functools import partial

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from campaigns_app import engine
from campaigns_app.campaigns.selectors import seat_online
from campaigns_app.models import Campaign, EventRecord
from campaigns_app.pace import mail as pace_mail
from campaigns_app.services.core import after_commit, append_events, locked, seat_of, seats_of
from campaigns_app.services.errors import RateLimited, ServiceError
from rules_engine import pace
from rules_engine.events import EventKind


@transaction.atomic
def pause_ask(*, public_id: str, user: User, until: date, moment: datetime | None = None) -> None:
    """Ask the opponent for a pause until ``until`` (a day after today, at most MAX_PAUSE_DAYS ahead)."""
    campaign = locked(public_id)
    seats = seats_of(campaign)
    seat = seat_of(seats, user)
    moment = moment or timezone.now()
    if len(seats) < 2:
        raise ServiceError("A pause needs both players: your opponent has not joined yet.")
    first, last = moment.date() + timedelta(days=1), moment.date() + timedelta(days=pace.MAX_PAUSE_DAYS)
    if not first <= until <= last:
        raise ServiceError(f"{until} is not allowed: a pause's last day is a UTC day from {first} to {last} (at most "
                           f"{pace.MAX_PAUSE_DAYS} days from now).")
    if pace.paused_at(pace.pauses_of(campaign.pauses), moment) is not None:
        raise ServiceError("The campaign is already paused.")
    _bound(campaign, EventKind.PAUSE_ASKED, seat.side, moment, "asked for a pause", "ask")
    campaign.pause_request = {"side": seat.side, "until": until.isoformat()}
    campaign.save(update_fields=["pause_request"])
    append_events(campaign, [engine.app_event(EventKind.PAUSE_ASKED, side=seat.side, until=until.isoformat())], moment)
    after_commit(campaign, engine.system_for(campaign), {})


@transaction.atomic
def pause_answer(*, public_id: str, user: User, agree: bool, moment: datetime | None = None) -> None:
    """Agree to (or decline) the opponent's pause; agreed, no deadline runs until its end."""
    campaign = locked(public_id)
    seat = seat_of(seats_of(campaign), user)
    asked = campaign.pause_request or {}
    if not asked or asked.get("side") == seat.side:
        raise ServiceError("There is no pause of your opponent's to answer.")
    moment = moment or timezone.now()
    until = str(asked["until"])
    if agree:
        campaign.pauses = [*(campaign.pauses or []), [moment.isoformat(), pace.pause_end(date.fromisoformat(until)).isoformat()]]
    campaign.pause_request = {}
    campaign.save(update_fields=["pauses", "pause_request"])
    kind = EventKind.PAUSE_AGREED if agree else EventKind.PAUSE_DECLINED
    append_events(campaign, [engine.app_event(kind, side=seat.side, until=until)], moment)
    after_commit(campaign, engine.system_for(campaign), {})


def _bound(campaign: Campaign, kind: EventKind, side: str, moment: datetime, did: str, verb: str) -> None:
    """RateLimited when ``side`` asked ASKS_PER_DAY times (pauses, or new paces) within 24 hours: no client fills the
    history with asks."""
    latest = list(EventRecord.objects.filter(campaign=campaign, kind=kind, payload__side=side).order_by("-seq")
                  .values_list("created", flat=True)[:pace.ASKS_PER_DAY])
    again = pace.ask_again(latest, moment)
    if again is not None:
        raise RateLimited(f"You have {did} {pace.ASKS_PER_DAY} times within 24 hours, the most a side may: you may "
                          f"{verb} again at {pace.minute_words(again)}.", again)


@transaction.atomic
def pace_propose(*, public_id: str, user: User, hours: int | None, moment: datetime | None = None) -> None:
    """Propose a new pace (None: no time limit) to the opponent: one proposal open at a time, not the current pace."""
    campaign = locked(public_id)
    seats = seats_of(campaign)
    seat = seat_of(seats, user)
    moment = moment or timezone.now()
    if len(seats) < 2:
        raise ServiceError("A new pace needs both players: your opponent has not joined yet.")
    if engine.cg_ended(engine.load_state(campaign.state)):
        raise ServiceError("The Campaign Game has ended: there is no pace left to change.")
    open_one = campaign.pace_request or {}
    if open_one:
        raise ServiceError("You have proposed a new pace already: withdraw it first to propose another."
                           if open_one.get("side") == seat.side else
                           "Your opponent has proposed a new pace: agree or decline it first.")
    problem = pace.change_problem(campaign.pace_hours, hours)
    if problem:
        raise ServiceError(problem)
    _bound(campaign, EventKind.PACE_PROPOSED, seat.side, moment, "proposed a new pace", "propose")
    campaign.pace_request = {"side": seat.side, "hours": hours}
    campaign.save(update_fields=["pace_request"])
    append_events(campaign, [engine.app_event(EventKind.PACE_PROPOSED, side=seat.side, hours=hours,
                                              was=campaign.pace_hours)], moment)
    after_commit(campaign, engine.system_for(campaign), {})


@transaction.atomic
def pace_answer(*, public_id: str, user: User, agree: bool, moment: datetime | None = None) -> None:
    """Agree to (or decline) the opponent's new pace; agreed, it applies at once and every running deadline starts
    again from this moment at the new pace (``rules_engine.pace.repaced``)."""
    campaign = locked(public_id)
    seat = seat_of(seats_of(campaign), user)
    proposed = campaign.pace_request or {}
    if not proposed or proposed.get("side") == seat.side:
        raise ServiceError("There is no new pace of your opponent's to answer.")
    moment = moment or timezone.now()
    hours, was = proposed.get("hours"), campaign.pace_hours
    hours = hours if isinstance(hours, int) else None
    if agree:
        campaign.pace_hours = hours
        campaign.due = pace.repaced(campaign.due or {}, moment.isoformat())
    campaign.pace_request = {}
    campaign.save(update_fields=["pace_hours", "due", "pace_request"])
    kind = EventKind.PACE_AGREED if agree else EventKind.PACE_DECLINED
    append_events(campaign, [engine.app_event(kind, side=seat.side, hours=hours, was=was)], moment)
    after_commit(campaign, engine.system_for(campaign), {})


@transaction.atomic
def pace_withdraw(*, public_id: str, user: User, moment: datetime | None = None) -> None:
    """Withdraw one's own proposed pace (the pace stays as it is)."""
    campaign = locked(public_id)
    seat = seat_of(seats_of(campaign), user)
    proposed = campaign.pace_request or {}
    if not proposed or proposed.get("side") != seat.side:
        raise ServiceError("There is no new pace of yours to withdraw.")
    campaign.pace_request = {}
    campaign.save(update_fields=["pace_request"])
    append_events(campaign, [engine.app_event(EventKind.PACE_WITHDRAWN, side=seat.side, hours=proposed.get("hours"),
                                              was=campaign.pace_hours)], moment)
    after_commit(campaign, engine.system_for(campaign), {})


def send_reminders(moment: datetime) -> int:
    """Every reminder due at ``moment``, each campaign under its row lock; how many went out."""
    sent = 0
    ids = Campaign.objects.filter(pace_hours__isnull=False).exclude(due={}).values_list("public_id", flat=True)
    for public_id in ids:
        sent += _remind(public_id, moment)
    return sent


@transaction.atomic
def _remind(public_id: str, moment: datetime) -> int:
    campaign = locked(public_id)
    hours = campaign.pace_hours
    if not hours:
        return 0
    pauses = pace.pauses_of(campaign.pauses)
    due = {side: dict(entry) for side, entry in (campaign.due or {}).items()}
    system = engine.system_for(campaign)
    state = engine.load_state(campaign.state)
    sent = 0
    for side, entry in due.items():
        since = datetime.fromisoformat(entry["since"])
        reminder = pace.reminder_due(since, hours, pauses, moment, pace.Reminder(entry.get("reminded", "")))
        if reminder is pace.Reminder.NONE or seat_online(public_id, side):
            continue
        deadline = pace.deadline(since, hours, pauses, moment)
        assert deadline is not None
        entry["reminded"] = reminder.value
        if reminder is pace.Reminder.OVERDUE:
            owes = "; ".join(engine.owes(system, state, side)) or "its next step"
            append_events(campaign, [engine.app_event(EventKind.OVERDUE, side=side, owes=owes,
                                                      deadline=deadline.strftime(pace.DEADLINE_WORDS))])
        transaction.on_commit(partial(pace_mail.email_reminder, public_id, side, reminder.value, deadline))
        sent += 1
    if sent:
        campaign.due = due
        campaign.save(update_fields=["due"])
        after_commit(campaign, system, {})
    return sent
