"""The embedded dev server's start: what it says when the real binary refuses or dies."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from governed_memory.memory.errors import ServiceUnavailable
from governed_memory.memory.metrics import free_port
from governed_memory.shell.devserver import DevServer, _exit_summary

GO_PANIC = """panic: listen tcp 127.0.0.1:41234: bind: address already in use

goroutine 1 [running]:
github.com/temporalio/cli/internal/devserver.MustGetFreePort(...)
\t/home/runner/work/cli/cli/internal/devserver/freeport.go:20
github.com/spf13/cobra.(*Command).execute(...)
\t/home/runner/go/pkg/mod/github.com/spf13/cobra@v1.10.2/command.go:1015
github.com/spf13/cobra.(*Command).ExecuteC(...)
\t/home/runner/go/pkg/mod/github.com/spf13/cobra@v1.10.2/command.go:1148
main.main()
\t/home/runner/work/cli/cli/cmd/temporal/main.go:18 +0x8e
"""


def test_a_panic_is_summed_up_by_its_message_not_its_stack_tail() -> None:
    summary = _exit_summary(GO_PANIC)
    assert (
        summary.splitlines()[0] == "panic: listen tcp 127.0.0.1:41234: bind: address already in use"
    )
    assert summary.splitlines()[-1].endswith("main.go:18 +0x8e")
    assert "command.go:1148" not in summary
    assert _exit_summary("") == "(nothing printed)"
    assert _exit_summary("Error: bad flag\n") == "Error: bad flag"


def test_a_port_the_caller_chose_and_is_taken_is_refused_at_once(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        ui_port = taken.getsockname()[1]
        server = DevServer(tmp_path / "temporal.db", port=free_port(), ui_port=ui_port)
        with pytest.raises(ServiceUnavailable) as refused:
            server.start(attempts=3)
    assert f"can't set UI port {ui_port}" in str(refused.value)
    assert server.process is None


def test_a_server_that_dies_starting_says_why_and_keeps_its_log(tmp_path: Path) -> None:
    """The real binary, given a database path it cannot open: the error names the cause, and
    what the server logged goes to its log file beside the database, not to a pipe."""
    db = tmp_path / "temporal.db"
    db.mkdir()  # a folder where the database file would be
    server = DevServer(db, port=free_port(), ui_port=free_port(), headless=True)
    with pytest.raises(ServiceUnavailable, match="unable to open database file"):
        server.start(timeout=60, attempts=2)
    assert server.log_file.exists()
    assert server.process is None
