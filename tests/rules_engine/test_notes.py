"""Sealed notes (rules_engine.notes): the commitment, who reads what, and the offline check."""
from __future__ import annotations

import hashlib
import json
from io import StringIO
from pathlib import Path

import pytest

from rules_engine.cli import main
from rules_engine.events import EventKind
from rules_engine.notes import MAX_NOTE, NoteError, NoteRecord, checked_text, notes_for, reveal, seal, verify_notes
from rules_engine.vocabulary import Visibility

SALT = "0123456789abcdef0123456789abcdef"
OTHER_SALT = "f" * 32


def records(*events: object, at: str = "2026-11-27T10:00:00+00:00") -> list[NoteRecord]:
    return [NoteRecord(str(e.kind), str(e.visibility), e.side, e.payload, at) for e in events]  # type: ignore[attr-defined]


def test_the_commitment_is_sha256_of_salt_newline_text() -> None:
    own, shown = seal("german", 1, "Hill 621", SALT, "19 PM", "2.518")

    expected = hashlib.sha256(b"0123456789abcdef0123456789abcdef\nHill 621").hexdigest()
    assert shown.payload == {"note": 1, "commitment": expected, "date": "19 PM", "step": "2.518", "side": "german"}
    assert (own.kind, own.visibility, own.side) == (EventKind.NOTE_WRITTEN, Visibility.CG_END, "german")
    assert (shown.kind, shown.visibility) == (EventKind.NOTE_SEALED, Visibility.PUBLIC)
    assert own.payload["text"] == "Hill 621" and own.payload["salt"] == SALT


def test_the_public_event_says_nothing_of_the_text_or_its_length() -> None:
    _, short = seal("german", 1, "A", SALT, "19 PM", "2.518")
    _, long = seal("german", 1, "B" * MAX_NOTE, SALT, "19 PM", "2.518")

    assert len(json.dumps(short.payload)) == len(json.dumps(long.payload))
    assert set(short.payload) == {"note", "commitment", "date", "step", "side"}


@pytest.mark.parametrize(("text", "message"), [
    ("   \n ", "A note needs some text."),
    ("x" * (MAX_NOTE + 1), "A note is at most 4,000 characters (this one has 4,001)."),
    ("bell\x07", "A note is plain text: control characters are not allowed."),
])
def test_a_note_that_cannot_be_sealed_says_why(text: str, message: str) -> None:
    with pytest.raises(NoteError, match=message.replace("(", r"\(").replace(")", r"\)")):
        checked_text(text)


def test_line_ends_are_normalised_and_the_ends_trimmed() -> None:
    assert checked_text("  HIP: 3 squads\r\nin M5 \n") == "HIP: 3 squads\nin M5"


def test_the_opponent_sees_when_where_and_the_commitment_until_the_note_is_revealed() -> None:
    own, shown = seal("german", 1, "Hill 621", SALT, "19 PM", "2.518")

    canadian = notes_for(records(own, shown), "canadian", ended=False)
    german = notes_for(records(own, shown), "german", ended=False)

    assert [(n.side, n.number, n.date, n.step, n.text, n.own, n.revealed) for n in canadian] == [
        ("german", 1, "19 PM", "2.518", None, False, False)]
    assert canadian[0].commitment == shown.payload["commitment"] and canadian[0].matches is None
    assert german[0].text == "Hill 621" and german[0].own and german[0].matches is True


def test_a_revealed_note_matches_its_commitment_for_both_sides() -> None:
    own, shown = seal("german", 1, "Hill 621", SALT, "19 PM", "2.518")
    log = records(own, shown, reveal(own.payload, "german"))

    [seen] = notes_for(log, "canadian", ended=False)

    assert (seen.text, seen.revealed, seen.matches) == ("Hill 621", True, True)


def test_an_altered_reveal_does_not_match() -> None:
    own, shown = seal("german", 1, "Hill 621", SALT, "19 PM", "2.518")
    altered = reveal({**own.payload, "text": "Hill 622"}, "german")

    [seen] = notes_for(records(own, shown, altered), "canadian", ended=False)

    assert (seen.text, seen.matches) == ("Hill 622", False)


def test_at_cg_end_every_note_is_read_by_both_sides() -> None:
    own, shown = seal("german", 1, "Hill 621", SALT, "19 PM", "2.518")

    [seen] = notes_for(records(own, shown), "canadian", ended=True)

    assert (seen.text, seen.revealed, seen.matches) == ("Hill 621", False, True)


def test_the_offline_check_names_each_note_and_what_fails(tmp_path: Path) -> None:
    good = {"side": "german", "note": 1, "text": "Hill 621", "salt": SALT,
            "commitment": hashlib.sha256(f"{SALT}\nHill 621".encode()).hexdigest()}
    bad = {**good, "note": 2, "salt": OTHER_SALT}

    assert verify_notes([good]) == [f"note german #1: ok, matches the commitment {good['commitment'][:12]}…"]
    assert verify_notes([bad])[0].startswith("note german #2: FAILED, does not match")
    assert verify_notes([{"text": 1}]) == ["note #1: FAILED (text, salt and commitment must be strings)"]

    path = tmp_path / "notes.json"
    path.write_text(json.dumps({"notes": [good]}))
    out, err = StringIO(), StringIO()
    assert main(["verify-notes", str(path)], out, err) == 0
    assert out.getvalue().endswith("all 1 notes match their commitments\n")
    path.write_text(json.dumps([good, bad]))
    assert main(["verify-notes", str(path)], StringIO(), err) == 1
    assert "verification FAILED: 1 of 2 notes" in err.getvalue()
