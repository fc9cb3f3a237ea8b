"""Runs the worker: every workflow and activity of the service on one task queue.

    python worker.py            # configuration from MEMORY_* environment variables (README)

The assembly lives in `governed_memory/shell/worker.py`, so that an installed `memctl` finds it too.
"""

from governed_memory.shell.worker import main

if __name__ == "__main__":
    main()
