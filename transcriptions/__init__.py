"""References that are not pip packages, transcribed once for the tests and
the benchmarks, which both import them from here (the benchmarks import
nothing from tests/, the tests nothing from benchmarks/).

A reference that is a pip package (nervaluate, seqeval, presidio-evaluator,
scipy...) is installed and run as it is; one published only as code (the
Feedback Prize metric of a Kaggle competition) is written here, once, as
its authors compute it; beside it, the tags the tag-reading references take
(IOB2), which both feed them. Not part of the package: the wheel ships
`spacy_spanf1` alone. pyproject.toml's pytest `pythonpath` puts the
checkout on sys.path for the tests; a benchmark puts it there itself.
"""
