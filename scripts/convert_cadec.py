"""Put a CADEC copy in the layout the brat reader reads: CADEC ships each
forum post's text as text/NAME.txt and its annotations as original/NAME.ann
(brat standoff, discontinuous mentions as `T1<TAB>ADR 10 16;24 28<TAB>...`);
the reader wants NAME.txt and NAME.ann side by side. Nothing is changed in
the files: they are copied into OUTPUT_DIR. Its license does not let the
corpus be redistributed, so this runs on the user's own copy.

    python scripts/convert_cadec.py CADEC.v2 cadec_brat
    spacy-spanf1 compare cadec_brat system_brat --schemes strict,partial --fragments keep \
        --view all,disc_docs,disc_mentions
"""

import shutil
from pathlib import Path
from typing import List

import typer


def convert_cadec(cadec_dir: Path, output_dir: Path, annotations: str = "original") -> List[str]:
    """Copy text/NAME.txt and ANNOTATIONS/NAME.ann of every post into
    output_dir; RETURNS the names copied. A post with only one of the two
    files is an error naming it."""
    texts = {path.stem: path for path in (cadec_dir / "text").glob("*.txt")}
    anns = {path.stem: path for path in (cadec_dir / annotations).glob("*.ann")}
    if not texts:
        raise SystemExit(f"no text/*.txt in {cadec_dir}: is it a CADEC copy (text/, original/)?")
    for name in sorted(set(texts) ^ set(anns)):
        have = "text" if name in texts else annotations
        raise SystemExit(f"{name} is in {have}/ only; every post needs text/{name}.txt and {annotations}/{name}.ann")
    output_dir.mkdir(parents=True, exist_ok=True)
    for name in sorted(texts):
        shutil.copyfile(texts[name], output_dir / f"{name}.txt")
        shutil.copyfile(anns[name], output_dir / f"{name}.ann")
    return sorted(texts)


def main(
    cadec_dir: Path = typer.Argument(..., help="The CADEC directory (text/, original/)", exists=True, file_okay=False),
    output_dir: Path = typer.Argument(..., help="Where to put NAME.txt + NAME.ann"),
    annotations: str = typer.Option("original", "--annotations", help="The folder of .ann files"),
) -> None:
    names = convert_cadec(cadec_dir, output_dir, annotations)
    print(f"{len(names)} posts in {output_dir}")


if __name__ == "__main__":
    typer.run(main)
