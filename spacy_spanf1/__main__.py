"""`python -m spacy_spanf1`: the `spacy-spanf1` command line."""

from .cli import app

if __name__ == "__main__":
    app()
