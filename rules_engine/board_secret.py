"""Secret rolls at the board (issue 13 item 4b): a side rolls a DR or a dr for a purpose it types, on its own board
stream (``board-<side>``, numbered apart from the rules' secret rolls, whose numbering it never moves). The roll is a
``roll`` event of its side (CG_END: the roller now, both sides at CG end), so the dice log, the statistics and the
CG-end dice export hold it like every secret roll; the opponent sees at once only a ``board-roll-sealed`` shadow: that
the side made a secret DR (or dr), when, at which step and its number on the board stream — never the purpose or the
dice. The roller reveals it when it chooses (``board-roll-revealed``, public: the dice and the purpose); at CG end
every one is revealed with the seed, and ``verify-dice`` recomputes it from the message that binds its stream, number,
kind, roller and purpose (rules_engine.dice).

The opponent is told DR or dr: which dice a side picked up is seen at the board, and the stream number counts both.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rules_engine.dice import BOARD_PREFIX, Dice, board_stream
from rules_engine.errors import RulesError
from rules_engine.event_text import may_see
from rules_engine.events import JSON, Event, EventKind, roll_event
from rules_engine.plain_text import plain_text
from rules_engine.vocabulary import DiceKind, SideId, Visibility

MAX_PURPOSE = 200  # characters of a purpose typed by the roller
SHADOW_KEYS = ("side", "stream", "number", "kind", "date", "step")
REVEAL_KEYS = (*SHADOW_KEYS, "dice", "total", "purpose", "roller")


class BoardRollError(RulesError):
    """A secret roll that cannot be made (the message says what is allowed)."""


def checked_kind(kind: object) -> DiceKind:
    """DR or dr, or BoardRollError naming both."""
    if kind in ("DR", "dr"):
        return DiceKind(str(kind))
    shown = str(kind)[:20]
    raise BoardRollError(f"A secret roll is a DR (two dice) or a dr (one die); got {shown!r}.")


def checked_purpose(text: str) -> str:
    """The purpose as it is rolled and recorded (one line, spaces collapsed), or an error saying what is allowed."""
    return " ".join(plain_text(text, MAX_PURPOSE, "A roll's purpose").split())


def is_board_roll(payload: Mapping[str, JSON]) -> bool:
    """Whether a ``roll`` event's payload is a secret roll at the board (its stream is a board stream)."""
    return str(payload.get("stream", "")).startswith(BOARD_PREFIX)


def roll_in_secret(dice: Dice, side: SideId, kind: object, purpose: str, date: str, step: str,
                   form: str = "") -> tuple[Event, Event]:
    """Roll on ``side``'s board stream: the roll for the roller (both at CG end), and its public shadow (``form``:
    the form's id, kept with the roll so a form sent twice rolls once)."""
    chosen, text = checked_kind(kind), checked_purpose(purpose)
    made = dice.roll(chosen, text, side, board_stream(side))
    full = roll_event(made, Visibility.CG_END, side, date=date, step=step, board_secret=True, form=form)
    shadow: dict[str, JSON] = {"side": side, "stream": made.stream, "number": made.number, "kind": str(made.kind),
                               "date": date, "step": step}
    return full, Event(EventKind.BOARD_ROLL_SEALED, Visibility.PUBLIC, side, shadow)


def reveal(rolled: Mapping[str, JSON], side: SideId) -> Event:
    """Reveal a secret roll at the board to both sides (its dice and purpose)."""
    return Event(EventKind.BOARD_ROLL_REVEALED, Visibility.PUBLIC, side,
                 {key: side if key == "side" else rolled.get(key) for key in REVEAL_KEYS})


@dataclass(frozen=True)
class BoardRollRecord:
    """A stored event as the secret-rolls list reads it (``made_at``: when it was stored, ISO 8601)."""

    kind: str
    visibility: str
    side: str | None
    payload: Mapping[str, JSON]
    made_at: str


@dataclass(frozen=True)
class BoardRollView:
    """One secret roll as a viewer may see it: always who, which, when and where; dice and purpose once it may."""

    side: SideId
    number: int
    kind: str
    date: str
    step: str
    made_at: str
    own: bool
    revealed: bool
    dice: tuple[int, ...] | None
    purpose: str | None
    matches: bool | None  # the reveal agrees with the shadow (and with the roll, where both are seen); None: unread

    @property
    def total(self) -> int | None:
        """The DR or dr rolled (None while hidden)."""
        return sum(self.dice) if self.dice is not None else None


def _dice(value: JSON) -> tuple[int, ...]:
    return tuple(int(str(d)) for d in value) if isinstance(value, Sequence) and not isinstance(value, str) else ()


def _agrees(shadow: Mapping[str, JSON], shown: Mapping[str, JSON], rolled: Mapping[str, JSON] | None) -> bool:
    same_place = all(shown.get(key) == shadow.get(key) for key in ("stream", "number", "kind", "date", "step"))
    return same_place and (rolled is None or all(shown.get(key) == rolled.get(key) for key in ("dice", "purpose")))


def board_rolls_for(records: Sequence[BoardRollRecord], viewer: SideId, ended: bool) -> tuple[BoardRollView, ...]:
    """Every secret roll at the board, in order, as ``viewer`` may see it (dice and purpose: its own, revealed ones,
    all at CG end)."""
    rolled: dict[tuple[str, JSON], Mapping[str, JSON]] = {}
    revealed: dict[tuple[str, JSON], Mapping[str, JSON]] = {}
    for record in records:
        key = (str(record.side), record.payload.get("number"))
        if record.kind == EventKind.BOARD_ROLL_REVEALED:
            revealed.setdefault(key, record.payload)
        elif record.kind == EventKind.ROLL and is_board_roll(record.payload) and may_see(record, viewer, ended):
            rolled[key] = record.payload
    views: list[BoardRollView] = []
    for record in records:
        if record.kind != EventKind.BOARD_ROLL_SEALED:
            continue
        p = record.payload
        key = (str(record.side), p.get("number"))
        mine, shown = rolled.get(key), revealed.get(key)
        seen = mine if mine is not None else shown
        check = _agrees(p, shown, mine) if shown is not None else None
        views.append(BoardRollView(str(record.side), int(str(p.get("number"))), str(p.get("kind")),
                                   str(p.get("date") or ""), str(p.get("step") or ""), record.made_at,
                                   record.side == viewer, shown is not None,
                                   _dice(seen.get("dice")) if seen is not None else None,
                                   str(seen.get("purpose")) if seen is not None else None, check))
    return tuple(views)


def reveal_problems(rolls: Iterable[Mapping[str, object]], reveals: Iterable[Mapping[str, object]]) -> list[str]:
    """A reveal that does not show the roll made (by stream and number: its kind, dice and purpose), one line each."""
    made = {(str(r.get("stream")), r.get("number")): r for r in rolls}
    problems = []
    for shown in reveals:
        stream, number = str(shown.get("stream")), shown.get("number")
        found = made.get((stream, number))
        if found is None:
            problems.append(f"secret roll {stream} #{number} was revealed but is not among the rolls")
        elif any(found.get(key) != shown.get(key) for key in ("kind", "dice", "purpose")):
            problems.append(f"secret roll {stream} #{number}: revealed {shown.get('kind')} {shown.get('dice')} "
                            f"({shown.get('purpose')}), rolled {found.get('kind')} {found.get('dice')} "
                            f"({found.get('purpose')})")
    return problems
