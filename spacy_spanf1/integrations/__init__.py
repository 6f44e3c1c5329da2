"""Where the package meets other libraries: `spacy` (the registered scorer
`spacy-spanf1.scorer.v1` and the Doc/Example adapter) and `hf` (a Hugging
Face `Trainer`'s `compute_metrics`). Nothing is imported here: spaCy is
loaded only by `integrations.spacy`, and `hf` needs numpy alone."""
