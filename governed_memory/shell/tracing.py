"""OpenTelemetry traces (`MEMORY_TRACING`, the `otel` extra): one trace from an HTTP request
through the workflow it starts and that workflow's activities.

- `client_interceptors` is what `shell.temporal.connect` gives the Temporal client: Temporal's
  `TracingInterceptor`, which traces the client's calls (`StartWorkflow:…`) and carries the trace
  in the run's headers; every worker built on that client inherits it (`RunWorkflow:…`,
  `StartActivity:…`, `RunActivity:…`, local activities included). Workflow spans are made by an
  extern function, outside the sandbox (no workflow imports OpenTelemetry, so the sandbox needs no
  passthrough for it), and only when not replaying: workflows stay deterministic.
- `instrument_app` is what `create_app` applies to the HTTP API: FastAPI's instrumentation, one
  server span per request, named by its route (`POST /v1/memories`). `create_app` keeps FastAPI's
  own telemetry off (`FASTAPI_TELEMETRY`), tracing on or off.
- `install` sets up the process's tracer provider once: the service's own, given to both (not
  OpenTelemetry's global one, which a host process may have set up for itself), its spans
  exported in batches over OTLP/HTTP as the standard variables say (`OTEL_EXPORTER_OTLP_ENDPOINT`,
  `OTEL_SERVICE_NAME`, `OTEL_TRACES_SAMPLER`, ...).

Spans carry ids and names only, never memory content or credentials: every span leaves the
process through `scrubbed`, which keeps the attributes of `KEPT` (workflow, run and activity ids,
the HTTP method, route template and status) and drops every other one, whichever instrumentation
set it: the URL, path and query as sent (an entity's name is a path segment; an old sign-in link
put a token in the query), headers (`Authorization` holds the bearer token), the caller's address
and user agent, and an exception's message and traceback (its type stays). Only the W3C trace
context travels in Temporal's headers (which the payload codec does not encrypt), not the
caller's baggage.

Nothing here imports OpenTelemetry until tracing is on: without the extra, the service runs as
before, and `MEMORY_TRACING=true` says which extra to install.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from governed_memory.memory.extras import require

if TYPE_CHECKING:
    from fastapi import FastAPI
    from fastapi.telemetry import TelemetryConfig
    from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor, TracerProvider
    from opentelemetry.sdk.trace.export import SpanExporter
    from opentelemetry.util.types import Attributes, AttributeValue
    from temporalio.client import Interceptor

    from governed_memory.memory.settings import Settings

__all__ = [
    "FASTAPI_TELEMETRY",
    "KEPT",
    "SERVICE_NAME",
    "client_interceptors",
    "flush",
    "install",
    "instrument_app",
    "scrubbed",
]

#: The service name spans are reported under when neither `OTEL_SERVICE_NAME` nor
#: `OTEL_RESOURCE_ATTRIBUTES` names one.
SERVICE_NAME = "governed-memory"

#: The span attributes (and span event attributes) that leave the process; `scrubbed` drops
#: every other one.
KEPT = frozenset(
    {
        # Temporal's TracingInterceptor: ids (workflow ids are keyed hashes) and the activity type
        "temporalWorkflowID",
        "temporalRunID",
        "temporalActivityID",
        "temporalActivityType",
        "temporalUpdateID",
        # the HTTP server span, in either of OpenTelemetry's semantic conventions
        # (OTEL_SEMCONV_STABILITY_OPT_IN): the route's template, never the path as sent
        "http.method",
        "http.request.method",
        "http.route",
        "http.status_code",
        "http.response.status_code",
        "http.scheme",
        "url.scheme",
        "http.flavor",
        "network.protocol.version",
        "error.type",
        # an exception event: the exception's type, never its message or traceback
        "exception.type",
    }
)

#: FastAPI's own telemetry (`FastAPI(telemetry=...)`): off. It traces, meters and logs every
#: request as soon as the process has a global OpenTelemetry provider, whatever `MEMORY_TRACING`
#: says, and records the path and the query as sent: the API's spans are `instrument_app`'s.
FASTAPI_TELEMETRY: TelemetryConfig = {
    "tracing": False,
    "metrics": False,
    "logs": False,
    "operation_spans": False,
    "auto_configure": False,
}

_lock = threading.Lock()
_provider: TracerProvider | None = None


def install(exporter: SpanExporter | None = None) -> TracerProvider:
    """The service's tracer provider, made on the first call and kept for the process: its spans
    `scrubbed` and exported in batches by `exporter` (default: OTLP over HTTP, configured by the
    standard `OTEL_EXPORTER_OTLP_*` variables). A later call returns the same provider, adding
    `exporter` when one is given (tests)."""
    require("otel", "MEMORY_TRACING (OpenTelemetry traces)")
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider

    global _provider
    with _lock:
        if _provider is None:
            resource = Resource.create()  # OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES
            if str(resource.attributes.get("service.name", "")).startswith("unknown_service"):
                resource = resource.merge(Resource({"service.name": SERVICE_NAME}))
            _provider = TracerProvider(resource=resource)
            if exporter is None:
                from opentelemetry.exporter.otlp.proto.http.trace_exporter import (
                    OTLPSpanExporter,
                )

                exporter = OTLPSpanExporter()
        if exporter is not None:
            _provider.add_span_processor(_exporting(exporter))
        return _provider


def flush(timeout_millis: int = 5000) -> None:
    """Export the spans still in the batch (the processes end with `os._exit`, which skips the
    provider's own flush at exit). Nothing to do when tracing was never set up."""
    if _provider is not None:
        _provider.force_flush(timeout_millis)


def client_interceptors(settings: Settings) -> list[Interceptor]:
    """The Temporal client's interceptors for tracing: none when `settings.tracing` is off."""
    if not settings.tracing:
        return []
    provider = install()
    from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator
    from temporalio.contrib.opentelemetry import TracingInterceptor

    interceptor = TracingInterceptor(provider.get_tracer("temporalio.contrib.opentelemetry"))
    # The trace context only: W3C baggage is the caller's to set, and Temporal's headers are
    # stored unencrypted in the run's history.
    interceptor.text_map_propagator = TraceContextTextMapPropagator()
    return [interceptor]


def instrument_app(app: FastAPI, settings: Settings) -> None:
    """Give the HTTP API a server span per request (FastAPI's instrumentation) when
    `settings.tracing` is on; otherwise leave the app as it is."""
    if not settings.tracing:
        return
    provider = install()
    from opentelemetry.instrumentation.fastapi import FastAPIInstrumentor
    from opentelemetry.metrics import NoOpMeterProvider

    FastAPIInstrumentor.instrument_app(
        app,
        tracer_provider=provider,
        meter_provider=NoOpMeterProvider(),  # the API's metrics are Prometheus' (/metrics)
        # the ASGI `receive` and `send` events: a span each, of no use here
        exclude_spans=["receive", "send"],
    )


def scrubbed(span: ReadableSpan) -> ReadableSpan:
    """`span` as it leaves the process: only the attributes of `KEPT` (on the span, its events
    and its links), and its status without a description (an exception's message)."""
    from opentelemetry.sdk.trace import Event, ReadableSpan
    from opentelemetry.trace import Link, Status

    return ReadableSpan(
        name=span.name,
        context=span.context,
        parent=span.parent,
        resource=span.resource,
        attributes=_kept(span.attributes),
        events=[Event(e.name, _kept(e.attributes), e.timestamp) for e in span.events],
        links=[Link(link.context, _kept(link.attributes)) for link in span.links],
        kind=span.kind,
        status=Status(span.status.status_code),
        start_time=span.start_time,
        end_time=span.end_time,
        instrumentation_scope=span.instrumentation_scope,
    )


def _kept(attributes: Attributes) -> dict[str, AttributeValue]:
    return {k: v for k, v in (attributes or {}).items() if k in KEPT}


def _exporting(exporter: SpanExporter) -> SpanProcessor:
    """A batch processor that hands `exporter` the spans `scrubbed`."""
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult

    class Scrubbing(SpanExporter):
        def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
            return exporter.export([scrubbed(span) for span in spans])

        def shutdown(self) -> None:
            exporter.shutdown()

        def force_flush(self, timeout_millis: int = 30000) -> bool:
            return exporter.force_flush(timeout_millis)

    return BatchSpanProcessor(Scrubbing())
