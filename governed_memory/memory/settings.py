"""Process configuration from environment variables (prefix `MEMORY_`), with typed defaults."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.policy import Policy, load_policy


def default_data_dir() -> Path:
    """The user's data folder for the service: `~/.local/share/governed-memory` on Linux
    (`$XDG_DATA_HOME` when set), `~/Library/Application Support/governed-memory` on macOS,
    `%LOCALAPPDATA%\\governed-memory` on Windows (platformdirs)."""
    from platformdirs import user_data_path

    return user_data_path("governed-memory", appauthor=False)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="MEMORY_", extra="ignore")

    #: Temporal frontend address (host:port) and namespace.
    temporal_address: str = "127.0.0.1:7233"
    temporal_namespace: str = "default"
    #: A secured cluster: TLS (the CA that signed the server's certificate, this client's
    #: certificate and key for mutual TLS, the name to verify the server as) and/or an API key
    #: (Temporal Cloud). `temporal_tls` turns TLS on with the system's CAs when no file is given.
    temporal_tls: bool = False
    temporal_tls_ca_file: Path | None = None
    temporal_tls_cert_file: Path | None = None
    temporal_tls_key_file: Path | None = None
    temporal_tls_server_name: str | None = None
    temporal_api_key: SecretStr | None = None
    #: Task queue the worker polls and clients start workflows on.
    task_queue: str = "memory"
    #: Folder for the embedded default: SQLite canonical store, projection, signing keys,
    #: Temporal dev server DB. Per user, not per working directory (`default_data_dir`): an MCP
    #: server a desktop app starts from its own folder finds the same data and keys as
    #: `memctl dev` started from a terminal.
    data_dir: Path = Field(default_factory=default_data_dir)
    #: Canonical store URL (SQLAlchemy). Default: SQLite in the data folder.
    #: Postgres: postgresql+psycopg://user@host:5432/db
    database_url: str | None = None
    #: Postgres only (SQLite keeps its own engines): the connection pool of each engine (the
    #: connections kept open, the extra ones opened under load, how long a request waits for a
    #: free one before it fails) and the server's limit on any one statement, in milliseconds
    #: (0: none). Every process has its own pool: size Postgres' `max_connections` for all the
    #: replicas (workers and API) times `db_pool_size + db_max_overflow`.
    db_pool_size: int = Field(default=5, ge=1, le=1000)
    db_max_overflow: int = Field(default=10, ge=0, le=1000)
    db_pool_timeout_seconds: float = Field(default=30.0, gt=0, le=3600)
    db_statement_timeout_ms: int = Field(default=0, ge=0)
    #: Whether opening the canonical store creates or upgrades its schema. Unset: yes on SQLite
    #: (the embedded default needs no step), no on Postgres, where `memctl db upgrade` runs once
    #: per release (a deployment's migration job) and a store not at the release's schema is
    #: refused with `schema_not_migrated`.
    db_migrate_on_connect: bool | None = None
    #: The projection recall and the write path search: "embedded" (a SQLite file on this host,
    #: `projection_path`: one machine) or "weaviate" (a Weaviate cluster every worker and API
    #: replica shares, each memory tenant a Weaviate tenant; needs `weaviate_url`).
    projection: Literal["embedded", "weaviate"] = "embedded"
    #: The embedded projection's file (default: beside the canonical store).
    projection_path: Path | None = None
    #: Where the graph projection lives: "projection" (in the embedded projection's file) or
    #: "shared" (tables of the canonical database every host shares). Unset: "projection" for
    #: the embedded projection, "shared" for Weaviate, which keeps no graph.
    graph: Literal["projection", "shared"] | None = None
    #: The Weaviate projection: the cluster's HTTP URL (http://weaviate:8080), its API key (unset:
    #: anonymous access), and the gRPC port on the same host (Weaviate's clients search and write
    #: over gRPC).
    weaviate_url: str | None = Field(default=None, validate_default=True)
    weaviate_api_key: SecretStr | None = None
    weaviate_grpc_port: int = Field(default=50051, ge=1, le=65535)
    #: Embedding model for recall and the write path's neighbours (the `embeddings` extra): a
    #: sentence-transformers name or folder, or `packaged:all-MiniLM-L6-v2`. Unset: the hashed
    #: n-grams, which need no model. Changing it rebuilds the projection (`memctl repair`).
    embedding_model: str | None = None
    #: Background extraction by a language model (optional): the base URL of any
    #: OpenAI-compatible API (`https://api.openai.com/v1`; the extractor POSTs to
    #: `{url}/chat/completions`), the model (required with the URL), its API key (sent as a
    #: Bearer token; unset: none) and how long one completion may take before the rule extractor
    #: reads the text instead. Only `WriteBatch` (background ingestion) uses it; a single write
    #: keeps the rule extractor. Unset URL: the rule extractor reads every text.
    extractor_url: str | None = None
    extractor_model: str | None = Field(default=None, validate_default=True)
    extractor_key: SecretStr | None = None
    extractor_timeout_seconds: float = Field(default=30.0, gt=0, le=120)
    #: The learned injection detector (a classifier over sentence embeddings, beside the rules:
    #: `memory.write.detectors.learned`; needs the embeddings extra). Off by default: it catches
    #: plainly worded orders the rules miss, but it also flags 19 of LoCoMo's 1,451 friendly
    #: chat turns (enthusiastic encouragement can read to it like an order), and embedding every
    #: write slowed ingestion tenfold on a small machine. On for services whose traffic is
    #: customer service, where its false positives were 0–3.8 % on blind e-mail and chat.
    learned_detector: bool = False
    #: Policy file (TOML); default: the packaged memory/policy.default.toml.
    policy_file: Path | None = None
    #: Journal of committed deletions, kept outside the database (append-only JSON lines), so
    #: that `memctl deletions reapply` can erase them again in a store restored from a backup.
    deletion_journal: Path | None = None
    #: Keys that encrypt every Temporal payload: "id:base64,id2:base64" (the first encrypts).
    #: Unset: the key file below (created with a new key on first use).
    codec_keys: SecretStr | None = None
    codec_key_file: Path | None = None
    #: The service's own keys (memory.secrets): they sign the grants a worker admits workflow
    #: runs by and key the ids that must not be guessed. "id:base64,id2:base64" (the first is
    #: current; every one verifies). Unset: the key file below (made with a new key on first
    #: use). Every API replica, worker and memctl of a deployment needs the same keys.
    service_keys: SecretStr | None = None
    service_key_file: Path | None = None
    #: How long after the door grants a start Temporal may accept it (seconds): once accepted, the
    #: run keeps its grant for its whole life, whatever a worker outage lasts.
    grant_start_seconds: int = Field(default=900, gt=0, le=86_400)
    #: A deletion asks Temporal to delete a closed run only once the run has been closed this
    #: long (seconds): the server refuses, and retries with a growing backoff, a deletion that
    #: comes before its history and visibility queues acknowledged the close. Set it to the
    #: server's `history.visibilityProcessorUpdateAckInterval` (30 s by default; the embedded
    #: dev server acknowledges every 500 ms, for which a second is enough).
    temporal_delete_settle: float = Field(default=1.0, ge=0, le=600)
    #: How long a client call waits for its workflow's result before it says why not (no
    #: worker polls the task queue, or the run is still going, with its workflow id).
    client_timeout_seconds: float = Field(default=300.0, gt=0)
    #: `memctl codec-server`: its port, the address it listens on (0.0.0.0 in a container, so
    #: that a published port reaches it), the Temporal UI origins it answers (CORS), and the file
    #: of operator token hashes (default `codec-operators.json` in the data folder).
    codec_server_port: int = Field(default=8888, ge=1, le=65535)
    codec_server_host: str = "127.0.0.1"
    codec_server_origins: list[str] = Field(
        default_factory=lambda: ["http://127.0.0.1:8233", "http://localhost:8233"]
    )
    codec_operators_file: Path | None = None
    #: `memctl serve` (the HTTP API, the memory page): where it listens, the largest request
    #: body it reads, and each principal's request rate (a token bucket: `api_rate_per_second`
    #: sustained, `api_burst` at once).
    api_host: str = "127.0.0.1"
    api_port: int = Field(default=8080, ge=1, le=65535)
    api_max_body_bytes: int = Field(default=2 * 1024 * 1024, ge=1024, le=256 * 1024 * 1024)
    api_rate_per_second: float = Field(default=50.0, gt=0)
    #: Streamed exports reading and writing a page at once in one API process: bulk work takes
    #: turns, so exports in flight leave other callers their share of the CPU.
    api_export_concurrency: int = Field(default=1, ge=1, le=64)
    api_burst: int = Field(default=100, ge=1)
    #: Each client address's buckets, taken before its token is even looked at: every request
    #: (`api_client_rate_per_second` sustained, `api_client_burst` at once: room for the many
    #: principals of one host or NAT), and refused tokens (`api_refused_rate_per_second`,
    #: `api_refused_burst`): an address whose refused tokens used up its bucket gets `429`
    #: until it refills, whatever token it sends meanwhile.
    api_client_rate_per_second: float = Field(default=200.0, gt=0)
    api_client_burst: int = Field(default=400, ge=1)
    api_refused_rate_per_second: float = Field(default=1.0, gt=0)
    api_refused_burst: int = Field(default=30, ge=1)
    #: The deepest nesting of arrays and objects a JSON body may have (refused before parsing).
    api_max_json_depth: int = Field(default=64, ge=2, le=1000)
    #: The origins the memory page is served at (`https://memory.example.com`), which its forms
    #: must come from (`Origin`); empty: the origin the request itself names (scheme and Host).
    api_origins: list[str] = Field(default_factory=list)
    #: Principal tokens (memory.identity): who issues them and for whom, the public keys that
    #: verify them (PEM files, or an identity provider's JWKS file), and, on the embedded
    #: default, the signing key (default `identity-signing-key.pem` in the data folder, made on
    #: first use) and how long the tokens it mints live. `token` is this process's own token
    #: (a client acting as one principal); unset, a client holding the signing key mints them.
    token_issuer: str = "governed-memory"
    token_audience: str = "governed-memory"
    token_public_keys: list[Path] = Field(default_factory=list)
    token_jwks_file: Path | None = None
    token_signing_key_file: Path | None = None
    token_ttl_seconds: int = Field(default=900, gt=0, le=86_400 * 30)
    token: SecretStr | None = None
    #: Lets a request carry its own clock (`at`): for evaluation and tests only.
    allow_clock_override: bool = False
    #: Logs: "console" (readable) or "json" (production).
    log_format: Literal["console", "json"] = "console"
    log_level: str = "INFO"
    #: Port of the worker's Prometheus endpoint (`/metrics`); 0 turns it off.
    metrics_port: int = Field(default=9464, ge=0, le=65535)
    #: Settle the garbage collector once a worker, the API or the MCP server has started
    #: (`shell.heap`); false keeps CPython's default collector.
    gc_settle: bool = True
    #: OpenTelemetry traces (the `otel` extra): one trace from an HTTP request through the
    #: workflow it starts and that workflow's activities, exported over OTLP/HTTP where the
    #: standard `OTEL_EXPORTER_OTLP_ENDPOINT` says, as `OTEL_SERVICE_NAME` (default
    #: `governed-memory`). Ids and names only, never memory content (shell/tracing.py).
    tracing: bool = False
    #: UI port of the embedded Temporal dev server started by `memctl dev` / `memctl demo` (its
    #: frontend listens on the port of `temporal_address`).
    dev_ui_port: int = Field(default=8233, ge=1, le=65535)

    @field_validator("data_dir")
    @classmethod
    def _home(cls, value: Path) -> Path:
        return value.expanduser()  # MEMORY_DATA_DIR=~/memory

    @field_validator("weaviate_url")
    @classmethod
    def _weaviate_reachable(cls, url: str | None, info: ValidationInfo) -> str | None:
        # A field's validator, not the model's: the error then shows this value only, never the
        # other settings (keys and passwords among them).
        if info.data.get("projection") == "weaviate" and not url:
            raise InvalidInput(
                "MEMORY_PROJECTION=weaviate needs MEMORY_WEAVIATE_URL, the Weaviate cluster's "
                "HTTP URL (e.g. http://weaviate:8080)",
                field="weaviate_url",
            )
        return url or None

    @field_validator("extractor_url")
    @classmethod
    def _extractor_endpoint(cls, url: str | None) -> str | None:
        if url and not url.startswith(("http://", "https://")):
            raise InvalidInput(
                "MEMORY_EXTRACTOR_URL must be the http(s) base URL of an OpenAI-compatible API "
                "(e.g. https://api.openai.com/v1)",
                field="extractor_url",
            )
        return url or None

    @field_validator("extractor_model")
    @classmethod
    def _extractor_named(cls, model: str | None, info: ValidationInfo) -> str | None:
        if info.data.get("extractor_url") and not model:
            raise InvalidInput(
                "MEMORY_EXTRACTOR_URL needs MEMORY_EXTRACTOR_MODEL, the model to ask",
                field="extractor_model",
            )
        return model or None

    @property
    def canonical_url(self) -> str:
        return self.database_url or f"sqlite:///{self.data_dir / 'canonical.db'}"

    @property
    def migrates_on_connect(self) -> bool:
        """Whether opening the canonical store brings its schema to head (`db_migrate_on_connect`;
        unset: on SQLite only)."""
        if self.db_migrate_on_connect is not None:
            return self.db_migrate_on_connect
        return self.canonical_url.split(":", 1)[0].split("+", 1)[0] == "sqlite"

    @property
    def graph_home(self) -> Literal["projection", "shared"]:
        if self.graph is not None:
            return self.graph
        return "shared" if self.projection == "weaviate" else "projection"

    @property
    def projection_file(self) -> Path:
        return self.projection_path or self.data_dir / "projection.db"

    @property
    def codec_key_path(self) -> Path:
        return self.codec_key_file or self.data_dir / "codec-keys.json"

    @property
    def service_key_path(self) -> Path:
        return self.service_key_file or self.data_dir / "service-keys.json"

    @property
    def token_signing_key_path(self) -> Path:
        return self.token_signing_key_file or self.data_dir / "identity-signing-key.pem"

    @property
    def codec_operators_path(self) -> Path:
        return self.codec_operators_file or self.data_dir / "codec-operators.json"

    @property
    def api_url(self) -> str:
        return f"http://{self.api_host}:{self.api_port}"

    @property
    def codec_server_url(self) -> str:
        return f"http://127.0.0.1:{self.codec_server_port}"

    @property
    def deletion_journal_file(self) -> Path:
        return self.deletion_journal or self.data_dir / "deletion-ledger.jsonl"

    @cached_property
    def policy(self) -> Policy:
        return load_policy(self.policy_file)
