"""Dice: FixedDice for tests, committed HMAC dice, the CG-end export and its verification."""
from __future__ import annotations

import copy
import hashlib
import hmac
import json

import pytest

from rules_engine.dice import (
    CommittedDice,
    DiceExhaustedError,
    FixedDice,
    Roll,
    dice_from_message,
    export_rolls,
    new_seed,
    roll_message,
    seed_commitment,
    verify_export,
)
from rules_engine.errors import RulesError
from rules_engine.vocabulary import DiceKind

SEED = bytes(range(32))
PLAYERS = ("maple leaf", "edelweiß")
CDN, GER = "canadian", "german"


def oracle_dice(seed: bytes, fields: dict[str, object], count: int) -> tuple[int, ...]:
    """The published recipe, written independently: canonical JSON → HMAC-SHA256 blocks → bytes < 252 → b % 6 + 1."""
    message = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    dice: list[int] = []
    block = 0
    while len(dice) < count:
        data = message if block == 0 else message + b"\n" + str(block).encode()
        dice.extend(b % 6 + 1 for b in hmac.new(seed, data, hashlib.sha256).digest() if b < 252)
        block += 1
    return tuple(dice[:count])


def fields(stream: str, n: int, kind: str, roller: str, purpose: str, campaign: str = "c-1") -> dict[str, object]:
    return {"campaign": campaign, "stream": stream, "n": n, "kind": kind, "roller": roller, "purpose": purpose,
            "player_seeds": list(PLAYERS)}


# --- FixedDice ------------------------------------------------------------------------------------------------------

def test_fixed_dice_give_a_dr_its_coloured_then_its_white_die() -> None:
    dice = FixedDice(2, 5, 6)
    dr2 = dice.roll(DiceKind.DR, "2.519 RG Strength DR", GER, GER)
    assert (dr2.dice, dr2.coloured, dr2.white, dr2.total, dr2.doubles) == ((2, 5), 2, 5, 7, False)
    dr1 = dice.roll(DiceKind.dr, "2.522 Dual Attack set-up dr", CDN)
    assert (dr1.dice, dr1.total, dr1.white) == ((6,), 6, None)
    assert (dr2.stream, dr2.number, dr1.stream, dr1.number) == (GER, 1, "public", 1)


def test_fixed_dice_refuse_to_roll_when_exhausted() -> None:
    dice = FixedDice(4)
    with pytest.raises(DiceExhaustedError, match="1 value\\(s\\) left but '2.516 CPP DR' needs 2"):
        dice.roll(DiceKind.DR, "2.516 CPP DR", CDN, CDN)


@pytest.mark.parametrize("bad", [0, 7, -1])
def test_fixed_dice_accept_only_faces_1_to_6(bad: int) -> None:
    with pytest.raises(ValueError, match="A die shows 1 to 6"):
        FixedDice(3, bad)


# --- CommittedDice ---------------------------------------------------------------------------------------------------

def test_a_committed_roll_is_the_published_hmac_recipe() -> None:
    dice = CommittedDice(SEED, "c-1", PLAYERS)
    first = dice.roll(DiceKind.DR, "2.516 CPP Replenishment DR ≤ é", CDN, CDN)
    assert first.dice == oracle_dice(SEED, fields(CDN, 1, "DR", CDN, "2.516 CPP Replenishment DR ≤ é"), 2)
    second = dice.roll(DiceKind.dr, "2.522 Dual Attack set-up dr", CDN)
    assert second.dice == oracle_dice(SEED, fields("public", 1, "dr", CDN, "2.522 Dual Attack set-up dr"), 1)
    third = dice.roll(DiceKind.DR, 'quote " and \\ backslash', CDN, CDN)
    assert third.number == 2
    assert third.dice == oracle_dice(SEED, fields(CDN, 2, "DR", CDN, 'quote " and \\ backslash'), 2)


def test_the_roll_message_is_canonical_json() -> None:
    message = roll_message("c-1", "public", 12, DiceKind.DR, GER, "2.5122 SAN dr", PLAYERS)
    assert message == (
        '{"campaign":"c-1","kind":"DR","n":12,"player_seeds":["maple leaf","edelweiß"],'
        '"purpose":"2.5122 SAN dr","roller":"german","stream":"public"}'
    ).encode("utf-8")


def test_dice_continue_into_a_second_hmac_block_when_the_first_runs_out() -> None:
    message = b'{"test":"forty dice"}'
    forty = dice_from_message(SEED, message, 40)
    assert len(forty) == 40
    first_block = [b % 6 + 1 for b in hmac.new(SEED, message, hashlib.sha256).digest() if b < 252]
    second_block = [b % 6 + 1 for b in hmac.new(SEED, message + b"\n1", hashlib.sha256).digest() if b < 252]
    assert list(forty) == (first_block + second_block)[:40]


def test_committed_dice_are_deterministic_and_resume_from_saved_counters() -> None:
    purposes = [(DiceKind.DR, CDN, CDN), (DiceKind.dr, GER, "public"), (DiceKind.DR, GER, GER), (DiceKind.dr, CDN, "public")]
    straight = CommittedDice(SEED, "c-1", PLAYERS)
    rolls = [straight.roll(k, f"p{i}", r, s) for i, (k, r, s) in enumerate(purposes * 3)]
    again = CommittedDice(SEED, "c-1", PLAYERS)
    assert [again.roll(k, f"p{i}", r, s) for i, (k, r, s) in enumerate(purposes * 3)] == rolls
    # stop after 5 rolls, persist the counters, resume in a new object
    part = CommittedDice(SEED, "c-1", PLAYERS)
    resumed = [part.roll(k, f"p{i}", r, s) for i, (k, r, s) in enumerate((purposes * 3)[:5])]
    assert part.counters == {CDN: 3, "public": 3, GER: 2}
    later = CommittedDice(SEED, "c-1", PLAYERS, counters=part.counters)
    resumed += [later.roll(k, f"p{i + 5}", r, s) for i, (k, r, s) in enumerate((purposes * 3)[5:])]
    assert resumed == rolls


def test_each_stream_is_numbered_on_its_own_so_secret_rolls_are_not_counted_publicly() -> None:
    dice = CommittedDice(SEED, "c-1", PLAYERS)
    for _ in range(5):
        dice.roll(DiceKind.DR, "2.513 Shift DR", GER, GER)
    public = dice.roll(DiceKind.dr, "2.522 Dual Attack set-up dr", CDN)
    assert (public.stream, public.number) == ("public", 1)
    assert dice.counters == {GER: 6, "public": 2}


def test_different_player_seeds_give_different_dice() -> None:
    a = CommittedDice(SEED, "c-1", PLAYERS)
    b = CommittedDice(SEED, "c-1", ("maple leaf", "edelweiss"))
    assert [a.roll(DiceKind.DR, "x", CDN).dice for _ in range(8)] != [b.roll(DiceKind.DR, "x", CDN).dice for _ in range(8)]


def test_a_secret_roll_must_use_its_rollers_stream() -> None:
    with pytest.raises(RulesError, match="A secret roll's stream is its roller's side"):
        CommittedDice(SEED, "c-1", PLAYERS).roll(DiceKind.DR, "2.513 Shift DR", GER, CDN)
    with pytest.raises(RulesError, match="or its board stream \\('board-german'\\); got 'board-canadian'"):
        CommittedDice(SEED, "c-1", PLAYERS).roll(DiceKind.DR, "Bog check", GER, "board-canadian")


def test_a_seed_must_be_32_bytes() -> None:
    with pytest.raises(RulesError, match="A dice seed is 32 bytes; got 16"):
        CommittedDice(bytes(16), "c-1", PLAYERS)


def test_the_commitment_is_the_sha256_of_the_seed() -> None:
    # FIPS 180-2 test vector: SHA-256("abc")
    assert seed_commitment(b"abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert CommittedDice(SEED, "c-1", PLAYERS).commitment == hashlib.sha256(SEED).hexdigest()


def test_new_seeds_are_32_random_bytes() -> None:
    seeds = {new_seed() for _ in range(4)}
    assert len(seeds) == 4 and all(len(s) == 32 for s in seeds)


# --- export and verification -----------------------------------------------------------------------------------------

def made_export() -> dict[str, object]:
    dice = CommittedDice(SEED, "c-1", PLAYERS)
    for i in range(6):
        dice.roll(DiceKind.DR, f"2.519 RG Strength DR #{i}", GER, GER)
        dice.roll(DiceKind.dr, f"2.5122 SAN dr #{i}", CDN)
    dice.roll(DiceKind.dr, "2.522 Dual Attack set-up dr", CDN)
    dice.roll(DiceKind.DR, "2.516 CPP Replenishment DR", CDN, CDN)
    return json.loads(json.dumps(export_rolls(SEED, "c-1", PLAYERS, dice.made)))  # type: ignore[no-any-return]


def rolls_of(data: dict[str, object]) -> list[dict[str, object]]:
    rolls = data["rolls"]
    assert isinstance(rolls, list)
    return rolls


def find(data: dict[str, object], stream: str, number: int) -> dict[str, object]:
    return next(r for r in rolls_of(data) if r["stream"] == stream and r["number"] == number)


def test_an_honest_export_verifies() -> None:
    data = made_export()
    assert data["format"] == "refit-dice/1" and data["commitment"] == hashlib.sha256(SEED).hexdigest()
    assert data["seed"] == SEED.hex() and data["player_seeds"] == list(PLAYERS)
    assert set(rolls_of(data)[0]) == {"stream", "number", "kind", "dice", "roller", "purpose"}
    result = verify_export(data)
    assert (result.ok, result.checked, result.failures) == (True, 14, ())


def test_a_changed_die_is_reported_with_its_roll_and_purpose() -> None:
    data = made_export()
    roll = find(data, "public", 7)
    assert roll["purpose"] == "2.522 Dual Attack set-up dr"
    honest = roll["dice"]
    assert isinstance(honest, list)
    forged = honest[0] % 6 + 1
    roll["dice"] = [forged]
    result = verify_export(data)
    assert not result.ok and result.checked == 14
    assert result.failures == (
        f"roll public #7 (2.522 Dual Attack set-up dr): recorded {forged}, recomputed {honest[0]}",
    )


def test_a_changed_white_die_of_a_dr_is_reported() -> None:
    data = made_export()
    roll = find(data, GER, 3)
    honest = list(roll["dice"])  # type: ignore[call-overload]
    roll["dice"] = [honest[0], honest[1] % 6 + 1]
    (failure,) = verify_export(data).failures
    assert failure == (
        f"roll german #3 (2.519 RG Strength DR #2): recorded {honest[0]}+{honest[1] % 6 + 1}, "
        f"recomputed {honest[0]}+{honest[1]}"
    )


def test_a_removed_roll_leaves_a_gap_that_is_reported() -> None:
    data = made_export()
    data["rolls"] = [r for r in rolls_of(data) if not (r["stream"] == GER and r["number"] == 4)]
    result = verify_export(data)
    assert result.failures == ("stream german: roll number(s) 4 missing (numbers must run 1 to 6 without gaps)",)


def test_a_duplicated_roll_is_reported() -> None:
    data = made_export()
    data["rolls"] = rolls_of(data) + [copy.deepcopy(find(data, "public", 2))]
    assert verify_export(data).failures == ("stream public: roll number(s) 2 appear more than once",)


def test_a_wrong_seed_fails_the_commitment_and_the_dice() -> None:
    data = made_export()
    data["seed"] = bytes(32).hex()
    result = verify_export(data)
    assert not result.ok
    assert result.failures[0].startswith(f"commitment: SHA-256 of the revealed seed is {hashlib.sha256(bytes(32)).hexdigest()}")
    assert any(f.startswith("roll ") for f in result.failures[1:])


def test_a_wrong_commitment_is_reported() -> None:
    data = made_export()
    data["commitment"] = hashlib.sha256(b"another seed").hexdigest()
    result = verify_export(data)
    assert result.failures == (
        f"commitment: SHA-256 of the revealed seed is {hashlib.sha256(SEED).hexdigest()}, "
        f"but the commitment published at campaign start is {hashlib.sha256(b'another seed').hexdigest()}",
    )


def test_swapping_the_purposes_of_two_rolls_is_detected() -> None:
    data = made_export()
    a, b = find(data, GER, 1), find(data, GER, 2)
    a["purpose"], b["purpose"] = b["purpose"], a["purpose"]
    result = verify_export(data)
    assert [f.split(":")[0] for f in result.failures] == [
        "roll german #1 (2.519 RG Strength DR #1)", "roll german #2 (2.519 RG Strength DR #0)"
    ]


def test_a_roll_recorded_as_a_dr_instead_of_a_DR_is_detected() -> None:
    data = made_export()
    roll = find(data, CDN, 1)
    roll["kind"], roll["dice"] = "dr", list(roll["dice"])[:1]  # type: ignore[call-overload]
    assert verify_export(data).failures[0].startswith("roll canadian #1 (2.516 CPP Replenishment DR): recorded")


@pytest.mark.parametrize(
    "change,failure",
    [
        ({"number": 0}, "number must be a whole number ≥ 1 (got 0)"),
        ({"number": True}, "number must be a whole number ≥ 1 (got True)"),
        ({"kind": "2d6"}, "kind must be DR or dr (got '2d6')"),
        ({"dice": [7]}, "dice must be a list of whole numbers 1 to 6 (got [7])"),
        ({"dice": [1, 2]}, "a dr has 1 dice (got 2)"),
        ({"purpose": ""}, "purpose must be a non-empty string"),
        ({"stream": GER}, "stream must be 'public', the roller's side 'canadian' or its board stream 'board-canadian' "
                          "(got 'german')"),
        ({"stream": "board-german"}, "or its board stream 'board-canadian' (got 'board-german')"),
        ({"extra": 1}, "unknown field(s) extra"),
    ],
)
def test_a_malformed_roll_is_reported_with_the_field_and_what_is_allowed(change: dict[str, object], failure: str) -> None:
    data = made_export()
    roll = find(data, "public", 7)
    roll.update(change)
    result = verify_export(data)
    assert not result.ok
    assert any(f.startswith("rolls[") and failure in f for f in result.failures), result.failures


@pytest.mark.parametrize(
    "key,value,failure",
    [
        ("format", "refit-dice/0", "format: expected 'refit-dice/1', got 'refit-dice/0'"),
        ("seed", "xyz", "seed: must be 64 lower-case hex digits (the 32-byte seed revealed at CG end)"),
        ("player_seeds", ["one"], "player_seeds: must be a list of two strings (one per side)"),
        ("rolls", {}, "rolls: must be a list"),
    ],
)
def test_a_malformed_export_is_reported(key: str, value: object, failure: str) -> None:
    data = made_export()
    data[key] = value
    result = verify_export(data)
    assert not result.ok and failure in result.failures


def test_the_export_lists_rolls_by_stream_and_number() -> None:
    rolls = [Roll("public", 2, DiceKind.dr, (1,), CDN, "b"), Roll(GER, 1, DiceKind.dr, (2,), GER, "c"),
             Roll("public", 1, DiceKind.dr, (3,), CDN, "a")]
    data = export_rolls(SEED, "c-1", PLAYERS, rolls)
    assert [(r["stream"], r["number"]) for r in data["rolls"]] == [("public", 1), ("public", 2), (GER, 1)]  # type: ignore[attr-defined]
