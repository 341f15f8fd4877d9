"""What the engine remembers per frozen object: computed once per object and key, never another object's value, and
still right after the memo is cleared at its bound or filled again from inside a computation."""
from __future__ import annotations

from rules_engine.system_memo import SystemMemo, small_key


class Owner:
    """A stand-in for a frozen System: compared by identity only."""

    def __init__(self, name: str) -> None:
        self.name = name


def test_a_value_is_computed_once_per_object_and_key() -> None:
    calls: list[tuple[str, str]] = []

    def compute(owner: Owner, key: str) -> str:
        calls.append((owner.name, key))
        return f"{owner.name}/{key}"

    memo = SystemMemo(compute)
    rr, pl = Owner("rr"), Owner("pl")
    assert [memo(rr, "a"), memo(rr, "a"), memo(rr, "b"), memo(pl, "a"), memo(pl, "a")] == \
        ["rr/a", "rr/a", "rr/b", "pl/a", "pl/a"]
    assert calls == [("rr", "a"), ("rr", "b"), ("pl", "a")]


def test_none_and_empty_values_are_remembered_too() -> None:
    calls: list[str] = []

    def compute(owner: Owner, key: str) -> tuple[str, ...] | None:
        calls.append(key)
        return None if key == "none" else ()

    memo = SystemMemo(compute)
    rr = Owner("rr")
    assert (memo(rr, "none"), memo(rr, "none"), memo(rr, "empty"), memo(rr, "empty")) == (None, None, (), ())
    assert calls == ["none", "empty"]


def test_past_its_bound_the_memo_starts_afresh_and_answers_the_same() -> None:
    memo = SystemMemo(lambda owner, key: (owner.name, key), bound=3)
    owners = [Owner(str(i)) for i in range(5)]
    first = [memo(o, k) for o in owners for k in (1, 2)]
    again = [memo(o, k) for o in owners for k in (1, 2)]
    assert first == again == [(str(i), k) for i in range(5) for k in (1, 2)]


def test_a_computation_that_asks_the_same_memo_gets_both_values_kept() -> None:
    def compute(owner: Owner, key: int) -> int:
        return key if key == 0 else memo(owner, key - 1) + key

    memo: SystemMemo[Owner, int, int] = SystemMemo(compute, bound=4)
    rr = Owner("rr")
    assert memo(rr, 6) == 21  # 6+5+4+3+2+1+0, the memo cleared on the way
    assert [memo(rr, k) for k in range(7)] == [0, 1, 3, 6, 10, 15, 21]


def test_a_key_the_memo_may_not_keep_is_worked_out_each_time_and_never_kept() -> None:
    calls: list[tuple[object, ...]] = []

    def compute(owner: Owner, key: tuple[object, ...]) -> int:
        calls.append(key)
        return len(calls)

    memo = SystemMemo(compute, keep=small_key)
    rr, long_name, huge = Owner("rr"), ("german", "X" * 65), ("german", 10**6 + 1)
    assert [memo(rr, long_name), memo(rr, long_name), memo(rr, huge), memo(rr, huge)] == [1, 2, 3, 4]
    assert [memo(rr, ("german", "X" * 64)), memo(rr, ("german", "X" * 64)), memo(rr, ("german", -10**6))] == [5, 5, 6]
    assert calls == [long_name, long_name, huge, huge, ("german", "X" * 64), ("german", -10**6)]


def test_a_bound_lookup_is_the_memo_itself() -> None:
    calls: list[str] = []

    def compute(owner: Owner, key: str) -> str:
        calls.append(key)
        return key.upper()

    memo = SystemMemo(compute)
    lookup = memo.lookup  # how the engine's modules keep their memos (a bound method is called faster)
    rr = Owner("rr")
    assert [lookup(rr, "a"), memo(rr, "a"), memo(rr, "b"), lookup(rr, "b")] == ["A", "A", "B", "B"]
    assert calls == ["a", "b"]
