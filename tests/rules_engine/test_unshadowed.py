"""``unshadowed``: a frozen record's defaults stay in its ``__init__``, no class attribute shadows its fields."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import pytest

from rules_engine.ledger import PurchaseLine
from rules_engine.model import Step
from rules_engine.state import CampaignState
from rules_engine.unshadowed import unshadowed


@unshadowed
@dataclass(frozen=True)
class Record:
    """A stand-in for an engine record: a plain default, a default factory, a required field."""

    name: str
    count: int = 3
    tags: tuple[str, ...] = ()
    extra: dict[str, int] = field(default_factory=dict)


@unshadowed
@dataclass(frozen=True, slots=True)
class Slotted:
    """A record with slots: its fields are descriptors on the class, and stay."""

    name: str
    count: int = 3


def test_defaults_are_given_by_init_and_no_class_attribute_shadows_a_field() -> None:
    record = Record("a")
    assert (record.count, record.tags, record.extra) == (3, (), {})
    assert not {"count", "tags", "extra"} & set(vars(Record))
    assert replace(record, count=4) == Record("a", 4)
    assert repr(record) == "Record(name='a', count=3, tags=(), extra={})"


def test_slot_descriptors_are_kept() -> None:
    assert Slotted("a").count == 3 and Slotted("a", 5).count == 5
    assert "count" in vars(Slotted)


def test_the_engines_hot_records_read_their_fields_on_the_fast_path() -> None:
    for cls, name in ((CampaignState, "records"), (Step, "params"), (PurchaseLine, "notes")):
        assert name not in vars(cls), f"{cls.__name__}.{name} is shadowed by a class attribute"
    state = CampaignState("rr", ("a", "b"), 0, "19 AM", "waiting")
    assert (state.records, state.phase_ref, state.done) == ((), None, frozenset())


def test_a_class_that_is_not_a_dataclass_is_refused() -> None:
    class Plain:
        count = 3

    with pytest.raises(TypeError, match="not a dataclass"):
        unshadowed(Plain)
