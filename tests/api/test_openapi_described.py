"""The published OpenAPI document describes everything it lists: every operation says what it
does (its route's docstring), and every property of every schema says what the value is (the
docstring under the field: `use_attribute_docstrings`). A field or a route added without one
fails here, naming it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import open_stores
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.http.app import create_app

#: The schemas FastAPI generates itself (not the service's models): left to their own fate.
FASTAPI_OWN = frozenset({"HTTPValidationError", "ValidationError"})


@pytest.fixture
def document(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """The document as the API serves it, built from the app alone (no Temporal, no server)."""
    settings = Settings(data_dir=tmp_path)
    stores = open_stores(settings)
    try:
        client = MemoryClient(None, settings, stores)  # type: ignore[arg-type]  # no Temporal
        yield create_app(client).openapi()
    finally:
        stores.close()


def _described(node: dict[str, Any]) -> bool:
    return bool(str(node.get("description") or "").strip())


def test_every_operation_is_described(document: dict[str, Any]) -> None:
    operations = [
        (f"{method.upper()} {path}", operation)
        for path, methods in document["paths"].items()
        for method, operation in methods.items()
    ]
    assert len(operations) >= 30, "the document lists the API's operations"
    assert [name for name, operation in operations if not _described(operation)] == []


def test_every_property_is_described(document: dict[str, Any]) -> None:
    schemas = {
        name: schema
        for name, schema in document["components"]["schemas"].items()
        if name not in FASTAPI_OWN
    }
    properties = [
        (f"{name}.{field}", value)
        for name, schema in schemas.items()
        for field, value in schema.get("properties", {}).items()
    ]
    assert len(properties) >= 300, "the document lists the models' fields"
    assert [name for name, value in properties if not _described(value)] == []
