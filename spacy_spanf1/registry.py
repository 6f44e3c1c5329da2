"""The package's registries, made with catalogue as spaCy makes its own.

`formats`: the input formats of `compare` (and of `compare_files`). An
entry is a `formats.base.Format`; another package adds one under the entry point
group `spacy_spanf1_formats`, with no change to this one:

    [project.entry-points.spacy_spanf1_formats]
    myformat = "my_package.formats:MY_FORMAT"
"""

import catalogue

formats = catalogue.create("spacy_spanf1", "formats", entry_points=True)
