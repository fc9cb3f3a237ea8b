# syntax=docker/dockerfile:1
# The service's image: `memctl` (worker, HTTP API, codec server, `db upgrade`) and its locked
# dependencies, built with uv from uv.lock (https://docs.astral.sh/uv/guides/integration/docker/).
#
#   docker build -t governed-memory .
#   docker run --rm governed-memory memctl --help

ARG PYTHON_VERSION=3.11

# ---------------------------------------------------------------- build: the virtualenv
FROM python:${PYTHON_VERSION}-slim-bookworm AS build
COPY --from=ghcr.io/astral-sh/uv:0.13.9 /uv /uvx /bin/
# Bytecode compiled once here; packages copied, not linked, out of the cache mount; the image's
# own Python, never a downloaded one (the runtime stage has the same interpreter at the same path).
ENV UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_PYTHON_DOWNLOADS=0
WORKDIR /app
# The dependencies first, from the lock alone: this layer is rebuilt only when they change.
# The service with its HTTP API, MCP server and Weaviate projection (the dev server and the
# embedding models are left out: compose runs Temporal, and a model is the operator's choice).
RUN --mount=type=cache,target=/root/.cache/uv \
    --mount=type=bind,source=uv.lock,target=uv.lock \
    --mount=type=bind,source=pyproject.toml,target=pyproject.toml \
    uv sync --frozen --no-dev --extra server --extra mcp --extra weaviate --extra otel --no-install-project --no-editable
# Then the project itself, installed into the virtualenv as a package (not editable: the
# runtime stage needs the virtualenv only).
COPY . /app
RUN --mount=type=cache,target=/root/.cache/uv \
    uv sync --frozen --no-dev --extra server --extra mcp --extra weaviate --extra otel --no-editable

# ---------------------------------------------------------------- runtime
FROM python:${PYTHON_VERSION}-slim-bookworm
# A user of its own, and the data folder (MEMORY_DATA_DIR) it owns: a named volume mounted there
# starts with this owner and mode.
RUN groupadd --system --gid 10001 memory \
    && useradd --system --uid 10001 --gid memory --home-dir /home/memory --create-home \
       --shell /usr/sbin/nologin memory \
    && mkdir -p /data \
    && chown memory:memory /data \
    && chmod 0700 /data
COPY --from=build --chown=memory:memory /app/.venv /app/.venv
ENV PATH="/app/.venv/bin:${PATH}" \
    PYTHONUNBUFFERED=1 \
    MEMORY_DATA_DIR=/data
WORKDIR /home/memory
USER memory
# The HTTP API, the codec server, the worker's Prometheus endpoint.
EXPOSE 8080 8888 9464
CMD ["memctl", "serve"]
