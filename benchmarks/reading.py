"""The command line against the readers: ``evalkit report FILE`` on big prediction files.

    python benchmarks/reading.py                 # 5,000,000 rows per file; Markdown on stdout
    python benchmarks/reading.py --rows 500000   # a smoke run

For each file kind, one run times, on the same file:

- ``evalkit report FILE ...`` as a user runs it (a new process: start-up, reading, counting,
  the report), with its peak resident memory; with pyarrow installed (its CSV and JSON
  readers take the plain blocks), and with numpy's reader alone (pyarrow's turned off);
- what a user would write instead: a script that reads the file with pandas (``read_csv``,
  ``read_json(lines=True)``, ``read_parquet``) and evaluates the columns with evalkit's Python
  API (the same matrix, curve or areas), also a new process;
- the floor of evalkit's runtime dependencies, numpy's C reader (``np.loadtxt`` in chunks of
  1,000,000 rows, each column with its type; for JSON Lines the standard library's
  ``json.loads`` of 1,000,000 lines at a time), and pandas' and pyarrow's readers alone, which
  only read (in this process), for orientation.

Every process runs with numpy's huge pages off (``timing.without_huge_pages``). Target: evalkit
within 1.5x the pandas script, and under 300 MB peak resident memory. The
score files are also run with the per-class areas (``--measures ...,roc_auc,ap``): their exact
curves hold every distinct score of every class; with ``--thresholds 1000`` binned ones hold
1,000.
"""

from __future__ import annotations

import argparse
import functools
import json
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
from timing import interleaved, without_huge_pages

CHUNK = 1_000_000
NAMES = np.array(["cat", "dog", "bird", "fish", "horse", "cow", "sheep", "goat", "pig", "duck"])


def _seconds(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def _commands(contenders: list[list[str]], runs: int = 3) -> list[tuple[float, float]]:
    """Best wall time and peak resident memory (MB) of each command line in a new process, run in
    interleaved rounds (a busy moment of the machine slows every contender alike; the first round
    also brings the file and the libraries into the page cache)."""
    return interleaved([functools.partial(_one_command, arguments) for arguments in contenders], [runs] * len(contenders))


def _one_command(arguments: list[str]) -> tuple[float, float]:
    probe = ("import resource, subprocess, sys, time; s = time.perf_counter(); "
             "subprocess.run([sys.executable, *sys.argv[1:]], check=True, stdout=subprocess.DEVNULL); "
             "print(time.perf_counter() - s, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", probe, *arguments], capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), int(out[1]) / 1024


NUMPY_READER = "import sys, evalkit.io._readers as r; r.ARROW_READERS = False; from evalkit.cli import main; sys.exit(main(sys.argv[1:]))"
"""``evalkit`` with pyarrow's readers turned off: numpy's and Python's readers alone."""


def _script(path: Path, options: list[str]) -> str:
    """What a user writes instead of ``evalkit report``: pandas reads, evalkit evaluates."""
    reader = {".jsonl": "pd.read_json(path, lines=True)", ".parquet": "pd.read_parquet(path)",
              ".tsv": "pd.read_csv(path, sep='\\t')"}.get(path.suffix, "pd.read_csv(path)")  # fmt: skip
    lines = ["import sys, numpy as np, pandas as pd, evalkit", f"path = {str(path)!r}", f"df = {reader}", "y = df['actual'].to_numpy()"]
    thresholds = options[options.index("--thresholds") + 1] if "--thresholds" in options else "None"
    areas = "roc_auc" in " ".join(options)
    if "--scores" in options:
        lines += ["columns = [c for c in df.columns if c.startswith('p_')]", "scores = df[columns].to_numpy()",
                  "labels = [c[2:] for c in columns]", "predicted = np.array(labels)[scores.argmax(axis=1)]"]  # fmt: skip
        if areas:
            lines += [f"curve = evalkit.ThresholdCurve.from_scores(y, scores, labels, thresholds={thresholds})",
                      "print(curve.roc_auc(), curve.average_precision())"]  # fmt: skip
    elif "--score" in options:
        lines += ["scores = df['score'].to_numpy()", "predicted = (scores >= 0.5).astype(y.dtype)"]
        if areas:
            lines += [f"curve = evalkit.ThresholdCurve.from_scores(y, scores, thresholds={thresholds})", "print(curve.roc_auc(), curve.average_precision())"]
    else:
        lines += ["predicted = df['predicted'].to_numpy()"]
    weight = "df['weight'].to_numpy()" if "--weight" in options else "None"
    lines += [f"print(evalkit.ConfusionMatrix.from_predictions(y, predicted, sample_weight={weight}).report())"]
    return "\n".join(lines)


def _loadtxt(path: Path, dtype: object, delimiter: str = ",") -> None:
    with open(path, encoding="utf-8") as handle, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the last chunk is empty
        handle.readline()
        while np.loadtxt(handle, delimiter=delimiter, max_rows=CHUNK, dtype=dtype).size:
            pass


def _json_floor(path: Path) -> None:
    with open(path, encoding="utf-8") as handle:
        while lines := handle.readlines(CHUNK * 40):
            json.loads("[" + ",".join(lines) + "]")


def _files(folder: Path, rows: int) -> list[tuple[str, Path, list[str], Callable[[], object], dict[str, Callable[[], object]]]]:
    import pandas as pd
    import pyarrow.csv
    import pyarrow.json
    import pyarrow.parquet

    rng = np.random.default_rng(0)
    actual = rng.integers(0, 10, rows)
    predicted = np.where(rng.random(rows) < 0.7, actual, rng.integers(0, 10, rows))
    binary = rng.integers(0, 2, rows)
    score = np.clip(rng.normal(0.3 + 0.4 * binary, 0.2), 0, 1).round(6)
    probabilities = rng.dirichlet(np.ones(4), rows).round(6)
    frames = {
        "integer labels (CSV)": pd.DataFrame({"actual": actual, "predicted": predicted}),
        "string labels (CSV)": pd.DataFrame({"actual": NAMES[actual], "predicted": NAMES[predicted]}),
        "string labels (TSV)": pd.DataFrame({"actual": NAMES[actual], "predicted": NAMES[predicted]}),
        "integer labels, --weight (CSV)": pd.DataFrame({"actual": actual, "predicted": predicted, "weight": rng.integers(1, 5, rows)}),
        "a score column, --score (CSV)": pd.DataFrame({"actual": binary, "score": score}),
        "4 score columns, --scores (CSV)": pd.DataFrame({"actual": np.array(list("abcd"))[rng.integers(0, 4, rows)],
                                                         **{f"p_{c}": probabilities[:, k] for k, c in enumerate("abcd")}}),
        "string labels (JSON Lines)": pd.DataFrame({"actual": NAMES[actual], "predicted": NAMES[predicted]}),
        "string labels (Parquet)": pd.DataFrame({"actual": NAMES[actual], "predicted": NAMES[predicted]}),
    }
    options = {"integer labels, --weight (CSV)": ["--weight", "weight"], "a score column, --score (CSV)": ["--score", "score"],
               "4 score columns, --scores (CSV)": ["--scores", "p_*"]}  # fmt: skip
    cases = []
    for name, frame in frames.items():
        kind = name.rsplit("(", 1)[1].rstrip(")")
        path = folder / f"{len(cases)}.{ {'CSV': 'csv', 'TSV': 'tsv', 'JSON Lines': 'jsonl', 'Parquet': 'parquet'}[kind]}"
        if kind == "JSON Lines":
            frame.to_json(path, orient="records", lines=True)
            floor: Callable[[], object] = lambda path=path: _json_floor(path)
            peers = {"pandas.read_json(lines=True)": lambda path=path: pd.read_json(path, lines=True),
                     "pyarrow.json.read_json": lambda path=path: pyarrow.json.read_json(path)}  # fmt: skip
        elif kind == "Parquet":
            frame.to_parquet(path)
            floor = lambda path=path: pyarrow.parquet.read_table(path)
            peers = {"pandas.read_parquet": lambda path=path: pd.read_parquet(path)}
        else:
            delimiter = "\t" if kind == "TSV" else ","
            frame.to_csv(path, index=False, sep=delimiter)
            dtype = [(column, frame[column].to_numpy().dtype if pd.api.types.is_numeric_dtype(frame[column]) else "U8") for column in frame.columns]
            floor = lambda path=path, dtype=dtype, delimiter=delimiter: _loadtxt(path, dtype, delimiter)
            peers = {"pandas.read_csv": lambda path=path, delimiter=delimiter: pd.read_csv(path, sep=delimiter),
                     "pyarrow.csv.read_csv": lambda path=path, delimiter=delimiter: pyarrow.csv.read_csv(
                         path, parse_options=pyarrow.csv.ParseOptions(delimiter=delimiter))}  # fmt: skip
        cases.append((name, path, options.get(name, []), floor, peers))
        if name in ("a score column, --score (CSV)", "4 score columns, --scores (CSV)"):  # the same file with the areas: exact, then binned
            for areas, extra in (("exact areas, --measures ...,roc_auc,ap", []), ("binned areas, --thresholds 1000", ["--thresholds", "1000"])):
                cases.append((f"{name.split(',')[0]}, {areas} (CSV)", path, [*options[name], "--measures", "recall,roc_auc,ap", *extra], floor, peers))
    return cases


def reading(rows: int = 5_000_000) -> str:
    """The Markdown table of every file kind."""
    lines = [
        (f"`evalkit report FILE` on files of {rows:,} rows (a new process each: start-up, reading, counting, the report) against "
        "the floor (numpy's C reader `np.loadtxt` in chunks of 1,000,000 rows with each column's type; for JSON Lines the standard "
        "library's `json.loads` of 1,000,000 lines at a time; for Parquet `pyarrow.parquet.read_table`) and, for orientation, "
        "pandas' and pyarrow's readers, which only read (in-process), and a script a user would write instead: pandas reads the "
        "file, evalkit's Python API evaluates it (a new process). evalkit runs with pyarrow's CSV and JSON readers, and with "
        "numpy's reader alone; numpy's huge pages off in every process. Target: evalkit / script <= 1.5, peak resident memory < 300 MB (`python benchmarks/reading.py`)."),
        "",
        ("| file | size (MB) | evalkit (s) | peak memory (MB) | numpy reader alone (s) | pandas + evalkit script (s) | evalkit / script "
         "| floor (s) | pandas read (s) | pyarrow read (s) |"),
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    with tempfile.TemporaryDirectory() as folder:
        for name, path, options, floor, peers in _files(Path(folder), rows):
            (ours, memory), (alone, _), (script, _) = _commands(
                [["-m", "evalkit", "report", str(path), *options], ["-c", NUMPY_READER, "report", str(path), *options], ["-c", _script(path, options)]]
            )
            floor_time = _seconds(floor)
            times = {peer: _seconds(function) for peer, function in peers.items()}
            pandas = next((f"{t:.2f}" for peer, t in times.items() if peer.startswith("pandas")), "")
            arrow = next((f"{t:.2f}" for peer, t in times.items() if peer.startswith("pyarrow")), "")
            size = path.stat().st_size / 1e6
            lines.append(f"| {name} | {size:.0f} | {ours:.2f} | {memory:.0f} | {alone:.2f} | {script:.2f} | {ours / script:.2f} | {floor_time:.2f} "
                         f"| {pandas} | {arrow} |")
            print(f"done: reading {name}", file=sys.stderr)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=5_000_000)
    arguments = parser.parse_args()
    without_huge_pages()
    print(reading(arguments.rows))


if __name__ == "__main__":
    main()
