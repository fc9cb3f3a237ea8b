"""The one exception tree: every error class of the service lives in `memory.errors`, and the
registry every door turns failures back into (`ERROR_TYPES`: a workflow's `ApplicationError.type`,
the HTTP API's `code`) is built from it, so no class comes back as a generic error."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

from governed_memory import activities, memory, shell, workflows
from governed_memory.activities.failures import service_error, to_failure
from governed_memory.memory import errors
from governed_memory.memory.errors import ERROR_TYPES, MemoryServiceError
from governed_memory.shell.remote import BY_CODE


def _everything_imported() -> None:
    for package in (memory, shell, workflows, activities):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if ".migrations." in module.name or module.name.endswith("__main__"):
                continue  # Alembic scripts need a migration's context; `__main__` runs the CLI
            importlib.import_module(module.name)


def _below(cls: type[MemoryServiceError]) -> list[type[MemoryServiceError]]:
    found = [cls]
    for sub in cls.__subclasses__():
        found += _below(sub)
    return found


def test_every_error_class_lives_in_the_tree_and_the_registry() -> None:
    _everything_imported()
    classes = [c for c in _below(MemoryServiceError) if not c.__module__.startswith("tests")]
    elsewhere = sorted(
        f"{c.__module__}.{c.__name__}" for c in classes if c.__module__ != errors.__name__
    )
    assert elsewhere == [], "error classes outside governed_memory/memory/errors.py"
    assert set(ERROR_TYPES.values()) == set(classes)
    assert len({c.code for c in classes}) == len(classes), "two classes share a code"
    assert set(BY_CODE) == {c.code for c in classes}
    for name in (
        "SchemaNotMigrated",
        "ProjectionWriteFailed",
        "ProjectionUnavailable",
        "RateLimited",
    ):
        assert name in ERROR_TYPES


@pytest.mark.parametrize(
    "cls", [ERROR_TYPES[name] for name in sorted(ERROR_TYPES)], ids=sorted(ERROR_TYPES)
)
def test_each_error_comes_back_from_a_workflow_as_itself(cls: type[MemoryServiceError]) -> None:
    raised = cls("what went wrong", field="namespace")
    back = service_error(to_failure(raised))
    assert type(back) is cls
    assert back is not None
    assert (back.message, back.field, back.code) == ("what went wrong", "namespace", cls.code)
