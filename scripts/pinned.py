"""Run `python -m MODULE ARGS...` with the project's pinned environment.

    python scripts/pinned.py spacy train configs/ner.cfg --output training/ner

Training is seeded by the config (`[system] seed`), but floating-point
sums also depend on how many threads share a matrix product: on this
project's machine thinc's own products go through blis (one thread), while
numpy's go through OpenBLAS, which starts a thread per core. So the
project's commands that train or run a model go through this script, which
fixes one thread for every BLAS/OpenMP library numpy may load and the
string-hash seed, then runs the module in a child interpreter (the thread
variables are read when the libraries load, PYTHONHASHSEED when the
interpreter starts, so they must be set before either).

spaCy projects cannot set environment variables for a command (the `env`
block of project.yml only reads them), hence a script. What this pins makes
one machine repeat itself; another CPU, BLAS build or library version can
still give other figures (docs/project.md).
"""

import os
import subprocess
import sys

PINNED = {
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "BLIS_NUM_THREADS": "1",
    "VECLIB_MAXIMUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1",
    "PYTHONHASHSEED": "0",
}


def main(argv):
    if not argv or argv[0].startswith("-"):
        sys.exit("usage: python scripts/pinned.py MODULE [ARGS...]  (runs python -m MODULE ARGS with one thread)")
    try:
        return subprocess.call([sys.executable, "-m", *argv], env={**os.environ, **PINNED})
    except KeyboardInterrupt:  # the child got the same Ctrl-C and has stopped
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
