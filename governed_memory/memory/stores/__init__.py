"""The stores a process works with: canonical (truth), projection (read model), embedder."""

from __future__ import annotations

import socket
from dataclasses import dataclass

import structlog

from governed_memory.memory.embedding import Embedder, make_embedder
from governed_memory.memory.errors import InvalidInput, ProjectionHostConflict
from governed_memory.memory.extras import require
from governed_memory.memory.models import utcnow
from governed_memory.memory.policy import Policy
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores.canonical import CanonicalStore
from governed_memory.memory.stores.canonical._db import DatabaseOptions, require_schema
from governed_memory.memory.stores.projection import Projection
from governed_memory.memory.stores.projection.embedded import EmbeddedProjection
from governed_memory.memory.write.detectors.learned import configure as configure_learned

log = structlog.get_logger("governed_memory.memory.stores")


@dataclass
class Stores:
    canonical: CanonicalStore
    projection: Projection
    embedder: Embedder
    policy: Policy

    def close(self) -> None:
        self.projection.close()
        self.canonical.close()


def open_projection(
    settings: Settings, embedder: Embedder, canonical: CanonicalStore | None = None
) -> Projection:
    """The projection `settings.projection` names: the embedded SQLite file, or the Weaviate
    cluster at `weaviate_url` (imported only then: the embedded path never loads the client, and
    the cluster is connected on first use); with its graph beside it in `canonical`'s database
    when `settings.graph_home` is "shared" (`memory.stores.projection.shared_graph`)."""
    base = _open_base(settings, embedder, shared_graph=canonical is not None)
    if canonical is None or settings.graph_home != "shared":
        return base
    from governed_memory.memory.stores.projection.shared_graph import GraphedProjection, SharedGraph

    return GraphedProjection(base, SharedGraph(canonical.db))


def _open_base(settings: Settings, embedder: Embedder, *, shared_graph: bool) -> Projection:
    if settings.projection == "weaviate":
        require("weaviate", "MEMORY_PROJECTION=weaviate")
        from governed_memory.memory.stores.projection.weaviate import (
            WeaviateProjection,
            client_params,
            connect_client,
        )

        url = settings.weaviate_url
        if url is None:  # the settings refuse this already; kept for a Settings built by hand
            raise InvalidInput("MEMORY_PROJECTION=weaviate needs MEMORY_WEAVIATE_URL")
        key = settings.weaviate_api_key
        grpc_port = settings.weaviate_grpc_port
        client_params(url, grpc_port)  # a malformed URL fails now, not at the first write
        return WeaviateProjection(
            lambda: connect_client(url, key.get_secret_value() if key else None, grpc_port),
            embedder,
        )
    keep_graph = not (shared_graph and settings.graph_home == "shared")
    return EmbeddedProjection(settings.projection_file, embedder, keep_graph=keep_graph)


def open_stores(settings: Settings, *, migrate: bool | None = None) -> Stores:
    """The stores these settings describe. The canonical schema is brought to head first when
    `migrate` says so (unset: `settings.migrates_on_connect`, i.e. on SQLite only); otherwise a
    store not at this release's schema is refused (`SchemaNotMigrated`: run `memctl db upgrade`).
    """
    # What screens every write in this process (the learned detector is process-wide, as the
    # detectors are).
    configure_learned(enabled=settings.learned_detector)
    canonical = CanonicalStore(settings.canonical_url, DatabaseOptions.from_settings(settings))
    if settings.migrates_on_connect if migrate is None else migrate:
        canonical.migrate()
    else:
        require_schema(canonical.db)
    embedder = make_embedder(settings.embedding_model)
    projection = open_projection(settings, embedder, canonical)
    try:
        claim_host(canonical, projection)
    except BaseException:
        projection.close()
        raise
    return Stores(canonical, projection, embedder, settings.policy)


def claim_host(canonical: CanonicalStore, projection: Projection, host: str | None = None) -> None:
    """An embedded projection is served from one host: the first to open it against this
    canonical store claims it, another is refused (`ProjectionHostConflict`). Each host would
    keep a file of its own while the outbox's processed flags are global, so the second would
    fall behind for good. Several hosts share the Weaviate projection instead. (A SQLite
    canonical store is a file on this host already: nothing to claim, and a laptop whose
    hostname changes is not refused its own data.)"""
    if projection.name != "embedded" or canonical.dialect == "sqlite":
        return
    host = host or socket.gethostname()
    holder = canonical.sweeps.claim_host(projection.name, host, projection.epoch, utcnow())
    if holder is not None:
        raise ProjectionHostConflict(
            f"the embedded projection of this canonical store is served from host {holder!r}:"
            f" this host ({host!r}) cannot keep a copy of its own in step. Several hosts share"
            " the Weaviate projection (MEMORY_PROJECTION=weaviate); if the service has moved"
            " here, release the old host's claim with `memctl db release-projection`"
        )
