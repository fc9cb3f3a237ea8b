from governed_memory.shell.cli import main

main()
