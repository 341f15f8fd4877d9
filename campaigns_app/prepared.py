"""Querysets compiled once per process and database, run again with new values (the hot paths of every request).

Building and compiling a queryset with ``select_related`` and ``defer`` costs more CPU than the database takes to
answer it (issue 12: ~1.4 ms of the 1.8 ms a seat lookup costs). A ``Prepared`` query builds its queryset once with
stand-in values, keeps the compiled SQL per database connection's settings, and runs it with the real values through
Django's own model iterable (instances, ``select_related`` relations, deferred fields alike). Only values given as
arguments change between runs; everything else about the query is fixed when it is prepared.
"""
from __future__ import annotations

import copy
import operator
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.core.exceptions import EmptyResultSet, FullResultSet
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Field, Model, QuerySet
from django.db.models.expressions import Expression
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError

R = TypeVar("R")
Value = str | int
Converters = dict[int, tuple[list[Callable[..., Any]], Expression]]  # SQLCompiler.get_converters: by column position

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
        # the select's columns (this compiler's own expressions) and, per connection, their converters
        self.columns = [column for column, _, _ in compiler.select[:compiler.col_count]]
        self.converters: weakref.WeakKeyDictionary[Any, Converters] = weakref.WeakKeyDictionary()

    def converters_for(self, compiler: SQLCompiler) -> Callable[[list[Expression]], Converters]:
        """``compiler.get_converters``, answered once per connection for the select's own columns: Django asks every
        field of every column for its converters on each run (47 columns for a seat with its campaign, system and
        user: a seventh of the lookup's CPU), and they depend only on the fields and the connection's backend. Any
        other expressions are asked as Django asks them."""
        make, columns, cached = compiler.get_converters, self.columns, self.converters

        def get_converters(expressions: list[Expression]) -> Converters:
            if len(expressions) != len(columns) or not all(map(operator.is_, expressions, columns)):
                return make(expressions)
            found = cached.get(compiler.connection)
            if found is None:
                found = cached[compiler.connection] = make(expressions)
            return found

        return get_converters

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
        compiler.get_converters = compiled.converters_for(compiler)  # type: ignore[method-assign, assignment]
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


class PreparedUpdate:
    """``UPDATE <table> SET <assign> = %s, … , <add_one> = <add_one> + 1, … WHERE <where> = %s AND …`` on one model's
    table, its SQL written once per database. The ORM builds and compiles ``update()`` on every call, which costs more
    CPU than the statement itself takes; the hot writes' fixed UPDATEs (who is online, a live page's revision) are
    made here. Each value is adapted by its field as ``update()`` adapts it; like ``update()``, no signal is sent and
    no ``auto_now`` is applied."""

    def __init__(self, model: type[Model], *, assign: Sequence[str] = (), add_one: Sequence[str] = (),
                 where: Sequence[str] = ("id",)) -> None:
        if not (assign or add_one) or not where:
            raise ValueError("an UPDATE sets at least one column and names at least one key")
        meta = model._meta
        self._table = meta.db_table
        self._assign: tuple[Field[Any, Any], ...] = tuple(_concrete(meta.get_field(name)) for name in assign)
        self._add_one: tuple[Field[Any, Any], ...] = tuple(_concrete(meta.get_field(name)) for name in add_one)
        self._where: tuple[Field[Any, Any], ...] = tuple(_concrete(meta.get_field(name)) for name in where)
        self._sql: dict[str, str] = {}

    def _statement(self, alias: str) -> str:
        found = self._sql.get(alias)
        if found is None:
            quote = connections[alias].ops.quote_name
            sets = [f"{quote(_column(f))} = %s" for f in self._assign]
            sets += [f"{quote(_column(f))} = {quote(_column(f))} + 1" for f in self._add_one]
            keys = " AND ".join(f"{quote(_column(f))} = %s" for f in self._where)
            found = self._sql[alias] = f"UPDATE {quote(self._table)} SET {', '.join(sets)} WHERE {keys}"
        return found

    def run(self, *values: object, using: str = DEFAULT_DB_ALIAS) -> int:
        """Set the ``assign`` columns to the first values where the ``where`` columns equal the rest; the rows
        changed."""
        if len(values) != len(self._assign) + len(self._where):
            raise TypeError(f"expected {len(self._assign)} assigned and {len(self._where)} key values")
        connection = connections[using]
        count = len(self._assign)
        params = [field.get_db_prep_save(value, connection) for field, value in zip(self._assign, values[:count],
                                                                                    strict=True)]
        params += [field.get_db_prep_value(value, connection) for field, value in zip(self._where, values[count:],
                                                                                      strict=True)]
        with connection.cursor() as cursor:
            cursor.execute(self._statement(using), params)
            return int(cursor.rowcount)


def _concrete(field: object) -> Field[Any, Any]:
    """A column of the table itself (a foreign key's own column included), not a reverse or many-to-many relation."""
    if not isinstance(field, Field) or not field.concrete or field.many_to_many or field.column is None:
        raise ValueError(f"{field} is not a column of its model's table")
    return field


def _column(field: Field[Any, Any]) -> str:
    assert field.column is not None  # _concrete checked it
    return field.column
