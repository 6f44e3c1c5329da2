"""The rules every page of the package shares, inline in its head: the
text, the tables, the marked spans (`spans.render_spans`), the bars and
interval whiskers of the compare report. A page adds its own after them
(`page.render_page(css=...)`)."""

CSS = """
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #222;
       margin: 2rem auto; max-width: 1400px; padding: 0 1rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2rem; } h3 { font-size: 1.05rem; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { padding: 0.25rem 0.7rem; text-align: right; border-bottom: 1px solid #e4e4e4; }
th:first-child, td:first-child, .text { text-align: left; }
.meta { color: #555; }
/* the signature and the file paths (in <code>) have no space to break at */
.meta, .note, ul.notes li { overflow-wrap: anywhere; }
.chart td.bar { width: 420px; text-align: left; }
.chart .bar-fill { background: #5b7fa8; height: 0.9rem; border-radius: 2px; }
.doc { border-top: 2px solid #ddd; margin-top: 1.5rem; padding-top: 0.5rem; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 2rem; }
.panel h4 { margin: 0.3rem 0; color: #555; font-weight: normal; text-transform: uppercase;
            font-size: 0.8rem; letter-spacing: 0.05em; }
.spans { font-size: 15px; line-height: 2.6; white-space: pre-wrap; }
.spans .mark { padding: 0.25em 0; }
.spans .mark.first { border-top-left-radius: 4px; border-bottom-left-radius: 4px; padding-left: 0.2em; margin-left: 2px; }
.spans .mark.last { border-top-right-radius: 4px; border-bottom-right-radius: 4px; padding-right: 0.2em; margin-right: 2px; }
.spans .label { font-size: 0.65em; font-weight: bold; text-transform: uppercase; border-radius: 3px;
                padding: 0.1em 0.3em; margin: 0 1px 0 2px; vertical-align: 0.15em; }
.spans .label::after { content: attr(data-label); }
.errors td { font-size: 0.9rem; }
.kind { font-family: monospace; }
.ci-bar { position: relative; width: 160px; height: 0.9rem; background: #eef1f5; border-radius: 2px; }
.ci-bar .range { position: absolute; top: 0.3rem; height: 0.3rem; background: #5b7fa8; border-radius: 2px; }
.ci-bar .tick { position: absolute; top: 0; width: 2px; height: 0.9rem; margin-left: -1px; background: #222; }
td.ci-text { font-variant-numeric: tabular-nums; white-space: nowrap; }
.breakdown td.bar { width: 360px; text-align: left; }
.breakdown .track { position: relative; height: 0.9rem; }
.breakdown .bd-fill { background: #7a9c6b; height: 0.9rem; border-radius: 2px; }
.breakdown .whisker { position: absolute; top: 0.35rem; height: 0.2rem; background: #222; }
.comparison td.sig { font-weight: bold; color: #1d6b2a; }
.note { color: #555; font-size: 0.9rem; }
ul.notes { list-style: none; padding-left: 0; } ul.notes li.warn { color: #8a5300; } ul.notes li.info { color: #555; }
"""
