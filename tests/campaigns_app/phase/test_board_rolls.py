"""Dice for the board through the services and views (PostgreSQL): RR 2.504 free rolls and the scenario's own rolls
(PL CG2 Game End dr). Every roll is made on the server on the public stream, logged with its purpose and roller, shown
live on both pages, re-checked from the seed; a form posted twice rolls once; a bad purpose saves nothing.

Golden values typed from the rule texts: PL CG2 (s000:901) "If the moving player makes a Game End dr <= the circled
number in the current turn's box the CG Firefight ends immediately"; RR 2.5041 "1TC per Encircled unit" (s001 2.504).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.conf import settings
from django.urls import reverse

from campaigns_app import engine, services
from campaigns_app.models import Campaign, EventRecord
from rules_engine import dice as engine_dice
from tests.campaigns_app.campaign_script import Play, ScriptedDice
from tests.campaigns_app.conftest import client_for, drive, load_rr, make_user, snapshot
from tests.campaigns_app.live.test_consumer import drain, open_socket
from tests.campaigns_app.phase.test_phase_flow import page, players, post, started, state_of

EXAMPLE_CARD = Path(settings.REFIT_FIXTURES_DIR) / "cards" / "example-pl25.yaml"


def at_2_504(users: Any) -> Campaign:
    campaign = started(users)
    drive(campaign, players(users), lambda s: s.phase_ref == "2.504")
    return campaign


def board_token(html: str) -> str:
    """The Roll dice form's token (one form, or each Map Group's, KGP 8.2: ``board-form-St``; the same token)."""
    match = re.search(r'id="board-form(?:-[A-Za-z]+)?".*?name="token" value="([0-9a-f]+)"', html, re.S)
    assert match, "the Roll dice form carries a one-time token"
    return match.group(1)


def public_rolls(campaign: Campaign) -> list[dict[str, Any]]:
    return [r.payload for r in EventRecord.objects.filter(campaign=campaign, kind="roll", visibility="public")
            .order_by("seq")]


def test_three_drs_for_three_encircled_units_are_public_and_follow_the_last_public_roll(rr: Any, users: Any) -> None:
    campaign = at_2_504(users)
    before = int((campaign.dice_counters or {}).get("public", 1))
    services.board_roll_submit(user=users["gerd"], public_id=campaign.public_id, at="2.504", kind="DR", count=3,
                               purpose="1TC Encircled 4-6-7 in 23Q5")
    campaign.refresh_from_db()
    rolls = public_rolls(campaign)[-3:]
    assert [(r["number"], r["kind"], r["roller"], r["stream"]) for r in rolls] == [
        (before, "DR", "german", "public"), (before + 1, "DR", "german", "public"), (before + 2, "DR", "german", "public")]
    assert [r["purpose"] for r in rolls] == [f"2.504: 1TC Encircled 4-6-7 in 23Q5 ({i} of 3)" for i in (1, 2, 3)]
    assert campaign.dice_counters["public"] == before + 3
    assert dict(state_of(campaign).board_counts) == {"german": 3}


def test_both_pages_show_the_roll_with_its_purpose_escaped(rr: Any, users: Any) -> None:
    campaign = at_2_504(users)
    services.board_roll_submit(user=users["cana"], public_id=campaign.public_id, at="2.504", kind="dr", count=1,
                               purpose="Bog <b>Sherman</b> in 12K4")
    for user, who in ((users["gerd"], "Canadian"), (users["cana"], "You")):
        html = page(user, campaign)
        log = html[html.index('class="board-log"'):]
        assert "Bog &lt;b&gt;Sherman&lt;/b&gt; in 12K4" in log and "<b>Sherman" not in html
        assert f'<span class="board-who">{who}</span>' in log


def test_the_public_roll_form_points_each_side_to_its_secret_rolls_at_the_board(rr: Any, users: Any) -> None:
    campaign = at_2_504(users)
    notes = reverse("campaign_notes", args=[campaign.public_id])

    for user in (users["gerd"], users["cana"]):
        html = page(user, campaign)
        form = html[html.index('id="board-form"'):]
        form = form[:form.index("</form>")]
        assert f'A roll your opponent must not see: <a href="{notes}#secret-rolls">roll it in secret</a>.' in form


def test_a_form_posted_twice_rolls_once(rr: Any, users: Any) -> None:
    campaign = at_2_504(users)
    form = {"token": board_token(page(users["gerd"], campaign)), "at": "2.504", "kind": "DR", "count": "2",
            "purpose": "NTC A-P minefield 4-6-8 in 19Q3"}
    first = post(users["gerd"], campaign, "phase_board_roll", form)
    again = post(users["gerd"], campaign, "phase_board_roll", form)
    assert first.status_code == again.status_code == 200
    assert "That form was already recorded; nothing was changed." in again.content.decode()
    assert [r["purpose"] for r in public_rolls(campaign) if r.get("board")] == [
        "2.504: NTC A-P minefield 4-6-8 in 19Q3 (1 of 2)", "2.504: NTC A-P minefield 4-6-8 in 19Q3 (2 of 2)"]


@pytest.mark.parametrize(("purpose", "count", "message"), [
    ("", "1", "Say what the roll is for"),
    ("x" * 81, "1", "The purpose is 81 characters long; at most 80 are allowed."),
    ("1TC", "13", "How many rolls: 13 is out of range: enter a whole number from 1 to 12."),
    ("1TC", "three", "How many rolls: “three” is not allowed: enter a whole number from 1 to 12."),
])
def test_a_bad_roll_form_is_refused_with_what_is_allowed_and_nothing_is_saved(
    rr: Any, users: Any, purpose: str, count: str, message: str
) -> None:
    campaign = at_2_504(users)
    form = {"token": board_token(page(users["gerd"], campaign)), "at": "2.504", "kind": "DR", "count": count,
            "purpose": purpose}
    before = snapshot(campaign)
    response = post(users["gerd"], campaign, "phase_board_roll", form)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert snapshot(campaign) == before


def test_the_typed_purpose_is_kept_in_the_form_after_a_refusal(rr: Any, users: Any) -> None:
    campaign = at_2_504(users)
    form = {"token": board_token(page(users["gerd"], campaign)), "at": "2.504", "kind": "dr", "count": "0",
            "purpose": "Shock recuperation PzIV"}
    html = post(users["gerd"], campaign, "phase_board_roll", form).content.decode()
    assert 'value="Shock recuperation PzIV"' in html and 'value="dr" checked' in html


def test_the_board_rolls_are_rechecked_from_the_committed_seed(rr: Any, users: Any) -> None:
    campaign = at_2_504(users)
    services.board_roll_submit(user=users["gerd"], public_id=campaign.public_id, at="2.504", kind="DR", count=2,
                               purpose="1TC Encircled 5-4-8 in 20P7 — “ü”")
    campaign.refresh_from_db()
    seeds = tuple(campaign.seats.get(side=side).player_seed for side in ("canadian", "german"))
    rolls = [engine_dice.roll_from_json({k: r.payload[k] for k in ("stream", "number", "kind", "dice", "roller",
                                                                      "purpose")})
             for r in EventRecord.objects.filter(campaign=campaign, kind="roll").order_by("seq")]
    export = engine_dice.export_rolls(bytes.fromhex(campaign.dice_seed), campaign.public_id, seeds, rolls)
    verified = engine_dice.verify_export(export)
    assert verified.ok, verified.failures
    assert verified.checked == len(rolls) and any("20P7" in r.purpose for r in rolls)


def test_the_dice_log_lists_a_board_roll_for_both_sides(rr: Any, users: Any) -> None:
    campaign = at_2_504(users)
    services.board_roll_submit(user=users["gerd"], public_id=campaign.public_id, at="2.504", kind="dr", count=1,
                               purpose="Shock recuperation PzIV 3")
    for user in (users["gerd"], users["cana"]):
        html = client_for(user).get(reverse("records_dice", args=[campaign.public_id])).content.decode()
        assert "2.504: Shock recuperation PzIV 3" in html


def test_a_secret_step_offers_no_roll_form(rr: Any, users: Any) -> None:
    campaign = started(users)
    drive(campaign, players(users), lambda s: s.phase_ref == "2.513")  # Shift: "A separate Secret DR"
    html = page(users["gerd"], campaign)
    assert 'id="board-form"' not in html
    with pytest.raises(services.ServiceError, match="No dice are rolled at the board at 2.513"):
        services.board_roll_submit(user=users["gerd"], public_id=campaign.public_id, at="2.513", kind="DR", count=1,
                                   purpose="Shift")


@pytest.mark.django_db(transaction=True)
async def test_both_players_sockets_receive_the_roll() -> None:
    channel_layers.backends.clear()

    def build() -> tuple[Any, Any, Any]:
        load_rr()
        users = {"gerd": make_user("gerd"), "cana": make_user("cana")}
        return at_2_504(users), users["gerd"], users["cana"]

    campaign, german, canadian = await database_sync_to_async(build)()
    german_socket, _ = await open_socket(german, campaign.public_id)
    canadian_socket, _ = await open_socket(canadian, campaign.public_id)
    await drain(german_socket)
    await drain(canadian_socket)

    await database_sync_to_async(services.board_roll_submit)(
        user=german, public_id=campaign.public_id, at="2.504", kind="DR", count=1, purpose="1TC Encircled 4-6-7")
    for socket, who in ((german_socket, "You"), (canadian_socket, "German")):
        seen = "".join(await drain(socket, until="1TC Encircled 4-6-7"))
        assert "1TC Encircled 4-6-7" in seen and f'<span class="board-who">{who}</span>' in seen
    await german_socket.disconnect()
    await canadian_socket.disconnect()
    channel_layers.backends.clear()


# ----------------------------------------------------------------------------------------- PL CG2 in the scenario panel


def initial_firefight(monkeypatch: Any, *dice: int) -> Play:
    play = Play(monkeypatch, "pl25", "allied", ScriptedDice(*dice), card=EXAMPLE_CARD)
    play.order("allied")
    play.order("axis")
    play.until("@initial-scenario")
    return play


@pytest.mark.django_db
def test_pl_2_8_and_2_9_sit_in_the_scenario_panel_not_before_it(monkeypatch: Any) -> None:
    play = initial_firefight(monkeypatch)
    html = page(play.users["allied"], play.campaign)
    checklist = html[html.index('id="checklist"'):html.index("</section>", html.index('id="checklist"'))]
    assert '<span class="check-ref">2.8</span>' not in checklist and '<span class="check-ref">2.9</span>' not in checklist
    assert "During it: 2.8 Firefight Commencement, 2.9 CG Firefight End" in checklist  # on the Initial Scenario entry
    panel = html[html.index('id="step-panel"'):]
    assert "2.8</span> Firefight Commencement" in panel and "2.9</span> CG Firefight End" in panel
    assert "Game End dr" in panel and "circled number in the current turn&#x27;s box" in panel


@pytest.mark.django_db
@pytest.mark.parametrize(("die", "circled", "tick", "words"), [
    (2, "3", False, "dr 2 ≤ 3: the CG Firefight ends"),
    (5, "3", False, "dr 5 &gt; 3: the CG Firefight continues"),
    (4, "3", True, "Final dr 3 (dr 4 −1) ≤ 3: the CG Firefight ends"),
])
def test_the_game_end_dr_is_said_in_words_on_both_pages(monkeypatch: Any, die: int, circled: str, tick: bool,
                                                       words: str) -> None:
    play = initial_firefight(monkeypatch, die)
    html = page(play.users["axis"], play.campaign)
    assert 'name="roll" value="game-end"' in html
    form = {"token": board_token(html), "roll": "game-end", "threshold": circled, "ask-0": "tick"}
    if tick:
        form["q-0"] = "yes"
    response = post(play.users["axis"], play.campaign, "phase_scenario_roll", form)
    assert response.status_code == 200
    for side in ("allied", "axis"):
        assert words in page(play.users[side], play.campaign)
    (roll,) = play.records("roll", scenario_roll="game-end")
    assert (roll.visibility, roll.payload["stream"], roll.payload["roller"]) == ("public", "public", "axis")
    assert play.dice.remaining == 0


@pytest.mark.django_db
def test_the_circled_number_must_be_typed(monkeypatch: Any) -> None:
    play = initial_firefight(monkeypatch)
    html = page(play.users["axis"], play.campaign)
    before = snapshot(play.campaign)
    response = post(play.users["axis"], play.campaign, "phase_scenario_roll",
                    {"token": board_token(html), "roll": "game-end", "threshold": ""})
    assert response.status_code == 422
    assert "type circled number in the current turn&#x27;s box (a whole number from 0 to 20)" in response.content.decode()
    assert snapshot(play.campaign) == before


@pytest.mark.django_db
def test_rolls_for_the_scenario_go_on_the_public_stream_of_the_dice_log(monkeypatch: Any) -> None:
    play = initial_firefight(monkeypatch, 3, 4)
    services.board_roll_submit(user=play.users["allied"], public_id=play.public_id, at="initial-scenario", kind="DR",
                               count=1, purpose="IFT 8 FP vs 24M6")
    (roll,) = play.records("roll", board=True)
    assert (roll.payload["purpose"], roll.payload["dice"], roll.payload["stream"]) == (
        "Initial Scenario: IFT 8 FP vs 24M6", [3, 4], "public")
    assert engine.load_state(play.campaign.state).step == "initial-scenario"


@pytest.mark.django_db
def test_the_kgp_scenario_panel_asks_for_the_game_turn_and_offers_the_sniper_choice(monkeypatch: Any) -> None:
    from tests.campaigns_app.campaign_script import CARDS

    play = Play(monkeypatch, "kgp", "german", ScriptedDice(4), card=CARDS / "kgp-test.yaml")  # TEST DATA card: day
    play.order("german")
    play.order("us")
    play.until("@initial-scenario")
    html = page(play.users["us"], play.campaign)
    panel = html[html.index('id="step-panel"'):]
    assert 'name="roll" value="game-end"' in panel and 'name="turn"' in panel
    assert 'name="roll" value="sniper-choice"' in panel
    assert "night-reinforcements" not in panel  # CG5: a CG Night scenario only
    post(play.users["us"], play.campaign, "phase_scenario_roll",
         {"token": board_token(html), "roll": "game-end", "threshold": "3", "turn": "7"})
    assert "dr 4 &gt; 3: the scenario continues" in page(play.users["german"], play.campaign)
