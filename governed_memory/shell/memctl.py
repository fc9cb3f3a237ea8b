"""`memctl`'s entry point: the CLI needs the service (`governed-memory[service]`), which a base
install (the URL client alone) lacks; say so in a line, not in an ImportError."""

from __future__ import annotations

import sys


def main() -> None:
    from governed_memory.memory.extras import missing

    lacking = missing("service")
    if lacking:
        print(
            "memctl needs the service: pip install 'governed-memory[service]'"
            f" (missing: {', '.join(lacking)})",
            file=sys.stderr,
        )
        raise SystemExit(2)
    from governed_memory.shell.cli import main as run

    run()
