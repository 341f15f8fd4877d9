"""The record forms as tables: the CG Roster and the RG Purchase Record (helper M1).

They are a projection of the ledgers in ``Campaign.state`` (rules_engine SideLedger.roster / .purchases), kept in step
by ``campaigns_app.records.projection.project`` in the same transaction as every state save; the JSON stays the engine's source of
truth, the record pages, CSV and print views read these tables. Secret: a side's lines are its own until the rules
reveal them (the selectors read the opponent's lines only through the forms' public columns) — never registered in
the admin.
"""
from __future__ import annotations

from django.db import models
from django.db.models import Q

from campaigns_app.models.campaigns import Campaign

MAX_DIGITS = 9  # point amounts: whole numbers and halves (A-P mines 1.5 FPP)
DECIMAL_PLACES = 2


class RosterLine(models.Model):
    """One CG Roster line (RR 2.518; PL/PHD/ER/KGP likewise): one per CG Date / Firefight / TM Scenario per side."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="roster_lines")
    side = models.CharField(max_length=40)
    date_id = models.CharField(max_length=60)
    position = models.PositiveIntegerField(help_text="The date's index in the system's calendar (play order).")
    start = models.DecimalField(null=True, blank=True, max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES)
    replenished = models.DecimalField(null=True, blank=True, max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES)
    purchased = models.JSONField(default=list, blank=True, help_text='"RG Purchased": [[RG id, cost], …].')
    spent = models.DecimalField(default=0, max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES)
    left = models.DecimalField(null=True, blank=True, max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES)
    recon = models.IntegerField(null=True, blank=True)
    elr = models.IntegerField(null=True, blank=True)
    san = models.IntegerField(null=True, blank=True)
    initiative = models.CharField(max_length=10, null=True, blank=True)
    lvp_current = models.IntegerField(null=True, blank=True)
    lvp_cg = models.IntegerField(null=True, blank=True)
    fortifications = models.JSONField(default=list, blank=True)
    cvp_suffered = models.IntegerField(null=True, blank=True)
    cvp_amassed = models.IntegerField(null=True, blank=True)
    notes = models.TextField(blank=True, default="")
    san_pending = models.IntegerField(
        null=True, blank=True, default=0,
        help_text="A SAN increase bought in secret (RR M2) not yet announced (2.525): the owner's only.")

    class Meta:
        ordering = ["campaign", "side", "position"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "side", "date_id"], name="rosterline_one_per_date_per_side"),
            models.CheckConstraint(condition=~Q(side=""), name="rosterline_side_not_empty"),
            models.CheckConstraint(condition=~Q(date_id=""), name="rosterline_date_not_empty"),
            models.CheckConstraint(condition=Q(spent__gte=0), name="rosterline_spent_not_negative"),
            models.CheckConstraint(
                condition=Q(initiative__isnull=True) | Q(initiative__in=["attack", "idle"]),
                name="rosterline_initiative_attack_or_idle",
            ),
            models.CheckConstraint(
                condition=Q(cvp_suffered__isnull=True) | Q(cvp_suffered__gte=0), name="rosterline_cvp_suffered_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(cvp_amassed__isnull=True) | Q(cvp_amassed__gte=0), name="rosterline_cvp_amassed_not_negative"
            ),
        ]
        indexes = [models.Index(fields=["campaign", "side", "position"], name="rosterline_page_order")]

    def __str__(self) -> str:
        return f"{self.side} {self.date_id}"


class PurchaseRecordLine(models.Model):
    """One RG Purchase Record line (RR 2.5188): an RG bought, or given in the Initial Scenario OB, and its rolls."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="purchase_lines")
    side = models.CharField(max_length=40)
    line = models.PositiveIntegerField(help_text="The side's running line number (secret: it counts purchases).")
    date_id = models.CharField(max_length=60)
    rg_id = models.CharField(max_length=40)
    group_type = models.CharField(max_length=200, blank=True, default="")
    leaders = models.JSONField(default=list, blank=True)
    number_purchased = models.PositiveIntegerField(default=0, help_text="#P (Initial-OB RG not counted, 2.5186).")
    remaining = models.IntegerField(null=True, blank=True, help_text="#R: CG Max − #P (empty without a CG Max).")
    strength = models.CharField(max_length=1, null=True, blank=True)
    units = models.JSONField(default=list, blank=True, help_text="[[count, unit], …]")
    sw = models.JSONField(default=dict, blank=True, help_text="{weapon: count}")
    setup_area = models.CharField(max_length=200, null=True, blank=True)
    oba_ammo = models.CharField(max_length=200, null=True, blank=True)
    cost = models.DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES)
    setup_mode = models.CharField(max_length=10, default="entry")
    pre_registered = models.PositiveIntegerField(default=0)
    extra = models.PositiveIntegerField(default=0)
    leader_column = models.CharField(max_length=60, null=True, blank=True)
    rolled = models.BooleanField(default=False)
    notes = models.TextField(blank=True, default="")
    initial_ob = models.BooleanField(default=False)

    class Meta:
        ordering = ["campaign", "side", "line"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "side", "line"], name="purchaseline_one_per_number_per_side"),
            models.CheckConstraint(condition=~Q(side=""), name="purchaseline_side_not_empty"),
            models.CheckConstraint(condition=~Q(date_id=""), name="purchaseline_date_not_empty"),
            # An RG given in the Initial Scenario OB whose chart line the rule text lost (PHD C4.2 without a CG Card) is
            # recorded by its group type alone: it has no RG id to show.
            models.CheckConstraint(
                condition=~Q(rg_id="") | (Q(initial_ob=True) & ~Q(group_type="")), name="purchaseline_rg_id_not_empty"
            ),
            models.CheckConstraint(condition=Q(line__gte=1), name="purchaseline_line_from_1"),
            models.CheckConstraint(
                condition=Q(strength__isnull=True) | Q(strength__in=["F", "D"]), name="purchaseline_strength_f_or_d"
            ),
            models.CheckConstraint(
                condition=Q(remaining__isnull=True) | Q(remaining__gte=0), name="purchaseline_remaining_not_negative"
            ),
            models.CheckConstraint(condition=Q(cost__gte=0), name="purchaseline_cost_not_negative"),
            models.CheckConstraint(
                condition=Q(setup_mode__in=["entry", "on-map", "reserve"]), name="purchaseline_setup_mode_known"
            ),
        ]
        # the page query (campaign, side, ordered by line) runs on the unique constraint's index

    def __str__(self) -> str:
        return f"{self.side} #{self.line} {self.rg_id}"
