"""OpenTelemetry traces (`MEMORY_TRACING`, shell/tracing.py): one trace runs from an HTTP request
through the workflow it starts and that workflow's activities, on a real worker and dev server;
no span holds what was said or a token; with tracing off (the default) nothing is traced.

The spans go to an in-memory exporter given to the process's tracer provider (`tracing.install`),
instead of OTLP."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import Event, ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Link, SpanContext, SpanKind, Status, StatusCode
from temporalio.testing import WorkflowEnvironment

from governed_memory.memory import extras
from governed_memory.memory.errors import ExtraMissing
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores import Stores
from governed_memory.shell import tracing
from governed_memory.shell.client import MemoryClient
from governed_memory.shell.http.app import create_app
from governed_memory.shell.temporal import connect
from governed_memory.shell.worker import build_worker
from tests.api.door import BOB, BOB_NS, app_client
from tests.factories import sms

CONTENT = "用户偏好短信通知"  # what Bob says (sms())
ENTITY = "Annabelle Secretname"  # an entity's name, as a path segment


@pytest.fixture(scope="module")
def exporter() -> InMemorySpanExporter:
    """The process's tracer provider exports to this one as well (set up once per process)."""
    memory = InMemorySpanExporter()
    tracing.install(memory)
    return memory


@pytest.fixture
def spans(exporter: InMemorySpanExporter) -> Iterator[InMemorySpanExporter]:
    exporter.clear()
    yield exporter
    exporter.clear()


def finished(exporter: InMemorySpanExporter) -> list[ReadableSpan]:
    tracing.flush()
    return list(exporter.get_finished_spans())


async def serving(
    temporal_env: WorkflowEnvironment, settings: Settings, stores: Stores, *, on: bool
) -> AsyncIterator[MemoryClient]:
    """A client and a worker as the service builds them (`connect`, `build_worker`) on the test's
    dev server, with tracing `on` or off."""
    cfg = settings.model_copy(
        update={
            "tracing": on,
            "temporal_address": temporal_env.client.service_client.config.target_host,
        }
    )
    temporal = await connect(cfg)
    async with build_worker(temporal, cfg, stores):
        yield MemoryClient(temporal, cfg, stores)


@pytest.fixture
async def traced(
    temporal_env: WorkflowEnvironment, settings: Settings, stores: Stores
) -> AsyncIterator[MemoryClient]:
    async for client in serving(temporal_env, settings, stores, on=True):
        yield client


@pytest.fixture
async def untraced(
    temporal_env: WorkflowEnvironment, settings: Settings, stores: Stores
) -> AsyncIterator[MemoryClient]:
    async for client in serving(temporal_env, settings, stores, on=False):
        yield client


def recorded(span: ReadableSpan) -> list[str]:
    """Every value a span carries: its name, attributes, events' attributes, links' attributes,
    status and resource."""
    values: list[Any] = [span.name, span.status.description]
    values += list((span.attributes or {}).values())
    for event in span.events:
        values += [event.name, *(event.attributes or {}).values()]
    for link in span.links:
        values += list((link.attributes or {}).values())
    values += list(span.resource.attributes.values())
    flat: list[str] = []
    for value in values:
        flat += [str(v) for v in value] if isinstance(value, tuple | list) else [str(value)]
    return flat


def assert_holds_none_of(spans: list[ReadableSpan], *secrets: str) -> None:
    for span in spans:
        for value in recorded(span):
            for secret in secrets:
                assert secret not in value, f"{span.name} records {value!r}"


async def test_one_trace_runs_from_the_request_through_the_workflow_and_its_activities(
    traced: MemoryClient, spans: InMemorySpanExporter
) -> None:
    token = traced.token_for(BOB)
    me = {"Authorization": f"Bearer {token}"}
    async with app_client(traced) as http:
        wrote = await http.post(
            "/v1/memories", json={"namespace": BOB_NS, "candidate": sms()}, headers=me
        )
        assert wrote.status_code == 200, wrote.text
        forgot = await http.post(
            "/v1/forget",
            json={"scope": {"namespace": BOB_NS, "key": "notification.preference"}},
            headers=me,
        )
        assert forgot.json()["verification_status"] == "passed", forgot.text
    found = finished(spans)

    for route, workflow in (
        ("POST /v1/memories", "WriteMemory"),
        ("POST /v1/forget", "DeleteSubject"),
    ):
        (request,) = [s for s in found if s.name == route]
        assert request.kind == SpanKind.SERVER
        assert request.parent is None  # the trace starts at the request
        assert request.attributes is not None
        assert request.attributes["http.route"] == route.split(" ")[1]
        trace_id = request.context.trace_id
        trace = [s for s in found if s.context.trace_id == trace_id]
        names = [s.name for s in trace]
        assert f"StartWorkflow:{workflow}" in names, names
        assert f"RunWorkflow:{workflow}" in names, names
        assert f"CompleteWorkflow:{workflow}" in names, names
        activities = [n for n in names if n.startswith("RunActivity:")]
        assert activities, names  # local activities and regular ones alike
        (start,) = [s for s in trace if s.name == f"StartWorkflow:{workflow}"]
        assert start.parent is not None
        assert start.parent.span_id == request.context.span_id
        # every workflow and activity span of the run is in the request's trace
        run = str((start.attributes or {})["temporalWorkflowID"])
        of_run = [s for s in found if (s.attributes or {}).get("temporalWorkflowID") == run]
        assert {s.context.trace_id for s in of_run} == {trace_id}
    # ids and names only: neither what Bob said nor his token
    assert_holds_none_of(found, CONTENT, token, token.rsplit(".", 1)[-1], "Bearer")


async def test_a_span_holds_no_query_path_value_header_or_address(
    traced: MemoryClient, spans: InMemorySpanExporter, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server span keeps the route's template: not the path as sent (an entity's name), nor
    the query (an old sign-in link's token), nor any header even when the OTEL_* variables ask
    for headers, nor the caller's address."""
    monkeypatch.setenv("OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_SERVER_REQUEST", ".*")
    monkeypatch.setenv("OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_SERVER_RESPONSE", ".*")
    token = traced.token_for(BOB)
    async with app_client(traced, address="203.0.113.77") as http:
        signed = await http.get(f"/page/login?token={token}")
        assert signed.status_code == 400  # refused: a token in a link
        entity = await http.get(
            f"/v1/entities/{ENTITY}?namespace={BOB_NS}",
            headers={"Authorization": f"Bearer {token}", "Cookie": f"session={token}"},
        )
        assert entity.status_code == 200, entity.text
    found = finished(spans)
    (looked_up,) = [s for s in found if s.name == "GET /v1/entities/{name}"]
    attributes = dict(looked_up.attributes or {})
    assert attributes["http.route"] == "/v1/entities/{name}"
    assert attributes.get("http.status_code", attributes.get("http.response.status_code")) == 200
    for span in found:
        assert set(span.attributes or {}) <= tracing.KEPT, span.attributes
    assert_holds_none_of(
        found, token, token.rsplit(".", 1)[-1], "Annabelle", "Secretname", "203.0.113.77"
    )


async def test_tracing_off_adds_no_interceptor_and_no_instrumentation(
    untraced: MemoryClient, spans: InMemorySpanExporter, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Off (the default), nothing is traced: not by the service's provider, and not by a global
    provider the host process set up for itself (FastAPI's own telemetry would trace every
    request there, the query as sent included)."""
    host = InMemorySpanExporter()
    host_provider = TracerProvider()
    host_provider.add_span_processor(SimpleSpanProcessor(host))
    monkeypatch.setattr(trace, "_TRACER_PROVIDER", host_provider)  # restored after the test
    assert Settings.model_fields["tracing"].default is False
    assert untraced.temporal.config()["interceptors"] == []
    assert tracing.client_interceptors(untraced.settings) == []
    assert not getattr(create_app(untraced), "_is_instrumented_by_opentelemetry", False)
    async with app_client(untraced) as http:
        wrote = await http.post(
            "/v1/memories",
            json={"namespace": BOB_NS, "candidate": sms()},
            headers={"Authorization": f"Bearer {untraced.token_for(BOB)}"},
        )
        assert wrote.status_code == 200, wrote.text
        assert (await http.get("/page/login?token=abc")).status_code == 400
    assert [(s.name, dict(s.attributes or {})) for s in finished(spans)] == []
    assert [s.name for s in host.get_finished_spans()] == []


def test_tracing_without_the_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(extras.EXTRAS, "otel", ("opentelemetry_not_installed",))
    on = Settings(tracing=True)
    with pytest.raises(ExtraMissing, match=r"governed-memory\[otel\]"):
        tracing.client_interceptors(on)
    assert tracing.client_interceptors(Settings()) == []  # off: nothing is asked of the extra


def test_a_span_leaves_the_process_with_ids_and_names_only() -> None:
    """Whatever an instrumentation records (either semantic conventions, an exception's message
    and traceback, a status description), what is exported is `KEPT` and nothing else."""
    context = SpanContext(trace_id=1, span_id=2, is_remote=False)
    span = ReadableSpan(
        name="RunActivity:memory.write",
        context=context,
        attributes={
            "temporalWorkflowID": "write/shop-a/0123",
            "temporalActivityID": "2",
            "url.path": f"/v1/entities/{ENTITY}",
            "url.query": "token=eyJ.secret",
            "client.address": "203.0.113.77",
            "http.request.header.authorization": ("Bearer eyJ.secret",),
            "user_agent.original": "agent",
            "http.route": "/v1/entities/{name}",
        },
        events=[
            Event(
                "exception",
                {
                    "exception.type": "ValueError",
                    "exception.message": CONTENT,
                    "exception.stacktrace": f"Traceback ...\nValueError: {CONTENT}",
                },
            )
        ],
        links=[Link(context, {"why": CONTENT})],
        status=Status(StatusCode.ERROR, f"ValueError: {CONTENT}"),
    )
    out = tracing.scrubbed(span)
    assert dict(out.attributes or {}) == {
        "temporalWorkflowID": "write/shop-a/0123",
        "temporalActivityID": "2",
        "http.route": "/v1/entities/{name}",
    }
    assert [(e.name, dict(e.attributes or {})) for e in out.events] == [
        ("exception", {"exception.type": "ValueError"})
    ]
    assert out.status.status_code == StatusCode.ERROR
    assert out.name == span.name
    assert out.context == span.context
    assert_holds_none_of([out], CONTENT, ENTITY, "secret", "203.0.113.77")
