"""Admin: read-mostly, and never a place to read secrets (dice seed, sealed chits, secret events) while a CG runs."""
from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from campaigns_app.models import Campaign, CgSystem, Seat


@admin.register(CgSystem)
class CgSystemAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "name", "sha256", "loaded_at")
    readonly_fields = ("id", "name", "sha256", "loaded_at", "definition")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    fields = ("user", "side", "joined", "last_seen")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Only what both players may see: no state JSON, no seed, no events."""

    list_display = ("name", "system", "created_by", "created", "updated")
    fields = ("name", "system", "created_by", "seed_commitment", "created", "updated")
    readonly_fields = fields
    inlines = [SeatInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
