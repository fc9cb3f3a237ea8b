"""The package as a stranger installs it: a wheel with one import package, a base install that is
the URL client alone (an agent talks to a running service with a few packages), and the service
and its integrations as extras, each door naming the extra it lacks instead of an ImportError.

The wheel is built from this checkout, and each install goes into a new virtualenv with the
lock's pinned versions (`uv export`), so what is measured is what `pip install` would give."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import textwrap
import tomllib
import zipfile
from pathlib import Path

import pytest

from governed_memory.shell.client import MemoryClient

ROOT = Path(__file__).resolve().parents[2]
BOB = "user:shop-a/456"
#: What a base install may bring: the URL client, pydantic and httpx, and what they need.
BASE = {
    "governed-memory",
    "pydantic",
    "pydantic-core",
    "annotated-types",
    "typing-extensions",
    "typing-inspection",
    "httpx",
    "httpcore",
    "h11",
    "anyio",
    "idna",
    "certifi",
    "sniffio",
}


def _uv() -> list[str]:
    found = shutil.which("uv")
    if found:
        return [found]
    return ["python3", "-m", "uv"]  # the README's way in: `python3 -m pip install uv`


def _run(*args: str, cwd: Path = ROOT) -> str:
    done = subprocess.run(
        [*_uv(), *args], cwd=cwd, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    _run("build", "-q", "--wheel", "--out-dir", str(out), str(ROOT))
    (found,) = out.glob("governed_memory-*.whl")
    return found


def _venv(where: Path, wheel: Path, extra: str | None) -> Path:
    pins = where.with_suffix(".txt")
    extras = ["--extra", extra] if extra else []
    _run("export", "-q", "--frozen", "--no-hashes", "--no-dev", "--no-emit-project", *extras,
         "-o", str(pins))  # fmt: skip
    _run("venv", "-q", "--python", sys.executable, str(where))
    python = where / "bin" / "python"
    target = f"{wheel}[{extra}]" if extra else str(wheel)
    _run("pip", "install", "-q", "--python", str(python), "-r", str(pins), target)
    return where / "bin"


@pytest.fixture(scope="module")
def base(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _venv(tmp_path_factory.mktemp("base") / "venv", wheel, None)


@pytest.fixture(scope="module")
def service(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _venv(tmp_path_factory.mktemp("service") / "venv", wheel, "service")


def _installed(bin_dir: Path) -> set[str]:
    listed = _run("pip", "freeze", "--python", str(bin_dir / "python"))
    return {line.split("==")[0].split(" @ ")[0].lower() for line in listed.splitlines()}


def test_the_wheel_ships_one_import_package_typed(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names} == {
        "governed_memory",
        wheel.name.split("-py3")[0] + ".dist-info",
    }
    assert "governed_memory/py.typed" in names
    for part in ("memory", "shell", "workflows", "activities"):
        assert f"governed_memory/{part}/__init__.py" in names, part
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert [d.split(">")[0] for d in project["dependencies"]] == ["pydantic", "httpx"]
    extras = project["optional-dependencies"]
    assert {"service", "devserver", "server", "mcp", "weaviate", "embeddings"} <= set(extras)


def test_the_base_install_is_the_url_client_and_a_few_packages(base: Path) -> None:
    installed = _installed(base)
    assert installed <= BASE, installed - BASE
    assert len(installed) <= 13


async def test_an_agent_with_the_base_install_remembers_recalls_and_forgets(
    base: Path, served: str, client: MemoryClient, tmp_path: Path
) -> None:
    script = tmp_path / "agent.py"
    script.write_text(
        textwrap.dedent(
            """
            import os, sys
            from governed_memory.shell.remote import Memory

            memory = Memory(os.environ["MEMORY_URL"], os.environ["MEMORY_TOKEN"])
            memory.remember("以后都希望优先短信通知")
            print(memory.recall("how should we notify the user?").memories[0].structured_value)
            print(memory.forget(key="notification.preference").verification_status)
            service = {"sqlalchemy", "temporalio", "numpy", "fastapi", "structlog"}
            print(sorted(service & {m.split(".")[0] for m in sys.modules}))
            """
        )
    )
    env = {"MEMORY_URL": served, "MEMORY_TOKEN": client.token_for(BOB), "PATH": "/usr/bin:/bin"}
    proc = await asyncio.create_subprocess_exec(
        str(base / "python"),
        str(script),
        env=env,
        cwd=tmp_path,  # not the checkout: only the installed package is importable
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout=120)
    assert proc.returncode == 0, err.decode()
    assert out.decode().splitlines() == ["{'channel': 'sms'}", "passed", "[]"]


def _memctl(
    bin_dir: Path, tmp_path: Path, *args: str, **env: str
) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_")}
    # A PATH of the venv and the system alone: `uv run` puts the project's .venv/bin (with the
    # dev group's `temporal`) first, and a binary found there is not this install's.
    clean["PATH"] = os.pathsep.join([str(bin_dir), "/usr/local/bin", "/usr/bin", "/bin"])
    return subprocess.run(
        [str(bin_dir / "memctl"), *args],
        cwd=tmp_path,
        env={**clean, "MEMORY_DATA_DIR": str(tmp_path / "data"), **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_memctl_without_the_service_says_what_to_install(base: Path, tmp_path: Path) -> None:
    done = _memctl(base, tmp_path, "--help")
    assert done.returncode == 2
    assert "pip install 'governed-memory[service]'" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("args", "env", "extra"),
    [
        (("serve",), {}, "server"),
        (("codec-server",), {}, "server"),
        (("demo",), {}, "server"),
        (("mcp",), {}, "mcp"),
        (("dev", "--no-api"), {}, "devserver"),
        (
            ("recall", "--query", "x", "--principal", "user:a/1", "--namespace", "tenant/a/user/1"),
            {"MEMORY_PROJECTION": "weaviate", "MEMORY_WEAVIATE_URL": "http://127.0.0.1:1"},
            "weaviate",
        ),
    ],
)
def test_each_door_names_the_extra_it_lacks(
    service: Path, tmp_path: Path, args: tuple[str, ...], env: dict[str, str], extra: str
) -> None:
    done = _memctl(service, tmp_path, *args, **env)
    assert done.returncode == 2, done.stderr
    assert "error: extra_missing: " in done.stderr
    assert f"pip install 'governed-memory[{extra}]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_service_alone_runs_memctl(service: Path, tmp_path: Path) -> None:
    done = _memctl(service, tmp_path, "--help")
    assert done.returncode == 0, done.stderr
    assert "Usage: memctl" in done.stdout
