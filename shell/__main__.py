from shell.cli import main

main()
