"""Querysets compiled once per process and database, run again with new values (the hot paths of every request).

Building and compiling a queryset with ``select_related`` and ``defer`` costs more CPU than the database takes to
answer it (issue 12: ~1.4 ms of the 1.8 ms a seat lookup costs). A ``Prepared`` query builds its queryset once with
stand-in values, keeps the compiled SQL per database connection's settings, and runs it with the real values through
Django's own model iterable (instances, ``select_related`` relations, deferred fields alike). Only values given as
arguments change between runs; everything else about the query is fixed when it is prepared.
"""
from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.core.exceptions import EmptyResultSet, FullResultSet
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError

R = TypeVar("R")
Value = str | int

# stand-ins for the arguments while compiling: values no query is ever run with
_STAND_IN_TEXT = "\u2063prepared-{}\u2063"
_STAND_IN_NUMBER = 1_987_654_321  # within a 32-bit integer column's range, as a lookup's value must be


class NotPreparable(ValueError):
    """The queryset's SQL parameters do not carry the stand-in values unchanged (it cannot be prepared)."""


def stand_ins(kinds: Sequence[type]) -> tuple[Value, ...]:
    """One distinct stand-in value per argument kind (``str`` or ``int``)."""
    values: list[Value] = []
    for index, kind in enumerate(kinds):
        if kind is str:
            values.append(_STAND_IN_TEXT.format(index))
        elif kind is int:
            values.append(_STAND_IN_NUMBER - index)
        else:
            raise NotPreparable(f"a prepared query takes str and int arguments, not {kind.__name__}")
    return tuple(values)


class _Compiled:
    """One database's compiled form: the compiler (its select and klass_info filled), the SQL, and where each
    parameter comes from (an argument's index, or a constant)."""

    def __init__(self, queryset: QuerySet[Any], compiler: SQLCompiler, sql: str,
                 sources: list[tuple[int, object, type]]) -> None:
        self.queryset, self.compiler, self.sql, self.sources = queryset, compiler, sql, sources

    def params(self, args: tuple[Value, ...]) -> tuple[object, ...]:
        """The SQL parameters for ``args``: each argument as the database adapter wrapped it (psycopg's Int8 for a
        bigint column), the constants as compiled."""
        return tuple(constant if index < 0 else args[index] if kind is type(args[index]) else kind(args[index])
                     for index, constant, kind in self.sources)


class Prepared(Generic[R]):
    """``build(*arguments)`` → a queryset, compiled once per database; ``rows(*values)`` runs it."""

    def __init__(self, build: Callable[..., QuerySet[Any, R]], *kinds: type) -> None:
        self._build, self._kinds = build, kinds
        self._compiled: dict[tuple[str, str], _Compiled] = {}
        self._lock = threading.Lock()

    def queryset(self, *values: Value) -> QuerySet[Any, R]:
        """The queryset itself, built and compiled as usual (what ``rows`` must return the same rows as)."""
        return self._build(*values)

    def _compile(self, alias: str) -> _Compiled:
        connection = connections[alias]
        key = (alias, connection.vendor)
        found = self._compiled.get(key)
        if found is not None:
            return found
        args = stand_ins(self._kinds)
        queryset = self._build(*args)
        compiler = queryset.query.get_compiler(using=alias)
        try:
            sql, params = compiler.as_sql()
        except (EmptyResultSet, FullResultSet):
            raise NotPreparable("a stand-in value decides the query's result on its own (out of its column's range?)") \
                from None
        sources: list[tuple[int, object, type]] = []
        for param in params:
            index = next((i for i, arg in enumerate(args) if isinstance(param, type(arg)) and param == arg), -1)
            sources.append((index, param, type(param)))
            if index < 0 and isinstance(param, str) and "\u2063prepared-" in param:
                raise NotPreparable("a stand-in value was changed on its way into the SQL")
        missing = [i for i in range(len(args)) if all(index != i for index, _, _ in sources)]
        if missing:
            raise NotPreparable(f"arguments {missing} do not reach the SQL unchanged")
        compiled = _Compiled(queryset, compiler, sql, sources)
        with self._lock:
            self._compiled[key] = compiled
        return compiled

    def rows(self, *values: Value, using: str = DEFAULT_DB_ALIAS) -> list[R]:
        """The queryset's rows for ``values`` (model instances with their selected relations, or values rows)."""
        if len(values) != len(self._kinds) or any(type(v) is not k for v, k in zip(values, self._kinds, strict=True)):
            raise TypeError(f"expected {[k.__name__ for k in self._kinds]}")
        compiled = self._compile(using)
        connection = connections[using]
        query_template = compiled.compiler.query
        if (query_template.select_for_update and connection.features.has_select_for_update
                and connection.get_autocommit() and connection.features.supports_transactions):
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        compiler = copy.copy(compiled.compiler)
        compiler.connection = connection
        sql, params = compiled.sql, compiled.params(values)
        compiler.as_sql = lambda *args, **kwargs: (sql, params)  # type: ignore[method-assign, assignment]
        query = copy.copy(query_template)  # this run's own: its compiler is this run's
        query.get_compiler = lambda *args, **kwargs: compiler  # type: ignore[method-assign]
        template = compiled.queryset
        queryset: QuerySet[Any, R] = QuerySet(model=template.model, query=query, using=using)
        queryset._iterable_class = template._iterable_class  # models, values() or values_list() rows
        queryset._fields = getattr(template, "_fields", None)  # type: ignore[attr-defined]
        return list(queryset)

    def first(self, *values: Value, using: str = DEFAULT_DB_ALIAS) -> R | None:
        """The first of ``rows(*values)``, or None when there is none."""
        found = self.rows(*values, using=using)
        return found[0] if found else None
