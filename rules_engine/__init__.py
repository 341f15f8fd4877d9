"""Refit's rules engine: ASL campaign-game systems as data, interpreted by pure functions.

No Django, no I/O: callers hand in text, state, submissions and dice; functions hand back new state and events.
"""
