from memory.cli import main

main()
