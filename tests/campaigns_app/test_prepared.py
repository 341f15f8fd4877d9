"""Prepared querysets: the same rows as the queryset they were built from, for any values; refused when they cannot be."""
from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError

from campaigns_app.campaigns.selectors import SEAT_FOR
from campaigns_app.messages.selectors import LATEST
from campaigns_app.models import Campaign, EventRecord, Seat
from campaigns_app.phase.history import RECENT
from campaigns_app.prepared import NotPreparable, Prepared
from campaigns_app.services.core import LOCKED, SEATS


def loaded(instance: Any) -> dict[str, Any]:
    """The fields an instance holds (deferred ones are not in its __dict__) and the relations it was given."""
    fields = {key: value for key, value in instance.__dict__.items() if key != "_state"}
    relations = {name: loaded(value) for name, value in instance._state.fields_cache.items() if value is not None}
    return {"fields": fields, "relations": relations, "deferred": sorted(instance.get_deferred_fields())}


def test_a_prepared_seat_lookup_gives_what_its_queryset_gives(campaign_factory: Any, users: Any) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    other = campaign_factory(users["cana"], users["gerd"], to_initiative=False, name="Hill 113")
    for public_id, user in ((campaign.public_id, users["gerd"]), (other.public_id, users["gerd"]),
                            (campaign.public_id, users["cana"]), ("nosuchcampaign", users["gerd"])):
        prepared = SEAT_FOR.rows(public_id, user.pk)
        plain = list(SEAT_FOR.queryset(public_id, user.pk))
        assert [loaded(seat) for seat in prepared] == [loaded(seat) for seat in plain]
    seat = SEAT_FOR.rows(campaign.public_id, users["cana"].pk)[0]
    assert (seat.side, seat.user.username, seat.campaign.public_id) == ("canadian", "cana", campaign.public_id)
    assert seat.get_deferred_fields() == set() and "state" in seat.campaign.get_deferred_fields()


def test_prepared_campaign_reads_give_what_their_querysets_give(campaign_factory: Any, users: Any) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    EventRecord.objects.create(campaign=campaign, seq=9001, kind="message", visibility="public", side="german",
                               payload={"text": "Ready when you are."})
    with transaction.atomic():
        assert [loaded(c) for c in LOCKED.rows(campaign.public_id)] == [
            loaded(c) for c in LOCKED.queryset(campaign.public_id)]
    assert [loaded(s) for s in SEATS.rows(campaign.pk)] == [loaded(s) for s in SEATS.queryset(campaign.pk)]
    assert RECENT.rows(campaign.pk) == list(RECENT.queryset(campaign.pk))
    assert RECENT.rows(campaign.pk)[0][1:5] == ("message", "public", "german", {"text": "Ready when you are."})
    assert LATEST.rows(campaign.pk) == list(LATEST.queryset(campaign.pk))
    assert LATEST.rows(campaign.pk)[0][:2] == ("german", {"text": "Ready when you are."})


def test_a_prepared_query_takes_only_the_kinds_of_values_it_was_prepared_for(db: Any) -> None:
    with pytest.raises(TypeError):
        SEATS.rows("1")
    with pytest.raises(TypeError):
        SEAT_FOR.rows("x")


def test_a_value_changed_on_its_way_into_the_sql_cannot_be_prepared(db: Any) -> None:
    contains = Prepared(lambda name: Campaign.objects.filter(name__icontains=name), str)
    with pytest.raises(NotPreparable):
        contains.rows("Hill")


@pytest.mark.django_db(transaction=True)
def test_a_prepared_lock_outside_a_transaction_is_refused_like_its_queryset() -> None:
    assert connection.get_autocommit()
    with pytest.raises(TransactionManagementError):
        list(LOCKED.queryset("anything"))
    with pytest.raises(TransactionManagementError):
        LOCKED.rows("anything")


def test_a_seat_lookup_finds_nothing_for_a_user_without_a_seat(campaign_factory: Any, users: Any) -> None:
    campaign = campaign_factory(users["gerd"], None)
    assert SEAT_FOR.rows(campaign.public_id, users["cana"].pk) == []
    assert Seat.objects.filter(campaign=campaign).count() == 1


def test_the_live_pages_prepared_reads_give_what_their_querysets_give(campaign_factory: Any, users: Any) -> None:
    from campaigns_app.live import pages

    campaign = campaign_factory(users["gerd"], users["cana"])
    seat = Seat.objects.get(campaign=campaign, side="german")
    assert pages.published(seat.pk) is not None  # stores the seat's view
    revision, epoch, version = pages.CURRENT.rows(seat.pk)[0][:3]
    assert pages.CURRENT.rows(seat.pk) == list(pages.CURRENT.queryset(seat.pk))
    assert pages.STORED_AT.rows(seat.pk, revision, epoch, version) == list(
        pages.STORED_AT.queryset(seat.pk, revision, epoch, version))
    assert pages.STORED_AT.rows(seat.pk, revision, epoch, version + 1) == []
    assert [loaded(v) for v in pages.STORED_STAMP.rows(seat.pk)] == [
        loaded(v) for v in pages.STORED_STAMP.queryset(seat.pk)]
    assert [loaded(s) for s in pages.SEAT.rows(seat.pk)] == [loaded(s) for s in pages.SEAT.queryset(seat.pk)]
    with transaction.atomic():
        assert pages.LOCKED.rows(campaign.pk) == list(pages.LOCKED.queryset(campaign.pk))
    assert [loaded(v) for v in pages.STORED_VIEWS.rows(campaign.pk)] == [
        loaded(v) for v in pages.STORED_VIEWS.queryset(campaign.pk)]


def test_a_prepared_update_writes_what_the_orm_update_writes(campaign_factory: Any, users: Any) -> None:
    from datetime import UTC, datetime

    from campaigns_app.live.pages import TOUCH
    from campaigns_app.services.presence import SEEN

    campaign = campaign_factory(users["gerd"], users["cana"])
    german, canadian = campaign.seats.get(side="german"), campaign.seats.get(side="canadian")
    moment = datetime(2026, 11, 28, 17, 5, 9, 123456, tzinfo=UTC)
    revision = Campaign.objects.get(pk=campaign.pk).revision

    assert SEEN.run(moment, german.pk) == 1
    assert TOUCH.run(campaign.pk) == 1 and TOUCH.run(campaign.pk) == 1
    assert SEEN.run(moment, 10**9) == 0  # no such seat: nothing written

    assert Seat.objects.get(pk=german.pk).last_seen == moment
    assert Seat.objects.get(pk=canadian.pk).last_seen == canadian.last_seen  # only the seat named
    assert Campaign.objects.get(pk=campaign.pk).revision == revision + 2
    Seat.objects.filter(pk=canadian.pk).update(last_seen=moment)  # the ORM's own UPDATE stores the same value
    assert Seat.objects.get(pk=canadian.pk).last_seen == Seat.objects.get(pk=german.pk).last_seen


def test_a_prepared_update_refuses_what_is_not_a_column_and_values_that_do_not_fit() -> None:
    from campaigns_app.prepared import PreparedUpdate
    from campaigns_app.services.presence import SEEN

    with pytest.raises(ValueError, match="not a column"):
        PreparedUpdate(Campaign, assign=("seats",))  # the reverse side of Seat.campaign
    with pytest.raises(ValueError, match="at least one"):
        PreparedUpdate(Seat, where=("id",))
    with pytest.raises(TypeError, match="1 assigned and 1 key"):
        SEEN.run(1)


def test_prepared_message_reads_give_what_the_orm_gives(campaign_factory: Any, users: Any) -> None:
    from campaigns_app.messages import selectors
    from rules_engine.messages import PER_HOUR

    campaign = campaign_factory(users["gerd"], users["cana"])
    other = campaign_factory(users["cana"], users["gerd"], to_initiative=False, name="Hill 113")
    for seq, (where, side, form) in enumerate([(campaign, "german", "f1"), (campaign, "german", "f2"),
                                               (campaign, "canadian", "f3"), (other, "german", "f1")], start=9001):
        EventRecord.objects.create(campaign=where, seq=seq, kind="message", visibility="public", side=side,
                                   payload={"text": "Ready.", "form": form})
    EventRecord.objects.create(campaign=campaign, seq=9100, kind="note", visibility="side", side="german",
                               payload={"form": "f9"})  # not a message: counted nowhere
    messages = EventRecord.objects.filter(kind="message")
    for where in (campaign, other):
        assert selectors.sent_in(where.pk) == messages.filter(campaign=where).count()
        for side in ("german", "canadian"):
            assert selectors.sent_by(where.pk, side) == messages.filter(campaign=where, side=side).count()
            assert selectors.own_latest(where.pk, side) == list(
                messages.filter(campaign=where, side=side).order_by("-seq").values_list("created", flat=True)[:PER_HOUR])
            for form in ("f1", "f2", "f3", "f9", "nosuchform"):
                assert selectors.form_sent(where.pk, side, form) == messages.filter(
                    campaign=where, side=side, payload__form=form).exists(), (where.name, side, form)
    assert (selectors.sent_by(campaign.pk, "german"), selectors.sent_in(campaign.pk)) == (2, 3)
    assert selectors.form_sent(campaign.pk, "german", "f2") and not selectors.form_sent(campaign.pk, "canadian", "f2")


def test_a_prepared_query_asks_its_columns_for_converters_once_per_connection(campaign_factory: Any, users: Any,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from django.db.models import Field

    campaign = campaign_factory(users["gerd"], users["cana"])
    EventRecord.objects.create(campaign=campaign, seq=9001, kind="message", visibility="public", side="german",
                               payload={"text": "Ready when you are."})
    asked: list[str] = []
    original = Field.get_db_converters

    def counted(field: Any, connection: Any) -> Any:
        asked.append(field.name)
        return original(field, connection)

    monkeypatch.setattr(Field, "get_db_converters", counted)
    SEAT_FOR.rows(campaign.public_id, users["gerd"].pk)  # the first run on this connection may ask
    LATEST.rows(campaign.pk)
    asked.clear()
    seat = SEAT_FOR.rows(campaign.public_id, users["gerd"].pk)[0]
    latest = LATEST.rows(campaign.pk)
    assert asked == []
    # the converters still apply: the JSON payload decoded, the seat's relations and deferred fields as before
    assert latest == list(LATEST.queryset(campaign.pk)) and latest[0][1] == {"text": "Ready when you are."}
    assert loaded(seat) == loaded(list(SEAT_FOR.queryset(campaign.public_id, users["gerd"].pk))[0])
    assert asked != []  # the querysets themselves asked: the count above could have caught a run asking
