"""Domain errors: every one is a ValueError with a message a player can act on."""
from __future__ import annotations


class RulesError(ValueError):
    """Base class of everything the engine refuses."""


class DefinitionError(RulesError):
    """A CG definition file breaks the format: where, what is wrong, what is allowed."""

    def __init__(self, file: str, path: str, problem: str, allowed: str | None = None) -> None:
        self.file = file
        self.path = path
        self.problem = problem
        self.allowed = allowed
        where = f"{file}: {path}" if path else file
        text = f"{where}: {problem}"
        if allowed:
            text += f" (allowed: {allowed})"
        super().__init__(text)


class DefinitionErrors(RulesError):
    """Several definition problems found in one pass (the loader reports them all, not just the first)."""

    def __init__(self, errors: list[DefinitionError]) -> None:
        self.errors = errors
        super().__init__("\n".join(str(error) for error in errors))


class MissingValueError(RulesError):
    """A needed value is lost in the rule text and has not been supplied by a user."""


class UnknownNameError(RulesError):
    """An unknown system, table, column, step or RG id."""


class SubmissionError(RulesError):
    """A player's submission breaks a rule; nothing is changed."""

    def __init__(self, message: str, ref: str | None = None) -> None:
        self.ref = ref
        super().__init__(f"{message} (rule {ref})" if ref else message)
