"""Secret rolls at the board (rules_engine.board_secret): the roll on the side's board stream, the public shadow that
says nothing of the purpose or dice, the reveal, who sees what (history, notes page, dice log), the offline check."""
from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest

from rules_engine.board_secret import (
    MAX_PURPOSE,
    BoardRollError,
    BoardRollRecord,
    board_rolls_for,
    checked_kind,
    checked_purpose,
    reveal,
    reveal_problems,
    roll_in_secret,
)
from rules_engine.cli import main
from rules_engine.dice import CommittedDice, FixedDice, export_rolls, verify_export
from rules_engine.event_text import Words, describe, visible_events
from rules_engine.events import Event, EventKind, roll_from_event
from rules_engine.plain_text import TextError
from rules_engine.record_view.dice import dice_log, dice_samples
from rules_engine.vocabulary import DiceKind, Visibility
from tests.rules_engine.phase.test_initiative import CDN, GER, RR

SEED = bytes(range(32))
PLAYERS = ("maple leaf", "edelweiß")
FORM = "a" * 32
WORDS = Words(RR)


def records(*events: Event, at: str = "2026-11-27T10:00:00+00:00") -> list[BoardRollRecord]:
    return [BoardRollRecord(str(e.kind), str(e.visibility), e.side, e.payload, at) for e in events]


def test_a_secret_dr_is_a_cg_end_roll_on_the_board_stream_and_a_public_shadow() -> None:
    full, shadow = roll_in_secret(FixedDice(3, 4), GER, "DR", "  Bog check\n in O7 ", "19 PM", "2.518", FORM)

    assert (full.kind, full.visibility, full.side) == (EventKind.ROLL, Visibility.CG_END, GER)
    assert full.payload == {"stream": "board-german", "number": 1, "kind": "DR", "dice": [3, 4], "total": 7,
                            "purpose": "Bog check in O7", "roller": GER, "date": "19 PM", "step": "2.518",
                            "board_secret": True, "form": FORM}
    assert (shadow.kind, shadow.visibility, shadow.side) == (EventKind.BOARD_ROLL_SEALED, Visibility.PUBLIC, GER)
    assert shadow.payload == {"side": GER, "stream": "board-german", "number": 1, "kind": "DR", "date": "19 PM",
                              "step": "2.518"}


def test_the_shadow_is_the_same_for_any_purpose_and_any_dice() -> None:
    _, low = roll_in_secret(FixedDice(1, 1), GER, "DR", "A", "19 PM", "2.518")
    _, high = roll_in_secret(FixedDice(6, 6), GER, "DR", "B" * MAX_PURPOSE, "19 PM", "2.518", FORM)

    assert low == high and json.dumps(low.payload) == json.dumps(high.payload)


def test_board_rolls_are_numbered_apart_from_the_rules_secret_rolls_of_the_side() -> None:
    dice = CommittedDice(SEED, "c-1", PLAYERS)
    rules = dice.roll(DiceKind.DR, "2.516 CPP Replenishment DR", GER, GER)
    first, _ = roll_in_secret(dice, GER, "DR", "Bog check O7", "19 PM", "2.518")
    second, _ = roll_in_secret(dice, GER, "dr", "Sniper: which hex", "19 PM", "2.518")
    again = dice.roll(DiceKind.DR, "2.516 CPP Replenishment DR", GER, GER)

    assert (rules.number, again.number) == (1, 2)
    assert (first.payload["number"], second.payload["number"]) == (1, 2)
    assert dice.counters == {"german": 3, "board-german": 3}


def test_a_board_roll_is_drawn_from_the_committed_message_with_its_stream_number_kind_roller_and_purpose() -> None:
    # refit-dice/1 by hand: HMAC-SHA256(bytes 0..31, {"campaign":"c-1","kind":"DR","n":1,"player_seeds":["maple
    # leaf","edelweiß"],"purpose":"Bog check O7","roller":"german","stream":"board-german"}) → bytes < 252 → b % 6 + 1
    full, _ = roll_in_secret(CommittedDice(SEED, "c-1", PLAYERS), GER, "DR", "Bog check O7", "19 PM", "2.518")

    assert full.payload["dice"] == [3, 1]


def test_the_roller_sees_one_history_line_the_opponent_the_shadow_and_both_the_roll_at_cg_end() -> None:
    full, shadow = roll_in_secret(FixedDice(3, 4), GER, "DR", "Bog check O7", "19 PM", "2.518")
    log = [full, shadow]

    assert visible_events(log, GER, False) == [full]
    assert visible_events(log, CDN, False) == [shadow]
    assert visible_events(log, CDN, True) == [full] and visible_events(log, GER, True) == [full]


def test_texts_typed_by_hand() -> None:
    full, shadow = roll_in_secret(FixedDice(3, 4), GER, "DR", "Bog check O7", "19 PM", "2.518")
    shown = reveal(full.payload, GER)
    small, _ = roll_in_secret(FixedDice(5), CDN, "dr", "Sniper", "19 PM", "2.518")

    assert describe(WORDS, "board-roll-sealed", shadow.payload, GER, CDN).text == \
        "The German side made secret DR #1 at the board (19 PM, 2.518)."
    assert describe(WORDS, "roll", full.payload, GER, GER).text == \
        "You made secret DR #1 at the board (19 PM, 2.518): “Bog check O7” — 3+4 = 7."
    assert describe(WORDS, "board-roll-revealed", shown.payload, GER, CDN).text == \
        "The German side revealed secret DR #1 at the board (19 PM, 2.518): “Bog check O7” — 3+4 = 7."
    assert describe(WORDS, "roll", small.payload, CDN, GER).text == \
        "The Canadian side made secret dr #1 at the board (19 PM, 2.518): “Sniper” — 5."


def test_the_opponent_sees_which_kind_number_when_and_where_until_the_roll_is_revealed() -> None:
    full, shadow = roll_in_secret(FixedDice(3, 4), GER, "DR", "Bog check O7", "19 PM", "2.518")

    [theirs] = board_rolls_for(records(full, shadow), CDN, ended=False)
    [mine] = board_rolls_for(records(full, shadow), GER, ended=False)

    assert (theirs.side, theirs.number, theirs.kind, theirs.date, theirs.step, theirs.own, theirs.revealed) == \
        (GER, 1, "DR", "19 PM", "2.518", False, False)
    assert (theirs.dice, theirs.purpose, theirs.total, theirs.matches) == (None, None, None, None)
    assert (mine.dice, mine.purpose, mine.total, mine.own) == ((3, 4), "Bog check O7", 7, True)


def test_a_revealed_roll_shows_its_dice_and_purpose_and_agrees_with_its_shadow() -> None:
    full, shadow = roll_in_secret(FixedDice(3, 4), GER, "DR", "Bog check O7", "19 PM", "2.518")
    log = records(full, shadow, reveal(full.payload, GER))

    [theirs] = board_rolls_for(log, CDN, ended=False)
    [mine] = board_rolls_for(log, GER, ended=False)

    assert (theirs.dice, theirs.purpose, theirs.revealed, theirs.matches) == ((3, 4), "Bog check O7", True, True)
    assert (mine.revealed, mine.matches) == (True, True)


def test_a_reveal_that_does_not_agree_with_the_shadow_or_the_roll_is_flagged() -> None:
    full, shadow = roll_in_secret(FixedDice(3, 4), GER, "DR", "Bog check O7", "19 PM", "2.518")
    moved = reveal({**full.payload, "step": "2.519"}, GER)
    other_dice = reveal({**full.payload, "dice": [6, 6], "total": 12}, GER)

    assert board_rolls_for(records(full, shadow, moved), CDN, ended=False)[0].matches is False
    assert board_rolls_for(records(full, shadow, other_dice), CDN, ended=True)[0].matches is False
    assert reveal_problems([full.payload], [other_dice.payload]) == [
        "secret roll board-german #1: revealed DR [6, 6] (Bog check O7), rolled DR [3, 4] (Bog check O7)"]
    assert reveal_problems([full.payload], [reveal(full.payload, GER).payload]) == []


def test_at_cg_end_every_secret_roll_is_read_by_both_sides() -> None:
    full, shadow = roll_in_secret(FixedDice(3, 4), GER, "DR", "Bog check O7", "19 PM", "2.518")

    [theirs] = board_rolls_for(records(full, shadow), CDN, ended=True)

    assert (theirs.dice, theirs.purpose, theirs.revealed, theirs.matches) == ((3, 4), "Bog check O7", False, None)


def test_the_dice_log_shows_the_opponent_a_secret_roll_only_once_revealed_and_one_row_to_each_side() -> None:
    full, shadow = roll_in_secret(FixedDice(3, 4), GER, "DR", "Bog check O7", "19 PM", "2.518")
    shown = reveal(full.payload, GER)

    assert dice_log(RR, [full, shadow], CDN, False).rows == ()
    [row] = dice_log(RR, [full, shadow, shown], CDN, False).rows
    assert (row.stream_label, row.purpose, row.kind, row.dice, row.visibility, row.date) == \
        ("German board #1", "Bog check O7", "DR", (3, 4), "revealed", "19 PM")
    [own] = dice_log(RR, [full, shadow, shown], GER, False).rows
    assert (own.stream_label, own.visibility) == ("German board #1", "own")
    [at_end] = dice_log(RR, [full, shadow, shown], CDN, True).rows
    assert at_end.visibility == "revealed"
    [sample] = dice_samples(dice_log(RR, [full, shadow, shown], CDN, False))
    assert (sample.roller, sample.kind, sample.dice, sample.secret) == ("German", DiceKind.DR, (3, 4), True)


@pytest.mark.parametrize(("kind", "purpose", "message"), [
    ("2d6", "Bog check", "A secret roll is a DR (two dice) or a dr (one die); got '2d6'."),
    ("DR", "  \n ", "A roll's purpose needs some text."),
    ("DR", "x" * (MAX_PURPOSE + 1), "A roll's purpose is at most 200 characters (this one has 201)."),
    ("dr", "bell\x07", "A roll's purpose is plain text: control characters are not allowed."),
])
def test_a_secret_roll_that_cannot_be_made_says_why_and_rolls_nothing(kind: str, purpose: str, message: str) -> None:
    dice = FixedDice(3, 4)
    with pytest.raises((BoardRollError, TextError)) as raised:
        roll_in_secret(dice, GER, kind, purpose, "19 PM", "2.518")
    assert str(raised.value) == message and dice.remaining == 2


def test_the_kind_and_purpose_checks_keep_what_is_rolled() -> None:
    assert checked_kind("dr") is DiceKind.dr and checked_purpose(" Sniper:\tR4 \n") == "Sniper: R4"
    with pytest.raises(BoardRollError):
        checked_kind(None)


def test_verify_dice_checks_board_rolls_and_fails_when_a_board_rolls_dice_are_altered(tmp_path: Path) -> None:
    dice = CommittedDice(SEED, "c-1", PLAYERS)
    public = dice.roll(DiceKind.dr, "2.5223 Dual Attack set-up dr", GER)
    made = [roll_in_secret(dice, side, "DR", f"Bog check ({side})", "19 PM", "2.518")[0] for side in (GER, CDN, GER)]
    export = export_rolls(SEED, "c-1", PLAYERS, [public, *(roll_from_event(e) for e in made)])
    rolls: list[dict[str, object]] = export["rolls"]  # type: ignore[assignment]

    assert [(r["stream"], r["number"]) for r in rolls] == [
        ("public", 1), ("board-canadian", 1), ("board-german", 1), ("board-german", 2)]
    assert verify_export(export).ok and verify_export(export).checked == 4
    path = tmp_path / "dice.json"
    path.write_text(json.dumps(export))
    out = StringIO()
    assert main(["verify-dice", str(path)], out, StringIO()) == 0 and out.getvalue() == "all 4 rolls verified\n"

    board: dict[str, list[int]] = rolls[3]  # type: ignore[assignment]
    board["dice"] = [7 - board["dice"][0], board["dice"][1]]
    path.write_text(json.dumps(export))
    out, err = StringIO(), StringIO()
    assert main(["verify-dice", str(path)], out, err) == 1
    assert out.getvalue().startswith("roll board-german #2 (Bog check (german)): recorded ")
    assert "verification FAILED: 1 problem(s) in 4 rolls checked" in err.getvalue()


def test_verify_dice_on_an_archive_also_checks_that_each_revealed_secret_roll_shows_the_roll_made(tmp_path: Path
                                                                                                  ) -> None:
    dice = CommittedDice(SEED, "c-1", PLAYERS)
    full, shadow = roll_in_secret(dice, GER, "DR", "Bog check O7", "19 PM", "2.518")
    shown = reveal(full.payload, GER)
    archive = {"format": "refit-archive/1", "dice": export_rolls(SEED, "c-1", PLAYERS, [roll_from_event(full)]),
               "events": [e.to_json() for e in (full, shadow, shown)]}
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(archive))
    assert main(["verify-dice", str(path)], StringIO(), StringIO()) == 0

    archive["events"][2]["payload"]["purpose"] = "Something else"  # type: ignore[index]
    path.write_text(json.dumps(archive))
    out, err = StringIO(), StringIO()
    assert main(["verify-dice", str(path)], out, err) == 1
    assert out.getvalue().startswith("secret roll board-german #1: revealed DR [")
    assert "(Something else), rolled DR [" in out.getvalue() and "1 problem(s) in 1 rolls checked" in err.getvalue()
