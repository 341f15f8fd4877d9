"""Domain errors: every one is a ValueError with a message a player can act on."""
from __future__ import annotations


class RulesError(ValueError):
    """Base class of everything the engine refuses."""


PROBLEM_MAX = 400
"""The longest problem text a definition error carries (values quoted in it are cut to fit)."""


class DefinitionError(RulesError):
    """A CG definition file breaks the format: where, what is wrong, what is allowed."""

    def __init__(self, file: str, path: str, problem: str, allowed: str | None = None) -> None:
        if len(problem) > PROBLEM_MAX:  # a value quoted in a problem is an excerpt, never a whole (aliased) tree
            problem = problem[:PROBLEM_MAX] + "… (cut)"
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


class LostCellError(MissingValueError):
    """A roll's final result fell on a table cell (or row label) lost in the rule text; says which, for a Need."""

    def __init__(self, message: str, table: str, final: int, row: int, column: str | None, part: str = "cell") -> None:
        super().__init__(message)
        self.table = table  # table id
        self.final = final  # the final roll
        self.row = row  # index of the row in the table
        self.column = column  # column id (None for a lost row label)
        self.part = part  # "cell" | "label"


class UnknownNameError(RulesError):
    """An unknown system, table, column, step or RG id."""


class SubmissionError(RulesError):
    """A player's submission breaks a rule; nothing is changed."""

    def __init__(self, message: str, ref: str | None = None) -> None:
        self.ref = ref
        super().__init__(f"{message} (rule {ref})" if ref else message)
