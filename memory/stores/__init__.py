"""The stores a process works with: canonical (truth), projection (read model), embedder."""

from __future__ import annotations

from dataclasses import dataclass

from memory.embedding import Embedder, default_embedder
from memory.policy import Policy
from memory.settings import Settings
from memory.stores.canonical import CanonicalStore
from memory.stores.projection import EmbeddedProjection, Projection


@dataclass
class Stores:
    canonical: CanonicalStore
    projection: Projection
    embedder: Embedder
    policy: Policy

    def close(self) -> None:
        self.projection.close()
        self.canonical.close()


def open_stores(settings: Settings, *, migrate: bool = True) -> Stores:
    canonical = CanonicalStore(settings.canonical_url)
    if migrate:
        canonical.migrate()
    embedder = default_embedder()
    projection = EmbeddedProjection(settings.projection_file, embedder)
    return Stores(canonical, projection, embedder, settings.policy)
