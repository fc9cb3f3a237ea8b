"""Exports: everything kept about a namespace."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from memory.services.access import MemoryExport
from shell.http.deps import Caller_, own_namespace

router = APIRouter(prefix="/v1", tags=["reads"])


@router.get("/export")
def export(s: Caller_, namespace: Annotated[str | None, Query()] = None) -> MemoryExport:
    """Everything kept about a namespace as JSON (default: the caller's own)."""
    return s.client.export(s.ref, namespace or own_namespace(s))
