"""``python -m verifier`` runs the command line."""

from verifier.cli import main

if __name__ == "__main__":
    main()
