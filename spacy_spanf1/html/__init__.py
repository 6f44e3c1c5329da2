"""HTML: the only place a page of the package is put together.

`page` writes the skeleton every page shares (doctype, head, the inline
CSS of `css`, title, heading, the signature), `tables` and `spans` the
cells and marked-up texts of the tables, `charts` the inline SVG charts,
and `compare` the page of `compare --html` and `evaluate --html`. The
agreement page (`agreements.page`) and the sweep page (`sweeps.page`)
build their content from the same widgets. Every page is self-contained:
inline CSS, every text escaped, no script.
"""
