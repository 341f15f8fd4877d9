"""What the engine derives from a System, computed once per System object (a System is frozen: its parts never change).

Entries are keyed by the object's identity and keep the object alive, so an id is never reused while its entry
exists; each memo is cleared when it grows past its bound (a long-lived process sees few systems)."""
from __future__ import annotations

from collections.abc import Callable, Hashable

_UNSET = object()
KEY_TEXT = 64  # the longest text a memo key may hold: names an order carries are typed by a player
KEY_NUMBER = 10**6  # the largest whole number (either sign) a memo key may hold


def small_key(key: tuple[object, ...]) -> bool:
    """Whether a key's parts (an order's names and numbers, as posted) are small enough to be remembered: a player
    could post ever-new long names or huge numbers, and each remembered key would keep its bytes alive."""
    for part in key:
        if isinstance(part, str):
            if len(part) > KEY_TEXT:
                return False
        elif isinstance(part, int) and not -KEY_NUMBER <= part <= KEY_NUMBER:
            return False
    return True


class SystemMemo[S, K: Hashable, V]:
    """``compute(owner, key)`` remembered per (owner object, key): call it as ``memo(owner, key)``, or keep its bound
    ``lookup`` (``_X = SystemMemo(f).lookup``): a bound method is called without the instance call's slower path (a
    few hundred calls a phase)."""

    def __init__(self, compute: Callable[[S, K], V], bound: int = 512, keep: Callable[[K], bool] | None = None
                 ) -> None:
        self._compute = compute
        self._bound = bound
        self._keep = keep  # which keys are remembered (keys a player types: ``small_key``); None: every key
        self._size = 0
        self._found: dict[int, tuple[S, dict[K, V]]] = {}  # id(owner) → (owner, key → value)
        self._last: tuple[S, dict[K, V]] | None = None  # the entry of the owner asked last (most calls ask it again)

    def lookup(self, owner: S, key: K) -> V:
        """The remembered value for ``owner`` and ``key`` (computed on the first call)."""
        last = self._last
        if last is not None and last[0] is owner:
            value = last[1].get(key, _UNSET)
            if value is not _UNSET:
                return value  # type: ignore[return-value]  # stored below for this key
        entry = self._found.get(id(owner))
        if entry is not None and entry[0] is owner:
            value = entry[1].get(key, _UNSET)
            if value is not _UNSET:
                self._last = entry
                return value  # type: ignore[return-value]  # stored below for this key
        value = self._compute(owner, key)
        if self._keep is not None and not self._keep(key):
            return value  # worked out, not remembered
        if self._size >= self._bound:
            self._found.clear()
            self._last = None
            self._size = 0
        entry = self._found.get(id(owner))
        if entry is None or entry[0] is not owner:
            entry = self._found[id(owner)] = (owner, {})
        entry[1][key] = value
        self._last = entry
        self._size += 1
        return value

    __call__ = lookup
