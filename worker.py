"""Runs the worker: every workflow and activity of the service on one task queue.

    python worker.py            # configuration from MEMORY_* environment variables (README)

The assembly lives in `memory/worker.py`, so that an installed `memctl` finds it too.
"""

from shell.worker import main

if __name__ == "__main__":
    main()
