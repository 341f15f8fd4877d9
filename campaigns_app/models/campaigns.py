"""Refit's tables: CG systems, CG Cards, campaigns, seats, invitations, the event log and live-page presence.

Players never see a primary key: campaigns are addressed by ``public_id`` and invitations by ``token``,
both random and unguessable; event sequence numbers stay on the server (they would count hidden events).
"""
from __future__ import annotations

import secrets
from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


def now() -> datetime:
    """The current time (a module function so tests can pin it)."""
    return timezone.now()


def new_public_id() -> str:
    """A campaign's public id: 128 random bits, URL-safe, not starting with "-" (a command line would read such an id
    as an option: ``manage.py export_campaign ID``)."""
    while True:
        found = secrets.token_urlsafe(16)
        if not found.startswith("-"):
            return found


def new_invitation_token() -> str:
    """An invitation token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def new_card_id() -> str:
    """A CG Card's id (also its URL): 128 random bits, URL-safe (cards are private; an id must not count them)."""
    return secrets.token_urlsafe(16)


def new_player_seed() -> str:
    """A player's contribution to the dice: 64 random bits, shown to that player."""
    return secrets.token_hex(8)


class CgSystem(models.Model):
    """A CG system definition (``fixtures/<id>.yaml``), validated by rules_engine and loaded by ``load_systems``."""

    id = models.SlugField(primary_key=True, max_length=40)
    name = models.CharField(max_length=200)
    definition = models.TextField(help_text="The YAML text as loaded (refit-cg/1).")
    sha256 = models.CharField(max_length=64)
    loaded_at = models.DateTimeField(default=now)

    class Meta:
        ordering = ["name"]
        verbose_name = "CG system"
        constraints = [
            models.CheckConstraint(condition=Q(sha256__regex=r"^[0-9a-f]{64}$"), name="cgsystem_sha256_hex"),
            models.CheckConstraint(condition=~Q(definition=""), name="cgsystem_definition_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class CgCard(models.Model):
    """A CG Card (docs/cg-format.md `kind: cg-card`) that fills in a system: a user's own, or bundled with Refit.

    A user's card is private to its owner (``owner`` set). A bundled card (``owner`` empty, ``bundled_file`` set) comes
    from ``fixtures/cards/`` and every player may use it. A campaign copies the card's text when it is created, so
    editing or deleting a card never changes a running campaign.
    """

    id = models.CharField(primary_key=True, max_length=40, default=new_card_id, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="cg_cards"
    )
    system = models.ForeignKey(CgSystem, on_delete=models.PROTECT, related_name="cards")
    card_id = models.CharField(max_length=80, help_text="The document's `id`.")
    name = models.CharField(max_length=300)
    text = models.TextField(help_text="The YAML text as uploaded (refit-cg/1, kind: cg-card).")
    sha256 = models.CharField(max_length=64)
    example = models.BooleanField(default=False, help_text="`example: true` in the document: not a published campaign.")
    bundled_file = models.CharField(max_length=200, blank=True, default="")
    published = models.BooleanField(
        default=False, help_text="Its author shares it: every player finds it on the create page (read-only to them)."
    )
    published_at = models.DateTimeField(null=True, blank=True)
    copied_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="copies",
        help_text="The card this one was copied from (a copy is private to the player who copied it).",
    )
    created = models.DateTimeField(default=now, editable=False)
    updated = models.DateTimeField(default=now)

    class Meta:
        ordering = ["system_id", "name", "created"]
        verbose_name = "CG Card"
        constraints = [
            models.CheckConstraint(condition=Q(sha256__regex=r"^[0-9a-f]{64}$"), name="cgcard_sha256_hex"),
            models.CheckConstraint(condition=~Q(text=""), name="cgcard_text_not_empty"),
            models.CheckConstraint(condition=~Q(name=""), name="cgcard_name_not_empty"),
            models.CheckConstraint(condition=Q(id__regex=r"^[A-Za-z0-9_-]{16,40}$"), name="cgcard_id_shape"),
            models.CheckConstraint(
                condition=Q(owner__isnull=True, bundled_file__gt="") | Q(owner__isnull=False, bundled_file=""),
                name="cgcard_owned_or_bundled",
            ),
            models.UniqueConstraint(
                fields=["owner", "sha256"], condition=Q(owner__isnull=False), name="cgcard_one_copy_per_owner"
            ),
            models.CheckConstraint(condition=Q(published=False) | Q(owner__isnull=False, published_at__isnull=False),
                                   name="cgcard_published_by_its_author"),
            models.UniqueConstraint(
                fields=["bundled_file"], condition=Q(owner__isnull=True), name="cgcard_bundled_file_unique"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def bundled(self) -> bool:
        return self.owner_id is None


class Campaign(models.Model):
    """One CG between two players; ``state`` is rules_engine ``CampaignState.to_json()``."""

    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    system = models.ForeignKey(CgSystem, on_delete=models.PROTECT, related_name="campaigns")
    name = models.CharField(max_length=120)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    state = models.JSONField()
    # The dice seed stays secret until the CG ends; its SHA-256 commitment is shown to both players from the start.
    dice_seed = models.CharField(max_length=64, editable=False)
    seed_commitment = models.CharField(max_length=64, editable=False)
    dice_counters = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(default=now, editable=False)
    updated = models.DateTimeField(default=now)
    # The CG Card the campaign plays by: its text is copied at creation (card_text/card_sha256 are what the engine
    # applies), so a later edit of the card cannot change a running campaign. ``card`` only links back to it.
    card = models.ForeignKey(CgCard, on_delete=models.PROTECT, null=True, blank=True, related_name="campaigns")
    card_name = models.CharField(max_length=300, blank=True, default="")
    card_text = models.TextField(blank=True, default="", editable=False)
    card_sha256 = models.CharField(max_length=64, blank=True, default="", editable=False)
    # Moves (under the row lock) with every write any live page may show: state, events, seats, presence. Internal:
    # never rendered — it counts the opponent's secret actions too. campaigns_app.live.pages re-renders on a new revision.
    revision = models.PositiveBigIntegerField(default=0, editable=False)
    # The seq of the campaign's last EventRecord: the next events follow it (moved under the row lock, saved with
    # the state), so appending needs no aggregate over the event table.
    event_seq = models.PositiveIntegerField(default=0, editable=False)
    # The players' choices of the settings the rules leave to them (``source: players``: KGP 8.31 CG Balance, PL 3.2
    # Redeployment Option …), {setting id: value}, made on the create page and accepted by the opponent at joining.
    # Part of the rules the campaign plays by: set at creation, never changed afterwards (engine.system_for applies it).
    player_settings = models.JSONField(default=dict, blank=True, editable=False)
    # The values lost in the rule text that the CG Card leaves open (rules_engine.lost_values.needed_values), typed on
    # the create page as printed: {"table|row index|column id": value}. Printed rule values, not secrets: shown to the
    # opponent before joining (joining accepts them) and on Rules in use; set at creation, never changed afterwards
    # (engine.system_for applies them ``with_cells`` for both sides). Empty for a campaign created before this field.
    supplied_values = models.JSONField(default=dict, blank=True, editable=False)
    # Pace (issue 13): hours per due action, proposed on the create page and accepted by joining (None: no limit);
    # pauses both players agreed to, [[start, end] ISO 8601 …]; a pause asked for, {"side", "until"} ({} when none);
    # each side's due action, {side: {"since": ISO 8601, "reminded": "" | "soon" | "overdue"}} (no key: nothing due;
    # "since": when its clock started — it fell due, or a new pace was agreed); a new pace proposed, changed only when
    # both agree, {"side", "hours": int | None} ({} when none).
    pace_hours = models.PositiveIntegerField(null=True, blank=True)
    pauses = models.JSONField(default=list, blank=True)
    pause_request = models.JSONField(default=dict, blank=True)
    due = models.JSONField(default=dict, blank=True)
    pace_request = models.JSONField(default=dict, blank=True)
    # The last message e-mailed to each reader who was away, {side: {"at": ISO 8601, "seq": event seq}}: the next is
    # e-mailed MAIL_GAP later at the soonest, unless the reader opened the page since (rules_engine.messages.mail_due).
    messages_mailed = models.JSONField(default=dict, blank=True)
    replayed = False  # not stored: set by services.act — a resent or stale form that recorded nothing

    class Meta:
        ordering = ["-updated"]
        constraints = [
            models.CheckConstraint(
                condition=Q(card_text="", card_sha256="") | (~Q(card_text="") & Q(card_sha256__regex=r"^[0-9a-f]{64}$")),
                name="campaign_card_text_with_sha256",
            ),
            models.CheckConstraint(condition=Q(dice_seed__regex=r"^[0-9a-f]{64}$"), name="campaign_seed_hex"),
            models.CheckConstraint(condition=Q(seed_commitment__regex=r"^[0-9a-f]{64}$"), name="campaign_commitment_hex"),
            models.CheckConstraint(condition=~Q(name=""), name="campaign_name_not_empty"),
            models.CheckConstraint(condition=Q(pace_hours__isnull=True) | Q(pace_hours__gte=1, pace_hours__lte=720),
                                   name="campaign_pace_hours_range"),
            models.CheckConstraint(condition=Q(public_id__regex=r"^[A-Za-z0-9_-]{16,32}$"), name="campaign_public_id_shape"),
        ]

    def __str__(self) -> str:
        return self.name


class Seat(models.Model):
    """A player's side in a campaign."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    side = models.CharField(max_length=40)
    player_seed = models.CharField(max_length=64, default=new_player_seed, editable=False)
    joined = models.DateTimeField(default=now, editable=False)
    last_seen = models.DateTimeField(null=True, blank=True)
    # The player's e-mails about this campaign ("each", "digest", "none"); "" follows their default for all
    # (campaigns_app.models.notify.NotificationSetting).
    notify = models.CharField(max_length=10, blank=True, default="")

    class Meta:
        ordering = ["joined", "id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "side"], name="seat_one_player_per_side"),
            models.UniqueConstraint(fields=["campaign", "user"], name="seat_one_side_per_player"),
            models.CheckConstraint(condition=~Q(side=""), name="seat_side_not_empty"),
            models.CheckConstraint(condition=~Q(player_seed=""), name="seat_player_seed_not_empty"),
            models.CheckConstraint(condition=Q(notify__in=["", "each", "digest", "none"]), name="seat_notify_known"),
        ]

    def __str__(self) -> str:
        return f"{self.user} as {self.side}"


class Invitation(models.Model):
    """The link a campaign's creator sends to the opponent; valid for that one campaign only."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=48, unique=True, default=new_invitation_token, editable=False)
    created = models.DateTimeField(default=now, editable=False)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(token__regex=r"^[A-Za-z0-9_-]{24,48}$"), name="invitation_token_shape"),
            models.CheckConstraint(
                condition=Q(accepted_by__isnull=True, accepted_at__isnull=True)
                | Q(accepted_by__isnull=False, accepted_at__isnull=False),
                name="invitation_accepted_by_and_at_together",
            ),
        ]

    def __str__(self) -> str:
        return f"Invitation to {self.campaign}"


class EventRecord(models.Model):
    """One rules_engine Event (or an app event: created, joined), in campaign order. ``seq`` is never shown."""

    class Visibility(models.TextChoices):
        PUBLIC = "public", "Both sides"
        SIDE = "side", "Owning side only"
        CG_END = "cg-end", "Owning side, both at CG end"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=60)
    visibility = models.CharField(max_length=10, choices=Visibility.choices)
    side = models.CharField(max_length=40, blank=True, default="")
    payload = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(default=now, editable=False)

    class Meta:
        ordering = ["campaign", "seq"]
        # a page of one kind (the dice log's rolls) and a roll's later resolution are read without a scan of the log
        indexes = [models.Index(fields=["campaign", "kind", "seq"], name="event_campaign_kind_seq")]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "seq"], name="event_seq_unique_per_campaign"),
            models.CheckConstraint(condition=Q(visibility__in=["public", "side", "cg-end"]), name="event_visibility_known"),
            models.CheckConstraint(
                condition=Q(visibility="public") | ~Q(side=""), name="event_secret_has_owner_side"
            ),
            models.CheckConstraint(condition=~Q(kind=""), name="event_kind_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} ({self.visibility})"


class LiveView(models.Model):
    """One seat's live fragments as rendered at a campaign revision (campaigns_app.live.pages), shared by every socket and
    htmx response of the seat. ``version`` is what the page sees (``data-live-version``): it moves only when this
    rendering changes, so it counts nothing the seat's own page does not show."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="live_view")
    revision = models.PositiveBigIntegerField(help_text="Campaign.revision this rendering was made at.")
    epoch = models.CharField(max_length=16, help_text="The code, templates and system it was rendered with.")
    version = models.PositiveBigIntegerField()
    digest = models.CharField(max_length=64, help_text="SHA-256 of the fragments.")
    fragments = models.JSONField(help_text="{element id: HTML}, with the version left as a mark.")

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(version__gte=1), name="liveview_version_from_1"),
            models.CheckConstraint(condition=Q(digest__regex=r"^[0-9a-f]{64}$"), name="liveview_digest_hex"),
        ]

    def __str__(self) -> str:
        return f"{self.seat} v{self.version}"
