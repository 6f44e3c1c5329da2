"""The engine: every scheme scored in one pass over span tables.

`scorer` (SpanScorer, evaluate_spans) buffers documents and scores them a
batch at a time on flat arrays (`batched`), or one by one (`matching`, the
per-document reference the batched path is held equal to), into counts
(`counts`, ratios in `metrics`) and outcomes (`outcomes`), which it hands
on as the result of each scheme (`result`: SchemeResult and the outcome
parts it keeps). Nothing is imported here, so that `import spacy_spanf1`
stays light.
"""
