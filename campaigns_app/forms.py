"""Forms: sign-up, campaign creation and the two-step sealed chit."""
from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from campaigns_app.models import CgSystem, new_player_seed
from campaigns_app.services import player_seed_problem
from rules_engine.pace import PACES, pace_words

PLAYER_SEED_HELP = ("Bound into every die roll together with the server's secret seed, so the server could not have "
                    "chosen its seed to suit the dice. Keep the random value or type your own (1–64 printable "
                    "characters). It is fixed once both players have joined, before any roll.")


def player_seed_field() -> forms.CharField:
    """A player's own seed string (checked by services.player_seed_problem), pre-filled with a random value."""
    return forms.CharField(
        label="Your player seed", required=False, strip=True, initial=new_player_seed, help_text=PLAYER_SEED_HELP,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false", "maxlength": "64",
                                      "class": "input seed-input"}),
    )


def clean_player_seed_value(value: str) -> str:
    problem = player_seed_problem(value)
    if problem:
        raise forms.ValidationError(problem)
    return value

CHIT_CHOICES = [("attack", "Attack"), ("idle", "Idle")]


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    """A player account: user name, e-mail (for notifications and password resets), password twice."""

    email = forms.EmailField(
        required=True,
        help_text="Refit e-mails you when it is your move, and sends password-reset links here.",
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self) -> str:
        """The address as typed. Whether another account uses it is never said here (issue 10.6: sign-up does not
        reveal who has an account); the address's owner is told by e-mail instead (views.signup)."""
        email: str = self.cleaned_data["email"].strip()
        return email


class CampaignCreateForm(forms.Form):
    """Name, CG system and the creator's side (the side list depends on the system; checked in the service)."""

    name = forms.CharField(max_length=120, help_text="For example “Hill 112 with Sam”.")
    system = forms.ModelChoiceField(queryset=CgSystem.objects.all(), empty_label=None, to_field_name="id")
    side = forms.CharField(max_length=40, widget=forms.RadioSelect)
    player_seed = player_seed_field()
    pace = forms.TypedChoiceField(
        choices=[("", "No time limit"), *((str(h), pace_words(h)) for h in PACES)], coerce=int, empty_value=None,
        required=False, label="Pace",
        help_text="The time each player has for each action that falls due. Your opponent sees it on the invitation "
                  "and accepts it by joining; reminders go out before a deadline, and overdue is shown, never played.")

    def clean_player_seed(self) -> str | None:
        if "player_seed" not in self.data:
            return None  # a client that does not send the field: a random seed (changeable until the first roll)
        return clean_player_seed_value(str(self.cleaned_data.get("player_seed") or ""))

    def __init__(self, *args: Any, side_choices: list[tuple[str, str]] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["system"].label = "CG system"
        self.fields["side"].label = "Your side"
        self.fields["side"].widget = forms.RadioSelect(choices=side_choices or [])
        self.fields["side"].help_text = "Your opponent takes the other side when they open your invitation link."


class PlayerSeedForm(forms.Form):
    """A player's own seed string: at joining, and on the campaign page until the first roll."""

    player_seed = player_seed_field()

    def clean_player_seed(self) -> str | None:
        if "player_seed" not in self.data:
            return None  # a client that does not send the field: a random seed (changeable until the first roll)
        return clean_player_seed_value(str(self.cleaned_data.get("player_seed") or ""))


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
