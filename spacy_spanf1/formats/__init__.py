"""Readers for the four input formats of `spacy-spanf1 compare`, and the
pairing of gold and predicted documents.

Formats (the unit is what the span offsets count):

- `spacy`: a `.spacy` DocBin. Spans come from `Doc.ents`, or from
  `Doc.spans[spans_key]`; gold and predicted docs go through
  `docs.example_spans`, so tokenization may differ between the two files
  (spaCy's alignment), missing annotation follows spaCy's scorers, and the
  unit is `token` (default) or `char`.
- `jsonl`: one JSON object a line, `{"text": ..., "spans": [{"start", "end",
  "label"}]}` with character offsets (spaCy/Prodigy span annotation). Scored
  in `char` unit: no tokenizer is involved, so a span that does not fall on
  token boundaries is scored as it is written. With unit `token`, each
  record also holds "tokens" (strings, or Prodigy's {"text", "start", "end"}
  dicts) and "start"/"end" are token offsets, end exclusive (the GUM files'
  layout). A gold line without "spans" has no annotation and is skipped
  (counted); a predicted line without "spans" predicts nothing.
- `conll`: CoNLL/BIO columns, one token a line (token column, tag column),
  a blank line between sentences, `-DOCSTART-` lines skipped. Each sentence
  is a document; tags are decoded by `tags.spans_from_tags` (mode and scheme
  as for `evaluate_tags`). Unit: `token`.
- `kaggle`: Feedback Prize CSV with the columns `id`, `class` (or the
  training file's `discourse_type`) and `predictionstring` (the word indices
  of one span). A document is an id; the gold file fixes the documents and
  their order; rows may come in any order. Unit: `token` (word indices).

Every problem with the input raises `InputError`, whose text names the file,
the line (where there is one) and the problem; bad options raise
`UsageError`.
"""
import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union

from ..spans import Span, is_int
from ..tags import TAG_MODES, TAG_SCHEMES, spans_from_tags

#: Every input format, in the order the help lists them.
FORMATS: Tuple[str, ...] = ("spacy", "jsonl", "conll", "kaggle")
#: File extension -> format, for `--format` left out.
EXTENSIONS: Dict[str, str] = {
    ".spacy": "spacy",
    ".jsonl": "jsonl",
    ".conll": "conll",
    ".iob": "conll",
    ".bio": "conll",
    ".txt": "conll",
    ".csv": "kaggle",
}
#: The units each format can be scored in; the first is the default.
FORMAT_UNITS: Dict[str, Tuple[str, ...]] = {
    "spacy": ("token", "char"),
    "jsonl": ("char", "token"),
    "conll": ("token",),
    "kaggle": ("token",),
}
KAGGLE_CLASS_COLUMNS: Tuple[str, ...] = ("class", "discourse_type")

PathLike = Union[str, Path]


class InputError(ValueError):
    """Bad input data. str() gives one line: `path:line: problem`."""

    def __init__(self, message: str, path: Optional[PathLike] = None, line: Optional[int] = None):
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.path is None:
            return self.message
        if self.line is None:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}: {self.message}"


class UsageError(ValueError):
    """A bad option or argument (the command line exits with status 2).

    param (Optional[str]): The option at fault, e.g. "--format".
    """

    def __init__(self, message: str, param: Optional[str] = None):
        self.message = message
        self.param = param
        super().__init__(message if param is None else f"{param}: {message}")


@dataclass
class Document:
    """One document of one file, as read.

    name (str): How messages name it, e.g. "line 3", "sentence 2", "id 'A1'".
    line (Optional[int]): The line where it starts (None for DocBins).
    spans (Optional[List[Span]]): Sorted, identical spans once; None when the
        document has no annotation.
    text (str): Its text (for conll and kaggle, made from its words).
    words (Optional[List[str]]): Its tokens, in token unit.
    offsets (Optional[List[Tuple[int, int]]]): Each token's characters in text.
    """

    name: str
    line: Optional[int]
    spans: Optional[List[Span]]
    text: str = ""
    words: Optional[List[str]] = None
    offsets: Optional[List[Tuple[int, int]]] = None


@dataclass
class DocPair:
    """Gold and predicted spans of one scored document.

    index (int): Position in the corpus, skipped documents included.
    name (str): How messages and reports name the document.
    gold, pred (List[Span]): Sorted span lists in the corpus unit.
    text (str): The (gold) text, for reports.
    offsets (Optional[List[Tuple[int, int]]]): Character (start, end) of each
        token in token unit; None in char unit.
    """

    index: int
    name: str
    gold: List[Span]
    pred: List[Span]
    text: str
    offsets: Optional[List[Tuple[int, int]]] = None

    def span_text(self, span: Span) -> str:
        """The text a span covers."""
        if self.offsets is None:
            return self.text[span.start : span.end]
        if span.end > len(self.offsets):
            return ""
        return self.text[self.offsets[span.start][0] : self.offsets[span.end - 1][1]]


@dataclass
class Corpus:
    """Paired documents, ready to score.

    pairs (List[DocPair]): The documents that are scored, in order.
    n_docs (int): All documents, skipped ones included.
    skipped (List[str]): Names of the documents skipped for want of gold
        annotation.
    unit (str): "token" or "char".
    sources (Tuple[str, str]): What the gold and the predicted side came from.
    """

    pairs: List[DocPair]
    n_docs: int
    skipped: List[str] = field(default_factory=list)
    unit: str = "token"
    sources: Tuple[str, str] = ("gold", "predicted")

    @property
    def labels(self) -> Set[str]:
        """Every label found in gold or prediction."""
        return {s.label for p in self.pairs for s in p.gold} | {
            s.label for p in self.pairs for s in p.pred
        }


# --------------------------------------------------------------------------
# Files and formats
# --------------------------------------------------------------------------


def check_file(path: PathLike) -> Path:
    """The path, if it names an existing file."""
    path = Path(path)
    if not path.exists():
        raise InputError("file not found", path)
    if not path.is_file():
        raise InputError("not a file (a directory?)", path)
    return path


def infer_format(path: PathLike, fmt: Optional[str] = None) -> str:
    """The format named, or the one the file extension implies."""
    if fmt is not None:
        if fmt not in FORMATS:
            raise UsageError(
                f"Unknown format {fmt!r}. Valid formats: {', '.join(FORMATS)}", "--format"
            )
        return fmt
    suffix = Path(path).suffix.lower()
    if suffix not in EXTENSIONS:
        known = ", ".join(f"{ext} ({name})" for ext, name in EXTENSIONS.items())
        raise UsageError(
            f"Can't tell the format of '{path}' from its extension {suffix or '(none)'!r}. "
            f"Pass --format ({', '.join(FORMATS)}); known extensions: {known}"
        )
    return EXTENSIONS[suffix]


def read_text(path: PathLike) -> str:
    """A UTF-8 text file (a leading byte-order mark is dropped)."""
    path = check_file(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise InputError(f"can't read the file: {err.strerror or err}", path) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise InputError(
            f"not UTF-8 text (byte {data[err.start]:#04x}); is this the right file and format?",
            path,
            line,
        ) from None


def _lines(text: str) -> List[str]:
    # Split on "\n" only: JSON strings may hold U+2028 and friends.
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


# --------------------------------------------------------------------------
# JSONL
# --------------------------------------------------------------------------


def read_jsonl(path: PathLike, unit: str = "char") -> List[Document]:
    """Documents of a JSONL file: {"text", "spans": [{"start", "end",
    "label"}]} a line, character offsets with an exclusive end; with unit
    "token", token offsets into the record's "tokens". Blank lines are not
    records. Raises InputError naming the line of any problem."""
    text = read_text(path)
    docs = []
    for lineno, line in enumerate(_lines(text), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise InputError(f"invalid JSON ({err.msg}, column {err.colno})", path, lineno) from None
        if not isinstance(record, dict):
            raise InputError(
                f'expected a JSON object {{"text": ..., "spans": [...]}}, got {type(record).__name__}',
                path,
                lineno,
            )
        doc_text = record.get("text")
        if not isinstance(doc_text, str):
            problem = "no" if "text" not in record else f"a non-string ({type(doc_text).__name__})"
            raise InputError(f'the record has {problem} "text"', path, lineno)
        words = offsets = None
        if unit == "token":
            words, offsets = _json_tokens(record, doc_text, path, lineno)
        limit = len(doc_text) if words is None else len(words)
        spans = None
        if "spans" in record:
            items = record["spans"]
            if not isinstance(items, list):
                raise InputError(f'"spans" is a {type(items).__name__}, not a list', path, lineno)
            spans = sorted({_json_span(item, i, limit, unit, path, lineno) for i, item in enumerate(items)})
        docs.append(Document(f"line {lineno}", lineno, spans, doc_text, words, offsets))
    return docs


def _json_tokens(record: Dict[str, Any], text: str, path: PathLike, lineno: int):
    """Token strings and their character offsets in text, from "tokens":
    strings (found in the text in order) or {"text", "start", "end"} dicts."""
    tokens = record.get("tokens")
    if not isinstance(tokens, list):
        raise InputError('unit token needs a "tokens" list in every record (token offsets)', path, lineno)
    words, offsets, pos = [], [], 0
    for k, token in enumerate(tokens):
        if isinstance(token, dict) and isinstance(token.get("text"), str):
            word = token["text"]
            start, end = token.get("start"), token.get("end")
            if not (is_int(start) and is_int(end) and text[start:end] == word):
                start = text.find(word, pos)
                end = start + len(word)
        elif isinstance(token, str):
            word = token
            start = text.find(word, pos)
            end = start + len(word)
        else:
            raise InputError(f"token {k} is {token!r}, not a string or a {{\"text\", ...}} object", path, lineno)
        if start < 0:
            raise InputError(f"token {k} ({word!r}) is not in the text after character {pos}", path, lineno)
        words.append(word)
        offsets.append((start, end))
        pos = end
    return words, offsets


def _json_span(item: Any, i: int, limit: int, unit: str, path: PathLike, lineno: int) -> Span:
    where = f"span {i}"
    if not isinstance(item, dict):
        raise InputError(f'{where} is {item!r}, not an object {{"start", "end", "label"}}', path, lineno)
    missing = [key for key in ("start", "end", "label") if key not in item]
    if missing:
        raise InputError(f"{where} lacks {', '.join(repr(k) for k in missing)}: {item!r}", path, lineno)
    start, end, label = item["start"], item["end"], item["label"]
    if not (is_int(start) and is_int(end)):
        raise InputError(
            f"{where} has non-integer offsets start={start!r}, end={end!r}", path, lineno
        )
    if not 0 <= start < end <= limit:
        size = "the text length" if unit == "char" else "the number of tokens"
        raise InputError(
            f"{where} has start={start}, end={end}; {'character' if unit == 'char' else 'token'} "
            f"offsets need 0 <= start < end <= {limit} ({size})",
            path,
            lineno,
        )
    if not isinstance(label, str) or not label:
        raise InputError(f"{where} has the label {label!r}; labels are non-empty strings", path, lineno)
    return Span(start, end, label)


# --------------------------------------------------------------------------
# CoNLL
# --------------------------------------------------------------------------


def check_tag_options(mode: str, scheme: Optional[str]) -> None:
    """Raises UsageError unless mode and scheme suit `spans_from_tags`."""
    if mode not in TAG_MODES:
        raise UsageError(f"Unknown tag mode {mode!r}. Valid modes: {', '.join(TAG_MODES)}", "--tag-mode")
    if mode == "strict" and scheme is None:
        raise UsageError(
            f"--tag-mode strict needs --tag-scheme, one of: {', '.join(TAG_SCHEMES)}", "--tag-scheme"
        )
    if scheme is not None and scheme not in TAG_SCHEMES:
        raise UsageError(
            f"Unknown tag scheme {scheme!r}. Valid schemes: {', '.join(TAG_SCHEMES)}", "--tag-scheme"
        )
    if scheme is not None and mode != "strict":
        raise UsageError(
            f"--tag-scheme {scheme} is only used with --tag-mode strict, not {mode}", "--tag-scheme"
        )


def read_conll(
    path: PathLike,
    *,
    token_column: int = 0,
    tag_column: int = -1,
    tag_mode: str = "conll",
    tag_scheme: Optional[str] = None,
) -> List[Document]:
    """Sentences of a CoNLL/BIO file, one document each.

    token_column, tag_column (int): 0-based column indices; a negative one
        counts from the end (-1: the last column). Columns are separated by
        whitespace (tabs or spaces).
    tag_mode, tag_scheme: as for `tags.spans_from_tags`.
    """
    check_tag_options(tag_mode, tag_scheme)
    text = read_text(path)
    docs: List[Document] = []
    words: List[str] = []
    tags: List[str] = []
    lines: List[int] = []

    def close() -> None:
        if words:
            docs.append(_conll_doc(len(docs), list(words), list(tags), list(lines), path, tag_mode, tag_scheme))
            words.clear()
            tags.clear()
            lines.clear()

    for lineno, line in enumerate(_lines(text), 1):
        cols = line.split()
        if not cols or cols[0] == "-DOCSTART-":
            close()
            continue
        if len(cols) < 2:
            raise InputError(
                f"expected a token and a tag column, found one column {line.strip()!r}", path, lineno
            )
        try:
            tag = cols[tag_column]
            word = cols[token_column]
        except IndexError:
            raise InputError(
                f"the line has {len(cols)} columns; there is no tag column {tag_column} "
                f"or token column {token_column} (0-based, negative from the end)",
                path,
                lineno,
            ) from None
        words.append(word)
        tags.append(tag)
        lines.append(lineno)
    close()
    return docs


def _conll_doc(
    index: int,
    words: List[str],
    tags: List[str],
    lines: List[int],
    path: PathLike,
    mode: str,
    scheme: Optional[str],
) -> Document:
    try:
        found = spans_from_tags(tags, mode=mode, scheme=scheme)
    except ValueError:
        # Find the tag at fault, to name its line.
        for tag, lineno in zip(tags, lines):
            try:
                spans_from_tags([tag], mode=mode, scheme=scheme)
            except ValueError as err:
                problem = str(err).replace(" at tags[0]", "")
                raise InputError(problem, path, lineno) from None
        raise
    spans = sorted({Span(start, end, label) for start, end, label in found})
    return Document(f"sentence {index + 1}", lines[0], spans, " ".join(words), words)


# --------------------------------------------------------------------------
# Kaggle Feedback Prize CSV
# --------------------------------------------------------------------------


def read_kaggle(path: PathLike) -> Dict[str, Document]:
    """Documents of a Feedback Prize CSV (id, class, predictionstring), by
    id in order of first appearance. Each row is one span: the word indices
    of its predictionstring must form one contiguous run."""
    text = read_text(path)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise InputError("empty file; expected a header line id,class,predictionstring", path) from None
    except csv.Error as err:
        raise InputError(f"not a readable CSV file ({err})", path, 1) from None
    names = [name.strip().lower() for name in header]
    id_col = _column(names, ("id",), path)
    class_col = _column(names, KAGGLE_CLASS_COLUMNS, path)
    ps_col = _column(names, ("predictionstring",), path)
    docs: Dict[str, Document] = {}
    spans: Dict[str, set] = {}
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as err:
            raise InputError(f"malformed CSV row ({err})", path, reader.line_num) from None
        lineno = reader.line_num
        if not row or (len(row) == 1 and not row[0].strip()):
            continue
        if len(row) != len(names):
            raise InputError(
                f"the row has {len(row)} fields, the header has {len(names)} ({', '.join(header)})",
                path,
                lineno,
            )
        doc_id = row[id_col].strip()
        label = row[class_col].strip()
        if not doc_id:
            raise InputError("empty id", path, lineno)
        if not label:
            raise InputError(f"empty {names[class_col]}", path, lineno)
        span = Span(*_word_run(row[ps_col], path, lineno), label)
        if doc_id not in docs:
            docs[doc_id] = Document(f"id {doc_id!r}", lineno, [])
            spans[doc_id] = set()
        spans[doc_id].add(span)
    for doc_id, doc in docs.items():
        doc.spans = sorted(spans[doc_id])
    return docs


def _column(names: List[str], wanted: Sequence[str], path: PathLike) -> int:
    for name in wanted:
        if name in names:
            return names.index(name)
    raise InputError(
        f"the header has no column {' or '.join(repr(w) for w in wanted)} "
        f"(found: {', '.join(names)}); expected id,class,predictionstring",
        path,
        1,
    )


def _word_run(value: str, path: PathLike, lineno: int) -> Tuple[int, int]:
    parts = value.split()
    if not parts:
        raise InputError("empty predictionstring", path, lineno)
    try:
        indices = sorted({int(part) for part in parts})
    except ValueError:
        bad = next(p for p in parts if not p.lstrip("-").isdigit())
        raise InputError(f"predictionstring holds {bad!r}, not a word index", path, lineno) from None
    if indices[0] < 0:
        raise InputError(f"predictionstring holds the negative word index {indices[0]}", path, lineno)
    if indices[-1] - indices[0] + 1 != len(indices):
        gaps = [i for i in range(indices[0], indices[-1]) if i not in set(indices)]
        raise InputError(
            f"predictionstring {_abbrev(value)!r} is not one contiguous run of word indices "
            f"(missing {gaps[0]}); each row must be one span",
            path,
            lineno,
        )
    return indices[0], indices[-1] + 1


def _abbrev(value: str, n: int = 40) -> str:
    value = " ".join(value.split())
    return value if len(value) <= n else value[: n - 1] + "…"


# --------------------------------------------------------------------------
# spaCy DocBin
# --------------------------------------------------------------------------


def read_docbin(path: PathLike, vocab) -> list:
    """The docs of a .spacy DocBin."""
    from spacy.tokens import DocBin

    path = check_file(path)
    try:
        docs = list(DocBin().from_disk(path).get_docs(vocab))
    except Exception as err:  # any failure here means the file is not a DocBin
        reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise InputError(f"can't read it as a spaCy DocBin (.spacy): {reason}", path) from None
    return docs


def pairs_from_examples(
    examples: Iterable[Any],
    *,
    spans_key: Optional[str] = None,
    unit: str = "token",
    sources: Tuple[str, str] = ("gold", "predicted"),
) -> Corpus:
    """Pair the spans of spaCy Examples with `docs.example_spans`; a
    reference doc without annotation is skipped (and named in `skipped`)."""
    from ..docs import example_spans

    pairs: List[DocPair] = []
    skipped: List[str] = []
    n_docs = 0
    for index, example in enumerate(examples):
        n_docs += 1
        name = f"doc {index}"
        found = example_spans(example, spans_key, unit)
        if found is None:
            skipped.append(name)
            continue
        gold, pred = found
        ref = example.reference
        offsets = None if unit == "char" else [(t.idx, t.idx + len(t.text)) for t in ref]
        pairs.append(DocPair(index, name, list(gold), list(pred), ref.text, offsets))
    return Corpus(pairs, n_docs, skipped, unit, sources)


# --------------------------------------------------------------------------
# Pairing two files
# --------------------------------------------------------------------------


def _first_difference(a: str, b: str) -> int:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def _excerpt(text: str, i: int, width: int = 24) -> str:
    start = max(0, i - width // 2)
    piece = text[start : start + width]
    return ("…" if start > 0 else "") + piece + ("…" if start + width < len(text) else "")


def _text_mismatch(gold_path, pred_path, gold_where, pred_where, gold_text, pred_text, line) -> InputError:
    i = _first_difference(gold_text, pred_text)
    return InputError(
        f"the text of {pred_where} differs from {gold_where} of {gold_path} at character {i}: "
        f"gold {_excerpt(gold_text, i)!r}, predicted {_excerpt(pred_text, i)!r}",
        pred_path,
        line,
    )


def _check_counts(gold_path, pred_path, n_gold: int, n_pred: int, what: str) -> None:
    if n_gold != n_pred:
        raise InputError(
            f"unequal numbers of {what}: {n_gold} in {gold_path}, {n_pred} in {pred_path}; "
            "gold and prediction must describe the same documents in the same order",
            pred_path,
        )


def _token_offsets(words: Sequence[str]) -> List[Tuple[int, int]]:
    offsets = []
    pos = 0
    for word in words:
        offsets.append((pos, pos + len(word)))
        pos += len(word) + 1
    return offsets


def load_corpus(
    gold_path: PathLike,
    pred_path: PathLike,
    fmt: Optional[str] = None,
    *,
    spans_key: Optional[str] = None,
    unit: Optional[str] = None,
    tag_column: Optional[int] = None,
    tag_mode: Optional[str] = None,
    tag_scheme: Optional[str] = None,
) -> Corpus:
    """Read a gold and a predicted file of the same documents and pair them.

    fmt (Optional[str]): spacy, jsonl, conll or kaggle; None: from the file
        extensions, which must then agree.
    spans_key (Optional[str]): spacy only: score `Doc.spans[key]`, not ents.
    unit (Optional[str]): "token" or "char"; only `spacy` offers a choice
        (jsonl is char, conll and kaggle are token); None: the format's unit.
    tag_column, tag_mode, tag_scheme: conll only (defaults -1, "conll", None).

    Raises InputError when a file is missing or unreadable, when the files
    hold different numbers of documents, or when a document's text or tokens
    differ between them (naming the document and the first difference);
    UsageError for options that do not fit the format.
    """
    gold_fmt = infer_format(gold_path, fmt)
    pred_fmt = infer_format(pred_path, fmt)
    if gold_fmt != pred_fmt:
        raise UsageError(
            f"'{gold_path}' looks like {gold_fmt} and '{pred_path}' like {pred_fmt}; "
            "both files must be in one format (or pass --format)",
            "--format",
        )
    fmt = gold_fmt
    units = FORMAT_UNITS[fmt]
    if unit is not None and unit not in ("token", "char"):
        raise UsageError(f"Unknown unit {unit!r}. Valid units: token, char", "--unit")
    if unit is not None and unit not in units:
        raise UsageError(f"{fmt} input is scored in {units[0]} unit; --unit {unit} does not apply", "--unit")
    unit = unit or units[0]
    if spans_key is not None and fmt != "spacy":
        raise UsageError(f"--spans-key applies to spacy DocBins, not {fmt} files", "--spans-key")
    conll_opts = {"--tag-column": tag_column, "--tag-mode": tag_mode, "--tag-scheme": tag_scheme}
    if fmt != "conll":
        for name, value in conll_opts.items():
            if value is not None:
                raise UsageError(f"{name} applies to conll files, not {fmt} files", name)
    check_file(gold_path)
    check_file(pred_path)
    sources = (str(gold_path), str(pred_path))
    if fmt == "spacy":
        return _pair_spacy(gold_path, pred_path, spans_key, unit, sources)
    if fmt == "jsonl":
        return _pair_jsonl(gold_path, pred_path, unit, sources)
    if fmt == "conll":
        opts = dict(
            tag_column=-1 if tag_column is None else tag_column,
            tag_mode=tag_mode or "conll",
            tag_scheme=tag_scheme,
        )
        check_tag_options(opts["tag_mode"], tag_scheme)
        return _pair_conll(read_conll(gold_path, **opts), read_conll(pred_path, **opts), gold_path, pred_path, sources)
    return _pair_kaggle(gold_path, pred_path, sources)


def _pair_spacy(gold_path, pred_path, spans_key, unit, sources) -> Corpus:
    from spacy.training import Example
    from spacy.vocab import Vocab

    vocab = Vocab()
    gold_docs = read_docbin(gold_path, vocab)
    pred_docs = read_docbin(pred_path, vocab)
    _check_counts(gold_path, pred_path, len(gold_docs), len(pred_docs), "documents")
    for i, (gold, pred) in enumerate(zip(gold_docs, pred_docs)):
        if gold.text != pred.text:
            raise _text_mismatch(gold_path, pred_path, f"doc {i}", f"doc {i}", gold.text, pred.text, None)
    examples = (Example(pred, gold) for gold, pred in zip(gold_docs, pred_docs))
    return pairs_from_examples(examples, spans_key=spans_key, unit=unit, sources=sources)


def _pair_jsonl(gold_path, pred_path, unit, sources) -> Corpus:
    gold_docs = read_jsonl(gold_path, unit)
    pred_docs = read_jsonl(pred_path, unit)
    _check_counts(gold_path, pred_path, len(gold_docs), len(pred_docs), "documents (JSONL records)")
    pairs, skipped = [], []
    for i, (gold, pred) in enumerate(zip(gold_docs, pred_docs)):
        if gold.text != pred.text:
            raise _text_mismatch(
                gold_path, pred_path, f"line {gold.line}", f"record {i + 1}", gold.text, pred.text, pred.line
            )
        if gold.offsets != pred.offsets:
            j = next(k for k, (a, b) in enumerate(zip(gold.offsets + [None], pred.offsets + [None])) if a != b)
            raise InputError(
                f"the tokens of record {i + 1} differ from line {gold.line} of {gold_path} at token {j}: "
                f"gold {_token_at(gold, j)}, predicted {_token_at(pred, j)}",
                pred_path,
                pred.line,
            )
        if gold.spans is None:
            skipped.append(gold.name)
            continue
        pairs.append(DocPair(i, gold.name, gold.spans, pred.spans or [], gold.text, gold.offsets))
    return Corpus(pairs, len(gold_docs), skipped, unit, sources)


def _token_at(doc: Document, j: int) -> str:
    if j >= len(doc.offsets):
        return "the end of the tokens"
    start, end = doc.offsets[j]
    return f"{doc.words[j]!r} at characters {start}-{end}"


def _pair_conll(gold_docs, pred_docs, gold_path, pred_path, sources) -> Corpus:
    _check_counts(gold_path, pred_path, len(gold_docs), len(pred_docs), "sentences")
    pairs = []
    for i, (gold, pred) in enumerate(zip(gold_docs, pred_docs)):
        if gold.words != pred.words:
            j = next(
                (k for k, (a, b) in enumerate(zip(gold.words, pred.words)) if a != b),
                min(len(gold.words), len(pred.words)),
            )
            g = repr(gold.words[j]) if j < len(gold.words) else "the end of the sentence"
            p = repr(pred.words[j]) if j < len(pred.words) else "the end of the sentence"
            raise InputError(
                f"sentence {i + 1} differs from {gold_path} (sentence starting at line {gold.line}) "
                f"at token {j}: gold has {g}, predicted has {p}",
                pred_path,
                (pred.line + j) if j < len(pred.words) else pred.line,
            )
        pairs.append(DocPair(i, f"{gold.name} (line {gold.line})", gold.spans, pred.spans, gold.text, _token_offsets(gold.words)))
    return Corpus(pairs, len(gold_docs), [], "token", sources)


def _pair_kaggle(gold_path, pred_path, sources) -> Corpus:
    gold_docs = read_kaggle(gold_path)
    pred_docs = read_kaggle(pred_path)
    for doc_id, pred in pred_docs.items():
        if doc_id not in gold_docs:
            raise InputError(
                f"id {doc_id!r} is not in {gold_path}; every predicted id must be a gold document",
                pred_path,
                pred.line,
            )
    pairs = []
    for i, (doc_id, gold) in enumerate(gold_docs.items()):
        pred = pred_docs.get(doc_id)
        pred_spans = pred.spans if pred is not None else []
        n_words = max(s.end for s in (gold.spans or []) + (pred_spans or []))
        words = [str(k) for k in range(n_words)]
        pairs.append(DocPair(i, gold.name, gold.spans, pred_spans, " ".join(words), _token_offsets(words)))
    return Corpus(pairs, len(gold_docs), [], "token", sources)
