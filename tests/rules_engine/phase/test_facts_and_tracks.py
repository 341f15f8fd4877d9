"""DRM facts read from the dates played and a track written on the tracks, the ledger and the CG Roster at once: the
same answers however often they are asked (the engine remembers what it derives from frozen data)."""
from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from rules_engine import sequence
from rules_engine.events import Event, EventKind
from rules_engine.history import DateRecord, ScenarioResult
from rules_engine.ledger import PurchaseLine, RosterLine, SideLedger, new_ledger
from rules_engine.model import System
from rules_engine.phase.tracks import set_track, set_tracks
from rules_engine.record_facts import platoons_purchased
from rules_engine.state import CampaignState
from rules_engine.vocabulary import Visibility
from tests.rules_engine.phase.test_initiative import CDN, GER, rr_system

SCENARIO_19PM = DateRecord(1, "19 PM", "scenario", choices={CDN: "attack", GER: "idle"},
                           result=ScenarioResult(cvp={CDN: 12, GER: 30}, attacked={CDN: True, GER: False}))
IDLE_19NIGHT = DateRecord(2, "19 Night", "idle", choices={CDN: "idle", GER: "idle"})


def state_after(*history: DateRecord) -> CampaignState:
    return CampaignState(system_id="rr", sides=(CDN, GER), date_index=3, date_id="20 AM", step="phase",
                         pass_kind="cycle", phase_ref="2.516", history=history,
                         ledgers={CDN: new_ledger(CDN, {"CPP": 20}, elr=3, san=2), GER: new_ledger(GER, {"CPP": 15})})


def test_the_facts_of_the_last_scenario_played_are_each_sides_own() -> None:
    state = state_after(SCENARIO_19PM)
    canadian = sequence.facts_for(rr_system(), state, CDN)
    german = sequence.facts_for(rr_system(), state, GER)
    assert (canadian["own_attack_previous"], canadian["own_attacked_previous_scenario"]) == (True, True)
    assert (canadian["cvp_amassed_this"], canadian["cvp_suffered_previous"]) == (12, 30)
    assert (german["own_attack_previous"], german["own_attacked_previous_scenario"]) == (False, False)
    assert (german["cvp_amassed_this"], german["cvp_suffered_previous"]) == (30, 12)
    assert canadian["firefights_without_idle"] == 1 and canadian["won_previous"] is False


def test_after_an_idle_date_the_previous_scenario_still_counts_and_no_cvp_are_new() -> None:
    state = state_after(SCENARIO_19PM, IDLE_19NIGHT)
    canadian = sequence.facts_for(rr_system(), state, CDN)
    assert canadian["own_attack_previous"] is False  # the chit of 19 Night was Idle
    assert canadian["own_attacked_previous_scenario"] is True  # RR 2.521: the last scenario played was 19 PM
    assert (canadian["cvp_amassed_this"], canadian["cvp_suffered_previous"]) == (0, 0)
    assert canadian["firefights_without_idle"] == 0


def test_changing_the_facts_a_caller_was_given_changes_no_later_answer() -> None:
    state = state_after(SCENARIO_19PM)
    first = sequence.facts_for(rr_system(), state, CDN)
    first["cvp_amassed_this"] = 99
    first["own_attack_previous"] = False
    again = sequence.facts_for(rr_system(), state, CDN)
    assert (again["cvp_amassed_this"], again["own_attack_previous"]) == (12, True)
    other_state = state_after(SCENARIO_19PM, IDLE_19NIGHT)  # a new history tuple: its own facts
    assert sequence.facts_for(rr_system(), other_state, CDN)["cvp_amassed_this"] == 0


def test_a_san_set_is_on_the_tracks_the_ledger_and_the_cg_roster_line_of_the_date() -> None:
    state = set_track(state_after(), CDN, "san", 4, None, "CPP")
    assert state.tracks[CDN] == {"san": 4}
    ledger = state.ledgers[CDN]
    assert (ledger.san, ledger.elr) == (4, 3)
    assert ledger.roster == (RosterLine("20 AM", start=Decimal(20), elr=3, san=4),)
    assert state.ledgers[GER].roster == ()  # the other side's books are untouched
    state = set_track(state, CDN, "lvp", 7, "19 PM", "CPP")
    assert state.tracks[CDN] == {"san": 4, "lvp": 7}
    assert state.ledgers[CDN].roster[-1] == RosterLine("19 PM", start=Decimal(20), elr=3, san=4, lvp_current=7)


def test_both_lvp_totals_and_their_event_are_written_in_one_copy_as_two_tracks_and_a_record_would_be() -> None:
    # RR 2.5032-.5033: a Current-LVP Total 7 and a CG-LVP Total 12 on the 19 PM CG Roster line, and their event
    event = Event(EventKind.LVP_RECORDED, Visibility.PUBLIC, None, {"date": "19 PM", "current_lvp": 7, "cg_lvp": 12})
    state = set_tracks(state_after(), CDN, {"lvp": 7, "cg_lvp": 12}, "19 PM", "CPP", event)
    assert state.tracks[CDN] == {"lvp": 7, "cg_lvp": 12}
    assert state.ledgers[CDN].roster == (RosterLine("19 PM", start=Decimal(20), elr=3, san=2, lvp_current=7, lvp_cg=12),)
    assert state.records == (event,)
    one_by_one = set_track(set_track(state_after(), CDN, "lvp", 7, "19 PM", "CPP"), CDN, "cg_lvp", 12, "19 PM")
    assert state == one_by_one.evolve(records=(event,))
    assert set_track(state_after(), CDN, "san", 4, None, "CPP", event).records == (event,)


def test_a_track_of_a_side_without_books_is_only_on_the_tracks() -> None:
    state = state_after().evolve(ledgers={CDN: new_ledger(CDN, {"CPP": 20})})
    state = set_track(state, GER, "elr", 2)
    assert state.tracks[GER] == {"elr": 2} and GER not in state.ledgers


def rr_with_qualities(eng_platoon: str) -> System:
    """RR with the German Eng Pltn (RG I4) printed as ``eng_platoon`` quality, as a CG Card may print it (PL 3.47)."""
    system = rr_system()
    chart = system.rg_chart(GER)
    rows = tuple(replace(r, quality=eng_platoon) if r.id == "I4" else r for r in chart.rows)
    charts = tuple(replace(c, rows=rows) if c.side == GER else c for c in system.rg_charts)
    return replace(system, rg_charts=charts)


def bought(ledger: SideLedger, rg_id: str, date_id: str) -> SideLedger:
    line = PurchaseLine(ledger.next_line, date_id, rg_id, "Eng Pltn", Decimal(10))
    return ledger.evolve(purchases=(*ledger.purchases, line))


def test_platoons_bought_on_a_date_are_counted_by_the_quality_of_the_systems_chart() -> None:
    elite, green = rr_with_qualities("elite"), rr_with_qualities("green")
    ledger = bought(bought(new_ledger(GER), "I4", "20 AM"), "I4", "19 PM")
    counts = platoons_purchased(elite, ledger, GER, "20 AM")
    assert counts["elite_platoons_purchased_previous"] == 1 and counts["green_platoons_purchased_previous"] == 0
    counts["elite_platoons_purchased_previous"] = 7  # the caller's copy
    assert platoons_purchased(elite, ledger, GER, "20 AM")["elite_platoons_purchased_previous"] == 1
    assert platoons_purchased(green, ledger, GER, "20 AM")["green_platoons_purchased_previous"] == 1  # its own chart
    more = bought(ledger, "I4", "20 AM")  # a new purchase: new books, counted again
    assert platoons_purchased(elite, more, GER, "20 AM")["elite_platoons_purchased_previous"] == 2
    assert platoons_purchased(rr_system(), more, GER, "20 AM") == {}  # no quality printed: the players are asked
