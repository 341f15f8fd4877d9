"""Forms: sign-up, campaign creation and the two-step sealed chit."""
from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from campaigns_app.models import CgSystem

CHIT_CHOICES = [("attack", "Attack"), ("idle", "Idle")]


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    """A player account: user name, e-mail (for notifications and password resets), password twice."""

    email = forms.EmailField(
        required=True,
        help_text="Refit e-mails you when it is your move, and sends password-reset links here.",
    )

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc]
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"].strip()
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError("An account with this e-mail address already exists. Log in or reset your password.")
        return email


class CampaignCreateForm(forms.Form):
    """Name, CG system and the creator's side (the side list depends on the system; checked in the service)."""

    name = forms.CharField(max_length=120, help_text="For example “Hill 112 with Sam”.")
    system = forms.ModelChoiceField(queryset=CgSystem.objects.all(), empty_label=None, to_field_name="id")
    side = forms.CharField(max_length=40, widget=forms.RadioSelect)

    def __init__(self, *args: Any, side_choices: list[tuple[str, str]] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["system"].label = "CG system"
        self.fields["side"].label = "Your side"
        self.fields["side"].widget = forms.RadioSelect(choices=side_choices or [])
        self.fields["side"].help_text = "Your opponent takes the other side when they open your invitation link."


class ChitForm(forms.Form):
    """A sealed Initiative chit (RR 2.522): the side it is for and Attack or Idle.

    Values are checked against the seat and the rules in services.chit_submit; the form only reports
    what is malformed, listing what is allowed.
    """

    side = forms.CharField(max_length=40, widget=forms.HiddenInput)
    chit = forms.CharField(max_length=20, widget=forms.RadioSelect(choices=CHIT_CHOICES))

    def clean_chit(self) -> str:
        value: str = self.cleaned_data["chit"].strip().lower()
        allowed = [choice for choice, _ in CHIT_CHOICES]
        if value not in allowed:
            raise forms.ValidationError(f"“{value}” is not an Initiative chit (allowed: {', '.join(allowed)}).")
        return value
