"""Thin views for the between-scenario phase: done, rolls, declarations, results, supplied values, CG end."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns_app import door, engine, services
from campaigns_app.live import fragments
from campaigns_app.models import Seat
from campaigns_app.phase import form_numbers
from campaigns_app.phase import results as phase_results
from campaigns_app.records import end_selectors
from campaigns_app.web import NOT_FOUND, fragments_response, int_field, is_htmx, page, player, seated
from rules_engine.board import COUNT_MAX, THRESHOLD_RANGE, TURN_MAX
from rules_engine.losses import MAX_CVP, MAX_LEADERS


def phase_response(request: HttpRequest, seat: Seat, status: int = 200, done: str | None = None,
                    **extra: Any) -> HttpResponse:
    """After a phase action: htmx gets every live fragment (swapped out of band by id); without JavaScript the page
    is rendered again (refused: with the messages) or the browser is redirected to it (recorded)."""
    if is_htmx(request):
        return fragments_response(seat, list(fragments.FRAGMENTS), status, **extra)
    if status >= 400:
        return page(request, seat, status, **extra)
    if done:
        messages.success(request, done)
    return redirect(f"{reverse('campaign_detail', args=[seat.campaign.public_id])}#step-panel")


REPLAYED = "That form was already recorded; nothing was changed."


STEP_ALREADY_FINISHED = "That step is already finished; the page has been refreshed."


def run_phase(request: HttpRequest, seat: Seat, call: Callable[[], Any], done: str | Callable[[Any], str],
               replayed: str = REPLAYED, refused_extra: dict[str, Any] | None = None) -> HttpResponse:
    extra = refused_extra or {}
    try:
        campaign = call()
    except services.NotSeated:
        raise Http404(NOT_FOUND) from None
    except services.RefusedOrder as error:
        return phase_response(request, seat, 422, phase_errors=error.messages, **extra)
    except services.ServiceError as error:
        return phase_response(request, seat, 422, phase_errors=[str(error)], **extra)
    if getattr(campaign, "replayed", False):
        return phase_response(request, seat, 200, done=replayed, phase_notice=replayed)
    return phase_response(request, seat, 200, done=done(campaign) if callable(done) else done)


@seated
@require_POST
def phase_done(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Mark the step the form names finished for the user's side; a stale or resent form (its step already
    finished, or no longer current) finishes nothing and says so."""
    token = str(request.POST.get("token", ""))
    step_ref = str(request.POST.get("step", ""))
    map_group = str(request.POST.get("map_group", "")).strip() or None  # KGP 8.2: the Map Group's scenario
    run = request.POST.get("run") == "yes"  # a run of on-the-board steps in one click
    return run_phase(request, seat, lambda: services.phase_mark_done(
        user=player(request), public_id=seat.campaign.public_id, token=token, step_ref=step_ref, map_group=map_group,
        run=run),
        f"The scenario on {map_group} is marked finished." if map_group else
        "These steps are marked finished." if run else "Marked finished.",
        replayed=STEP_ALREADY_FINISHED)


def _answers(request: HttpRequest, problems: list[str]) -> dict[int, int | bool]:
    """The DRM conditions a roll form posts: ``q-<index>`` ticked (``ask-<index>`` tick) or a number (count, value)."""
    answers: dict[int, int | bool] = {}
    for key, raw in request.POST.items():
        if not key.startswith("q-"):
            continue
        index = form_numbers.small_index(key[2:])
        if index is None:
            continue
        kind = str(request.POST.get(f"ask-{index}", "tick"))
        if kind == "tick":
            answers[index] = raw in ("on", "yes", "1", "true")
        else:
            value = int_field(request, key, f"DRM {index + 1}", problems, None, None)
            if value:
                answers[index] = value
    return answers


@seated
@require_POST
def roll_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """An assisted roll: the table, its column and the DRM conditions the player ticked, counted or valued."""
    problems: list[str] = []
    table_id = str(request.POST.get("table", ""))
    column = str(request.POST.get("column", "")).strip() or None
    answers = _answers(request, problems)
    if problems:
        return phase_response(request, seat, 422, phase_errors=problems)
    token = str(request.POST.get("token", ""))
    return run_phase(request, seat, lambda: services.assisted_roll_submit(
        user=player(request), public_id=seat.campaign.public_id, step_ref=str(request.POST.get("step", "")),
        table_id=table_id, column=column, answers=answers, token=token,
        what_for=str(request.POST.get("purpose", ""))), "Rolled.")


@seated
@require_POST
def board_roll_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Public rolls at the board (RR 2.504, the scenario): the dice (DR or dr), how many, and what they are for (and,
    with Map Groups in play, KGP 8.2, which Map Group's scenario)."""
    problems: list[str] = []
    kind = str(request.POST.get("kind", "")).strip()
    purpose = str(request.POST.get("purpose", ""))
    count = int_field(request, "count", "How many rolls", problems, 1, 1, COUNT_MAX)
    map_group = str(request.POST.get("map_group", "")).strip() or None  # KGP 8.2: the Map Group's scenario
    typed = {"board_kind": kind, "board_count": request.POST.get("count", ""), "board_purpose": purpose[:200],
             "board_map_group": (map_group or "")[:20]}  # the form the typed values go back into
    if problems:
        where = f"Map Group {map_group}: " if map_group else ""
        return phase_response(request, seat, 422, phase_errors=[where + p for p in problems], **typed)
    token = str(request.POST.get("token", ""))
    at = str(request.POST.get("at", ""))
    try:
        campaign = services.board_roll_submit(user=player(request), public_id=seat.campaign.public_id, at=at, kind=kind,
                                              count=count or 1, purpose=purpose, token=token, map_group=map_group)
    except services.NotSeated:
        raise Http404(NOT_FOUND) from None
    except services.ServiceError as error:
        return phase_response(request, seat, 422, phase_errors=[str(error)], **typed)
    if getattr(campaign, "replayed", False):
        return phase_response(request, seat, 200, done=REPLAYED, phase_notice=REPLAYED)
    return phase_response(request, seat, 200, done="Rolled.")


@seated
@require_POST
def scenario_roll_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """One of the scenario's own rolls (Game End dr …): the typed threshold and Game Turn, the DRM ticked."""
    problems: list[str] = []
    roll_id = str(request.POST.get("roll", ""))
    threshold = int_field(request, "threshold", "The number to compare with", problems, None, *THRESHOLD_RANGE)
    turn = int_field(request, "turn", "The Game Turn", problems, None, 1, TURN_MAX)
    answers = _answers(request, problems)
    if problems:
        return phase_response(request, seat, 422, phase_errors=problems)
    token = str(request.POST.get("token", ""))
    map_group = str(request.POST.get("map_group", "")).strip() or None  # KGP 8.2: the Map Group's scenario
    return run_phase(request, seat, lambda: services.scenario_roll_submit(
        user=player(request), public_id=seat.campaign.public_id, roll_id=roll_id, threshold=threshold, turn=turn,
        answers=answers, token=token, map_group=map_group), f"Rolled for {map_group}." if map_group else "Rolled.")


@seated
@require_POST
def declare_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """A declaration made at the board (KGP CG14 German Fanaticism): counted, and shown to both sides."""
    rule_id = str(request.POST.get("rule", ""))
    token = str(request.POST.get("token", ""))
    map_group = str(request.POST.get("map_group", "")).strip() or None
    return run_phase(request, seat, lambda: services.declaration_submit(
        user=player(request), public_id=seat.campaign.public_id, rule_id=rule_id, token=token, map_group=map_group),
        "Declared.")


@seated
@require_POST
def results_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """The side's entry of the scenario results (both must agree)."""
    system = engine.system_for(seat.campaign)
    problems: list[str] = []
    entry: dict[str, Any] = {"cvp": {}, "attacked": {}, "lvp": {}, "leaders_lost": {}, "units_lost": {}, "winner": None}
    lvp_sides, _ = phase_results.lvp_recorders(system)
    for side in engine.side_ids(system):
        name = engine.side_name(system, side)
        cvp = int_field(request, f"cvp-{side}", f"CVP amassed by the {name} side", problems, None, 0)
        if cvp is None and not any(p.startswith(f"CVP amassed by the {name}") for p in problems):
            problems.append(f"Enter the CVP amassed by the {name} side (0 if none).")
        entry["cvp"][side] = cvp or 0
        attacked = request.POST.get(f"attacked-{side}")
        if attacked not in ("yes", "no"):
            problems.append(f"Say whether the {name} side attacked (yes or no).")
        entry["attacked"][side] = attacked == "yes"
        for field, label in (("lvp", "LVP controlled"), ("leaders_lost", "Leaders lost"), ("units_lost", "Units lost")):
            if field == "lvp" and lvp_sides is not None and side not in lvp_sides:
                continue  # this side records no LVP (the data's record-lvp step names who does)
            value = int_field(request, f"{field}-{side}", f"{label} by the {name} side", problems, None, 0)
            if value is not None:
                entry[field][side] = value
        if engine.objective_hex_ref(system) is not None:  # KGP 8.2: own Objective Hexes Controlled at the scenario's end
            value = int_field(request, f"objective_hexes-{side}", f"Objective Hexes Controlled by the {name} side",
                               problems, None, 0)
            if value is not None:
                entry.setdefault("objective_hexes", {})[side] = value
    winner = str(request.POST.get("winner", "")).strip()
    entry["winner"] = winner or None
    map_group = str(request.POST.get("map_group", "")).strip() or None  # KGP 8.2: the Map Group's scenario
    if problems:
        where = f"Map Group {map_group}: " if map_group else ""
        return phase_response(request, seat, 422, phase_errors=[where + p for p in problems])
    return run_phase(request, seat, lambda: services.results_submit(
        user=player(request), public_id=seat.campaign.public_id, entry=entry, map_group=map_group),
        f"Your results entry for {map_group} is recorded." if map_group else "Your results entry is recorded.")


VALUE_TEXT_MAX = 200  # the longest text typed for a chart cell ("8-0, 7-0" …)


@seated
@require_POST
def supply_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Supply one value the current step needs (SAN/ELR/LVP, a DRM fact, a value lost in the rule text)."""
    need_id = str(request.POST.get("need", ""))[:80]
    kind = str(request.POST.get("input", "number"))
    raw = str(request.POST.get("value", "")).strip()
    if kind not in ("fact", "number") and len(raw) > VALUE_TEXT_MAX:
        return phase_response(request, seat, 422, phase_errors=[
            f"That value is {len(raw)} characters long; a value from a chart is at most {VALUE_TEXT_MAX}."])
    value: Any = raw
    problems: list[str] = []
    if kind == "questions":  # issue 14 item 7: every question of the form at once; an unticked box is "no"
        answers: dict[str, Any] = {}
        for key in list(request.POST)[:400]:
            if key.startswith("tick:"):
                answers[key.removeprefix("tick:")[:80]] = True
            elif key.startswith("count:"):
                count = form_numbers.whole_number(str(request.POST.get(key, "")), "Each count", problems, 0, 99)
                if count is None:
                    return phase_response(request, seat, 422, phase_errors=problems)
                answers[key.removeprefix("count:")[:80]] = count
            if len(answers) > 200:
                return phase_response(request, seat, 422, phase_errors=["Too many answers (at most 200)."])
        value = answers
    elif kind == "fact":
        if raw in ("yes", "no"):
            value = raw == "yes"
        else:
            value = form_numbers.whole_number(raw, "Your answer", problems, None, None)
            if value is None:
                return phase_response(request, seat, 422, phase_errors=[
                    f"Answer yes, no or {form_numbers.allowed(None, None)} (you typed “{form_numbers.excerpt(raw)}”)."])
    elif kind == "number":  # a SAN/ELR/LVP within its own range (issue 9 item 4), another value the forms' bound
        ref = door.side_view(seat.campaign, seat.side).phase_ref
        value = form_numbers.track_value(raw, need_id, ref, problems)
        if value is None:
            return phase_response(request, seat, 422, phase_errors=problems or [
                f"Type {form_numbers.allowed(None, None)}."])
    elif not raw:
        return phase_response(request, seat, 422, phase_errors=["Type the value as printed on your chart."])
    return run_phase(request, seat, lambda: services.value_supply(
        user=player(request), public_id=seat.campaign.public_id, need_id=need_id, value=value), "Thank you; recorded.")


@seated
@require_POST
def recon_declare(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Declare one Recon Location in turn (RR 2.524, PHD C5.40)."""
    location = str(request.POST.get("location", ""))[:40]
    return run_phase(request, seat, lambda: services.recon_declare(
        user=player(request), public_id=seat.campaign.public_id, location=location), "Declared: both players see it.")


@seated
@require_POST
def losses_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Record the CVP (and leaders) this side lost at the current step (PL 3.11, 3.45; PHD C5.1)."""
    problems: list[str] = []
    cvp = int_field(request, "cvp", "CVP lost", problems, None, 1, MAX_CVP)
    if cvp is None and not problems:
        problems.append(f"CVP lost: enter {form_numbers.allowed(1, MAX_CVP)}.")
    leaders = int_field(request, "leaders", "Leaders lost", problems, 0, 0, MAX_LEADERS)
    if problems:
        return phase_response(request, seat, 422, phase_errors=problems)
    return run_phase(request, seat, lambda: services.losses_submit(
        user=player(request), public_id=seat.campaign.public_id, cvp=cvp, leaders=leaders), "Recorded: both players see it.")


@seated
@require_POST
def cg_end(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Propose, withdraw, agree to (propose too) or decline the end of the CG by mutual agreement, or concede (asked to
    confirm first)."""
    action = str(request.POST.get("action", ""))
    calls = {"propose": services.cg_end_propose, "withdraw": services.cg_end_withdraw,
             "decline": services.cg_end_decline, "concede": services.cg_end_concede}
    if action not in calls:
        return phase_response(request, seat, 422,
                               phase_errors=["Unknown action (allowed: propose, withdraw, decline, concede)."])
    if action == "concede" and request.POST.get("confirmed") != "yes":
        return phase_response(request, seat, 200, confirm_concede=True)
    kwargs: dict[str, Any] = {}
    if action == "propose":
        kwargs["reason"] = str(request.POST.get("reason") or "mutual-agreement")
    return run_phase(request, seat, lambda: calls[action](user=player(request), public_id=seat.campaign.public_id, **kwargs),
                      lambda campaign: end_selectors.cg_end_message(campaign, action))
