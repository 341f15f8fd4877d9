"""Every write Refit makes, one module per feature; each state-changing service is one ``Move`` through the one
path (``core.act``: lock → validate → act → save → notify). ``from campaigns_app import services`` keeps working:
the names views, consumers and tests use are re-exported here."""
from __future__ import annotations

from campaigns_app import engine
from campaigns_app.form_tokens import form_tag
from campaigns_app.models import now
from campaigns_app.services.campaigns import (
    PLAYER_SEED_MAX,
    campaign_create,
    campaign_join,
    clean_player_seed,
    player_seed_problem,
    seat_seed_set,
    seeds_fixed,
)
from campaigns_app.services.core import (
    Move,
    act,
    after_commit,
    append_events,
    locked,
    newly_due,
    owes_all,
    player_seeds,
    save_state,
    seat_of,
    seats_of,
)
from campaigns_app.services.errors import (
    CampaignFull,
    FormNotValid,
    InvitationNotFound,
    LostValuesInvalid,
    NotSeated,
    PlayerSettingsInvalid,
    RateLimited,
    RefusedOrder,
    ServiceError,
)
from campaigns_app.services.messages import message_send
from campaigns_app.services.notes import note_reveal, note_seal
from campaigns_app.services.phase import (
    END_REASONS,
    assisted_roll_submit,
    board_roll_submit,
    cg_end_concede,
    cg_end_decline,
    cg_end_propose,
    cg_end_withdraw,
    chit_submit,
    declaration_submit,
    losses_submit,
    order_submit,
    phase_mark_done,
    recon_declare,
    recon_submit,
    repair_roll_submit,
    resolution_order_submit,
    results_submit,
    scenario_roll_submit,
    step_mark_done,
    value_supply,
)
from campaigns_app.services.presence import presence_beat, presence_close, presence_open
from campaigns_app.services.secret_rolls import secret_roll, secret_roll_reveal
from campaigns_app.services.tokens import FORM_NOT_VALID, current_step_ref, form_token, require_genuine

__all__ = [
    "END_REASONS", "FORM_NOT_VALID", "PLAYER_SEED_MAX", "CampaignFull", "FormNotValid",
    "InvitationNotFound", "LostValuesInvalid", "Move", "NotSeated", "PlayerSettingsInvalid", "RateLimited", "RefusedOrder",
    "ServiceError", "act", "after_commit", "append_events", "assisted_roll_submit", "board_roll_submit",
    "campaign_create", "campaign_join", "cg_end_concede", "cg_end_decline", "cg_end_propose", "cg_end_withdraw",
    "chit_submit", "clean_player_seed", "current_step_ref", "declaration_submit", "engine", "form_tag", "form_token",
    "locked", "losses_submit", "message_send", "newly_due", "note_reveal", "note_seal", "now", "order_submit", "owes_all", "phase_mark_done",
    "player_seed_problem", "player_seeds", "presence_beat", "presence_close", "presence_open", "recon_declare",
    "recon_submit", "repair_roll_submit", "require_genuine", "resolution_order_submit", "results_submit",
    "save_state", "scenario_roll_submit", "secret_roll", "secret_roll_reveal", "seat_of", "seat_seed_set", "seats_of", "seeds_fixed", "step_mark_done",
    "value_supply",
]
