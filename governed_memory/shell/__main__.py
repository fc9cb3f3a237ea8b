from governed_memory.shell.memctl import main

main()
