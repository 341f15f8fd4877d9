"""Sealed notes: a side writes a note (a HIP set-up, a secret target, a plan) and seals it; the opponent sees at once
that a note was sealed, when and at which step, and its SHA-256 commitment — never its text or length. The writer
reveals it when it chooses; at CG end every note is revealed. Anyone can check a revealed note against its commitment.

Commitment (format ``refit-note/1``): SHA-256, as lower-case hex, of the UTF-8 bytes of ``salt + "\\n" + text``, where
``salt`` is 32 random lower-case hex digits drawn by the server when the note is sealed. The salt keeps a short note
("Hill 621") from being guessed by trying every likely text against the commitment.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rules_engine.event_text import may_see
from rules_engine.events import JSON, Event, EventKind
from rules_engine.plain_text import TextError, plain_text
from rules_engine.vocabulary import SideId, Visibility

NOTE_FORMAT = "refit-note/1"
MAX_NOTE = 4000  # characters
SALT = re.compile(r"[0-9a-f]{32}")
HEX64 = re.compile(r"[0-9a-f]{64}")


NoteError = TextError  # a note that cannot be sealed (the message says what is allowed)


def commitment(text: str, salt: str) -> str:
    """The note's SHA-256 commitment (refit-note/1)."""
    return hashlib.sha256(f"{salt}\n{text}".encode()).hexdigest()


def matches(text: str, salt: str, sealed: str) -> bool:
    """Whether a revealed note and salt give the commitment sealed earlier."""
    return bool(SALT.fullmatch(salt)) and commitment(text, salt) == sealed


def checked_text(text: str) -> str:
    """The note as it will be sealed (line ends normalised, ends trimmed), or NoteError saying what is wrong."""
    return plain_text(text, MAX_NOTE, "A note")


def seal(side: SideId, number: int, text: str, salt: str, date: str, step: str, form: str = "") -> tuple[Event, Event]:
    """Seal note ``number`` of ``side``: the text for the writer (everyone at CG end), its commitment for both
    (``form``: the sealing form's id, kept with the text so a form sent twice seals one note)."""
    if not SALT.fullmatch(salt):
        raise NoteError("A note's salt is 32 lower-case hex digits.")
    body = checked_text(text)
    sealed = commitment(body, salt)
    where: dict[str, JSON] = {"note": number, "commitment": sealed, "date": date, "step": step, "side": side}
    return (Event(EventKind.NOTE_WRITTEN, Visibility.CG_END, side, {**where, "text": body, "salt": salt, "form": form}),
            Event(EventKind.NOTE_SEALED, Visibility.PUBLIC, side, where))


def reveal(written: Mapping[str, JSON], side: SideId) -> Event:
    """Reveal a sealed note to both sides (its text and salt, so anyone can check the commitment)."""
    keys = ("note", "commitment", "date", "step", "text", "salt")
    return Event(EventKind.NOTE_REVEALED, Visibility.PUBLIC, side, {key: written.get(key) for key in keys})


@dataclass(frozen=True)
class NoteRecord:
    """A stored note event as the notes view reads it (``sealed_at``: when it was stored, ISO 8601)."""

    kind: str
    visibility: str
    side: str | None
    payload: Mapping[str, JSON]
    sealed_at: str


@dataclass(frozen=True)
class NoteView:
    """One note as a viewer may see it: always who, when, where and the commitment; the text once it may read it."""

    side: SideId
    number: int
    date: str
    step: str
    commitment: str
    sealed_at: str
    own: bool
    revealed: bool
    text: str | None
    matches: bool | None  # None while the viewer cannot read the text


def notes_for(records: Sequence[NoteRecord], viewer: SideId, ended: bool) -> tuple[NoteView, ...]:
    """Every sealed note, in order, as ``viewer`` may see it (texts: its own, revealed ones, all at CG end)."""
    texts: dict[tuple[str, JSON], Mapping[str, JSON]] = {}
    revealed: set[tuple[str, JSON]] = set()
    for record in records:
        key = (str(record.side), record.payload.get("note"))
        if record.kind == EventKind.NOTE_REVEALED:
            revealed.add(key)
            texts[key] = record.payload
        elif record.kind == EventKind.NOTE_WRITTEN and may_see(record, viewer, ended):
            texts.setdefault(key, record.payload)
    notes: list[NoteView] = []
    for record in records:
        if record.kind != EventKind.NOTE_SEALED:
            continue
        p = record.payload
        key = (str(record.side), p.get("note"))
        seen = texts.get(key)
        text = str(seen.get("text")) if seen is not None else None
        check = matches(text, str(seen.get("salt")), str(p.get("commitment"))) if seen is not None and text else None
        notes.append(NoteView(str(record.side), int(str(p.get("note"))), str(p.get("date") or ""),
                              str(p.get("step") or ""), str(p.get("commitment")), record.sealed_at,
                              record.side == viewer, key in revealed, text, check))
    return tuple(notes)


def verify_notes(notes: Iterable[Mapping[str, object]]) -> list[str]:
    """Check revealed notes offline ({"text", "salt", "commitment"} each): one line per note, "ok" or what fails."""
    lines = []
    for index, note in enumerate(notes, start=1):
        text, salt, sealed = note.get("text"), note.get("salt"), note.get("commitment")
        label = f"note {note.get('side', '')} #{note.get('note', index)}".replace("  ", " ")
        if not isinstance(text, str) or not isinstance(salt, str) or not isinstance(sealed, str):
            lines.append(f"{label}: FAILED (text, salt and commitment must be strings)")
        elif not HEX64.fullmatch(sealed):
            lines.append(f"{label}: FAILED (the commitment must be 64 lower-case hex digits)")
        elif matches(text, salt, sealed):
            lines.append(f"{label}: ok, matches the commitment {sealed[:12]}…")
        else:
            lines.append(f"{label}: FAILED, does not match the commitment {sealed[:12]}…")
    return lines
