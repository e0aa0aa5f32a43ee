"""`python -m rubricate`: the command line."""

from rubricate._cli import main

if __name__ == "__main__":
    main()
