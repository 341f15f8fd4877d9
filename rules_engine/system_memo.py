"""What the engine derives from a System, computed once per System object (a System is frozen: its parts never change).

Entries are keyed by the object's identity and keep the object alive, so an id is never reused while its entry
exists; each memo is cleared when it grows past its bound (a long-lived process sees few systems)."""
from __future__ import annotations

from collections.abc import Callable, Hashable


class SystemMemo[S, K: Hashable, V]:
    """``compute(owner, key)`` remembered per (owner object, key): call it as ``memo(owner, key)``."""

    def __init__(self, compute: Callable[[S, K], V], bound: int = 512) -> None:
        self._compute = compute
        self._bound = bound
        self._found: dict[tuple[int, K], tuple[S, V]] = {}

    def __call__(self, owner: S, key: K) -> V:
        """The remembered value for ``owner`` and ``key`` (computed on the first call)."""
        entry = self._found.get((id(owner), key))
        if entry is not None and entry[0] is owner:
            return entry[1]
        value = self._compute(owner, key)
        if len(self._found) >= self._bound:
            self._found.clear()
        self._found[(id(owner), key)] = (owner, value)
        return value
