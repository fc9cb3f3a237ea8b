"""The production stack's files: docker-compose.yml is a valid Compose file (the Compose
Specification's own JSON schema), its services start in a safe order and scale, every setting it
and .env.example name is a real one with its real default, and the image runs real memctl
commands. Nothing here needs a Docker engine."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
import typer
import yaml  # type: ignore[import-untyped]

from governed_memory.memory.secrets import ServiceKeys
from governed_memory.memory.settings import Settings
from governed_memory.memory.stores.canonical._db import Database, require_schema
from governed_memory.shell.cli import app
from governed_memory.shell.codec import Keyring

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILE = ROOT / "docker-compose.yml"
ENV_EXAMPLE = ROOT / ".env.example"
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
SCHEMA = Path(__file__).with_name("compose-spec.json")

#: The services that run the service's own image, and those of them that scale.
OWN_IMAGE = "governed-memory"
SCALABLE = ("worker", "api")
#: Compose's interpolation: ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ...
INTERPOLATION = re.compile(
    r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?+])(?P<arg>[^}]*))?\}"
)
SETTING_LINE = re.compile(r"^(?P<commented>#\s*)?(?P<name>MEMORY_[A-Z0-9_]+)=(?P<value>.*)$")


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE_FILE.read_text(encoding="utf-8"))
    return loaded


def services() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = compose()["services"]
    return found


def environment(service: dict[str, Any]) -> dict[str, str]:
    """A service's `environment`, in either of its two forms."""
    env = service.get("environment") or {}
    if isinstance(env, list):
        return dict(item.split("=", 1) if "=" in item else (item, "") for item in env)
    return {str(k): "" if v is None else str(v) for k, v in env.items()}


def interpolate(text: str, values: dict[str, str]) -> str:
    """Compose's variable interpolation, with `values` as the .env file."""

    def one(match: re.Match[str]) -> str:
        name, op, arg = match["name"], match["op"], match["arg"]
        value = values.get(name)
        if op in (":?", "?") and not value:
            raise AssertionError(f"{name} is required: {arg}")
        if op in (":-", "-") and not value:
            return arg
        return value or ""

    return INTERPOLATION.sub(one, text)


def referenced_variables() -> dict[str, str | None]:
    """Every variable the compose file interpolates, with its operator."""
    return {
        m["name"]: m["op"] for m in INTERPOLATION.finditer(COMPOSE_FILE.read_text(encoding="utf-8"))
    }


def example_lines() -> list[re.Match[str]]:
    return [
        m
        for line in ENV_EXAMPLE.read_text(encoding="utf-8").splitlines()
        if (m := SETTING_LINE.match(line))
    ]


def example_values() -> dict[str, str]:
    """What a filled-in .env holds: the example's uncommented names, given working values."""
    filled = {
        "MEMORY_CODEC_KEYS": Keyring.new().spec(),
        "MEMORY_SERVICE_KEYS": ServiceKeys.new().spec(),
    }
    names = [
        line.split("=", 1)[0]
        for line in ENV_EXAMPLE.read_text(encoding="utf-8").splitlines()
        if re.match(r"^[A-Z][A-Z0-9_]*=", line)
    ]
    return {name: filled.get(name, f"test-{name.lower()}") for name in names}


def own_services() -> dict[str, dict[str, Any]]:
    return {
        name: s
        for name, s in services().items()
        if str(s.get("image", "")).split(":")[0] == OWN_IMAGE
    }


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No MEMORY_* variable of the machine running the suite (restored afterwards)."""
    for name in list(os.environ):
        if name.startswith("MEMORY_"):
            monkeypatch.delenv(name)
    return monkeypatch


def settings_from(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Settings:
    for name, value in env.items():
        if name.startswith("MEMORY_"):
            monkeypatch.setenv(name, value)
    return Settings()


def memctl_command(args: list[str]) -> Any:
    """The memctl command `args` name (all of them, not a prefix); fails if there is none."""
    assert args[0] == "memctl", args
    command: Any = typer.main.get_command(app)
    for word in (a for a in args[1:] if not a.startswith("-")):
        commands = getattr(command, "commands", None)
        assert commands is not None, f"`{' '.join(args)}`: {word!r} is an argument"
        assert word in commands, f"`{' '.join(args)}`: memctl has no command {word!r}"
        command = commands[word]
    return command


# ------------------------------------------------------------------------------ the compose file


def test_the_schema_is_the_compose_specification() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    assert schema["title"] == "Compose Specification"


def test_the_compose_file_is_valid() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    errors = sorted(
        jsonschema.Draft7Validator(schema).iter_errors(compose()), key=lambda e: list(e.path)
    )
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors)


def test_the_schema_catches_a_mistake() -> None:
    """The validation above means something: a misspelt key is an error."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    broken = compose()
    broken["services"]["worker"]["depend_on"] = broken["services"]["worker"].pop("depends_on")
    assert list(jsonschema.Draft7Validator(schema).iter_errors(broken))


def test_the_stack_has_its_parts() -> None:
    found = services()
    for name in ("temporal", "temporal-ui", "canonical-db", "weaviate", "migrate", "worker", "api"):
        assert name in found, name
    assert found["temporal"]["image"].startswith("temporalio/auto-setup:")
    assert found["temporal-ui"]["image"].startswith("temporalio/ui:")
    assert found["weaviate"]["image"].startswith("cr.weaviate.io/semitechnologies/weaviate:")


def test_third_party_images_are_pinned() -> None:
    for name, service in services().items():
        image = str(service["image"])
        if image.split(":")[0] == OWN_IMAGE:
            assert "build" in service, f"{name} runs the service's image: it builds it"
            continue
        tag = image.rsplit(":", 1)[-1] if ":" in image.split("/")[-1] else ""
        assert tag not in ("", "latest"), f"{name}: {image} is not pinned"


def test_temporal_and_the_canonical_store_have_their_own_postgres() -> None:
    found = services()
    temporal_db = environment(found["temporal"])["POSTGRES_SEEDS"]
    assert temporal_db != "canonical-db"
    assert temporal_db in found
    url = environment(found["worker"])["MEMORY_DATABASE_URL"]
    assert "@canonical-db:5432/" in url
    assert url.startswith("postgresql+psycopg://")


def test_weaviate_brings_no_vectorizer_and_persists() -> None:
    weaviate = services()["weaviate"]
    env = environment(weaviate)
    assert env["DEFAULT_VECTORIZER_MODULE"] == "none"
    data = env["PERSISTENCE_DATA_PATH"]
    volumes = compose()["volumes"]
    assert any(
        v.split(":")[1] == data and v.split(":")[0] in volumes for v in weaviate["volumes"]
    ), "Weaviate's data path is a named volume"
    assert "50051" in [str(p) for p in weaviate.get("expose", [])]
    # The key it accepts is the one the service presents.
    assert (
        env["AUTHENTICATION_APIKEY_ALLOWED_KEYS"]
        == "${MEMORY_WEAVIATE_API_KEY:?set MEMORY_WEAVIATE_API_KEY in .env}"
    )


def test_the_ui_decodes_through_the_codec_server() -> None:
    found = services()
    ui = environment(found["temporal-ui"])
    codec = found["codec-server"]
    codec_env = environment(codec)
    port = codec_env["MEMORY_CODEC_SERVER_PORT"]
    assert ui["TEMPORAL_CODEC_ENDPOINT"] == f"http://127.0.0.1:{port}"
    assert ui["TEMPORAL_CODEC_INCLUDE_CREDENTIALS"] == "true"
    assert f"127.0.0.1:{port}:{port}" in codec["ports"]
    # The UI's own published address is among the origins the codec server answers.
    ui_port = next(p.split(":")[1] for p in found["temporal-ui"]["ports"])
    origins = json.loads(codec_env["MEMORY_CODEC_SERVER_ORIGINS"])
    assert f"http://127.0.0.1:{ui_port}" in origins
    assert codec_env["MEMORY_CODEC_SERVER_HOST"] == "0.0.0.0"
    assert memctl_command(codec["command"]).name == "codec-server"


def test_named_volumes_are_declared() -> None:
    declared = set(compose()["volumes"])
    used = set()
    for service in services().values():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0] if isinstance(volume, str) else volume.get("source")
            if source and not source.startswith((".", "/")):
                used.add(source)
    assert used, "the stack keeps its data in named volumes"
    assert used <= declared
    assert declared <= used, "a declared volume nobody mounts"


def test_everything_a_service_waits_for_healthy_has_a_healthcheck() -> None:
    found = services()
    waited = {
        dependency
        for service in found.values()
        for dependency, how in (service.get("depends_on") or {}).items()
        if how["condition"] == "service_healthy"
    }
    assert waited
    for name in waited:
        test = found[name].get("healthcheck", {}).get("test")
        assert test, f"{name} is waited for healthy but has no healthcheck"
        assert test != ["NONE"], f"{name} is waited for healthy, its healthcheck is off"


def test_every_long_running_service_has_a_healthcheck() -> None:
    for name, service in services().items():
        if service.get("restart") == "no":  # one-off jobs
            continue
        assert service.get("healthcheck", {}).get("test"), name


def test_dependencies_are_conditions_on_existing_services() -> None:
    found = services()
    for name, service in found.items():
        depends = service.get("depends_on") or {}
        assert isinstance(depends, dict), f"{name}: depends_on without conditions"
        for dependency, how in depends.items():
            assert dependency in found, f"{name} depends on unknown {dependency}"
            assert how["condition"] in ("service_healthy", "service_completed_successfully")
            if how["condition"] == "service_completed_successfully":
                assert found[dependency].get("restart") == "no", dependency


def test_the_service_starts_after_the_migration_job() -> None:
    found = services()
    for name in ("worker", "api"):
        depends = found[name]["depends_on"]
        assert depends["migrate"] == {"condition": "service_completed_successfully"}, name
        for store in ("canonical-db", "temporal", "weaviate"):
            assert depends[store] == {"condition": "service_healthy"}, (name, store)
    assert found["migrate"]["depends_on"]["canonical-db"] == {"condition": "service_healthy"}


@pytest.mark.parametrize("name", SCALABLE)
def test_workers_and_api_replicas_scale(name: str) -> None:
    """No container name and no fixed host port: `--scale` runs as many as asked."""
    service = services()[name]
    assert "container_name" not in service
    for port in service.get("ports", []):
        if isinstance(port, dict):
            assert "published" not in port, f"{name} publishes a fixed host port: {port}"
        else:
            parts = str(port).split("/")[0].split(":")
            assert len(parts) == 1 or (len(parts) == 3 and parts[1] == ""), (
                f"{name} publishes a fixed host port: {port}"
            )


def test_only_the_job_runs_migrations() -> None:
    found = services()
    for name in ("worker", "api", "codec-server"):
        assert environment(found[name])["MEMORY_DB_MIGRATE_ON_CONNECT"] == "false", name


# ------------------------------------------------------------------------------ settings named


def test_every_memory_variable_of_the_compose_file_is_a_setting() -> None:
    fields = set(Settings.model_fields)
    named = {
        var
        for service in services().values()
        for var in environment(service)
        if var.startswith("MEMORY_")
    }
    named |= {var for var in referenced_variables() if var.startswith("MEMORY_")}
    assert named
    unknown = sorted(v for v in named if v.removeprefix("MEMORY_").lower() not in fields)
    assert not unknown, f"not settings: {unknown}"


def test_every_memory_variable_of_the_env_example_is_a_setting() -> None:
    fields = set(Settings.model_fields)
    names = [m["name"] for m in example_lines()]
    unknown = sorted(n for n in names if n.removeprefix("MEMORY_").lower() not in fields)
    assert not unknown, f"not settings: {unknown}"
    repeated = sorted({n for n in names if names.count(n) > 1})
    assert not repeated, f"listed twice: {repeated}"


def test_every_setting_is_in_the_env_example() -> None:
    listed = {m["name"].removeprefix("MEMORY_").lower() for m in example_lines()}
    missing = sorted(set(Settings.model_fields) - listed)
    assert not missing, f"settings missing from .env.example: {missing}"


def test_the_env_example_gives_every_setting_with_a_comment() -> None:
    lines = ENV_EXAMPLE.read_text(encoding="utf-8").splitlines()
    for index, line in enumerate(lines):
        if SETTING_LINE.match(line):
            above = lines[index - 1]
            assert above.startswith("# "), f"{line}: no comment above it"
            assert not SETTING_LINE.match(above), f"{line}: no comment above it"


def test_the_env_example_shows_the_real_defaults(clean_environment: pytest.MonkeyPatch) -> None:
    """Each value shown is the setting's default (empty: a setting unset by default)."""
    defaults = Settings()
    for match in example_lines():
        name, value = match["name"], match["value"]
        field = name.removeprefix("MEMORY_").lower()
        default = getattr(defaults, field)
        if value == "":
            assert default is None, (
                f"{name}: the example shows it unset, its default is {default!r}"
            )
            continue
        clean_environment.setenv(name, value)
        assert getattr(Settings(), field) == default, f"{name}={value} is not its default"
        clean_environment.delenv(name)


def test_what_compose_requires_is_what_the_env_example_asks_for() -> None:
    required = {name for name, op in referenced_variables().items() if op in (":?", "?")}
    asked = set(example_values())
    assert required == asked, (required, asked)
    optional = {name for name, op in referenced_variables().items() if op not in (":?", "?")}
    assert not optional, f"interpolated without a default or a requirement: {optional}"


@pytest.mark.parametrize("name", sorted(own_services()))
def test_each_service_of_the_image_is_configured_validly(
    name: str, clean_environment: pytest.MonkeyPatch
) -> None:
    env = {k: interpolate(v, example_values()) for k, v in environment(services()[name]).items()}
    settings = settings_from(env, clean_environment)
    assert settings.projection == "weaviate"
    assert settings.weaviate_url == "http://weaviate:8080"
    assert settings.weaviate_api_key is not None
    assert settings.temporal_address == "temporal:7233"
    assert settings.canonical_url.startswith("postgresql+psycopg://memory:")
    assert not settings.migrates_on_connect
    assert settings.codec_keys is not None
    Keyring.for_settings(settings)  # the keys parse
    assert settings.service_keys is not None
    ServiceKeys.for_settings(settings)
    assert str(settings.data_dir) == "/data"


def test_the_api_listens_beyond_its_container(clean_environment: pytest.MonkeyPatch) -> None:
    api = services()["api"]
    env = {k: interpolate(v, example_values()) for k, v in environment(api).items()}
    settings = settings_from(env, clean_environment)
    assert settings.api_host == "0.0.0.0"
    assert [p["target"] for p in api["ports"]] == [settings.api_port]


# ------------------------------------------------------------------------------ commands


def test_every_command_of_the_image_is_a_memctl_command() -> None:
    for name, service in own_services().items():
        command = service["command"]
        assert isinstance(command, list), f"{name}: exec form, not a shell string"
        memctl_command(command)


def dockerfile_instructions(keyword: str) -> list[list[str]]:
    found = []
    for line in DOCKERFILE.read_text(encoding="utf-8").splitlines():
        if line.startswith(f"{keyword} "):
            found.append(json.loads(line.removeprefix(f"{keyword} ")))
    return found


def test_the_dockerfile_runs_a_memctl_command() -> None:
    cmds = dockerfile_instructions("CMD")
    entrypoints = dockerfile_instructions("ENTRYPOINT")
    assert cmds or entrypoints
    for command in [*entrypoints, *cmds]:
        assert isinstance(command, list), "exec form"
    final = [*(entrypoints[-1] if entrypoints else []), *(cmds[-1] if cmds else [])]
    memctl_command(final)


def test_the_image_is_built_from_the_lock_as_a_user() -> None:
    text = DOCKERFILE.read_text(encoding="utf-8")
    assert re.search(r"^COPY --from=ghcr\.io/astral-sh/uv:[0-9.]+ /uv /uvx /bin/$", text, re.M)
    syncs = re.findall(r"uv sync ([^\n]*)", text)
    assert syncs
    assert all("--frozen" in s and "--no-dev" in s for s in syncs)
    for extra in ("server", "mcp", "weaviate"):  # what compose's services run (docs/install.md)
        assert all(f"--extra {extra}" in s for s in syncs), extra
    users = re.findall(r"^USER (\S+)$", text, re.M)
    assert users, "the image names its user"
    assert users[-1] not in ("root", "0"), "the image runs as a user of its own"


def test_the_build_context_keeps_secrets_and_local_state_out() -> None:
    ignored = {line.strip() for line in DOCKERIGNORE.read_text(encoding="utf-8").splitlines()}
    for entry in (".env", ".git", ".venv", ".memory-data"):
        assert entry in ignored, entry
    for needed in (
        "pyproject.toml",
        "uv.lock",
        "README.md",
        "governed_memory",
        "workflows",
        "activities",
    ):
        assert needed not in ignored, needed


def test_the_migration_job_runs_the_real_upgrade(empty_database_url: str, tmp_path: Path) -> None:
    """The job's command, run as the container would (its environment, the real memctl), brings
    an empty canonical store to the release's schema."""
    job = services()["migrate"]
    command = job["command"]
    assert memctl_command(command).callback is not None
    assert shlex.join(command) == "memctl db upgrade"
    env = {k: interpolate(v, example_values()) for k, v in environment(job).items()}
    env |= {"MEMORY_DATABASE_URL": empty_database_url, "MEMORY_DATA_DIR": str(tmp_path)}
    memctl = Path(sys.executable).with_name("memctl")
    base = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_")}
    done = subprocess.run(
        [str(memctl), *command[1:]],
        env=base | env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "canonical store at head" in done.stdout
    db = Database(empty_database_url)
    try:
        require_schema(db)
    finally:
        db.close()
