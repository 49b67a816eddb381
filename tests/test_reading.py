"""Reading prediction files: the vectorised paths give exactly what Python's own readers give.

Text files are parsed by pyarrow (when installed) or split by numpy where a block is plain, and
by Python's ``csv`` and ``json`` modules elsewhere; every reader must agree on every field and
line number, and a fault anywhere (after a million clean rows too) is named by its line.
Parquet files read through pyarrow give the report the same CSV gives.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit import Evaluation, ThresholdCurve
from evalkit._scale.streaming import CurveCounts
from evalkit.cli import main
from evalkit.exceptions import InputFileError, InvalidArgumentError
from evalkit.io import _readers as readers
from evalkit.io._readers import Labels, read_batches, score, scores, weight, weights


def where(position: int) -> str:
    return f"f:{position + 1}"


def texts(values) -> list[str]:
    """A column's fields as text, whichever reader gave them (an ``S`` array or pyarrow's codes)."""
    return [value.decode() for value in (values.fields() if isinstance(values, readers._Coded) else values).tolist()]


def report(capsys, *arguments: str) -> tuple[int, str, str]:
    status = main(["report", *arguments])
    out, err = capsys.readouterr()
    return status, out, err


# --------------------------------------------------------------------------------------------
# CSV: numpy's split and Python's csv module agree

FIELD = st.text(alphabet=st.sampled_from(list("ab1 é,\"x0.5")), min_size=0, max_size=6)


def written(rows: list[list[str]], blank: list[bool], crlf: bool) -> tuple[bytes, list[tuple[int, list[str]]]]:
    """A CSV file of ``rows`` (quoted where needed by Python's csv writer), blank lines where
    asked, and the (line, row) pairs a reader must find."""
    end = "\r\n" if crlf else "\n"
    lines, expected = ["actual,predicted,weight"], []
    for row, empty in zip(rows, blank):
        if empty:
            lines.append("")
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="").writerow(row)
        lines.append(buffer.getvalue())
        expected.append((len(lines), row))
    return (end.join(lines) + end).encode(), expected


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(st.lists(FIELD, min_size=3, max_size=3), min_size=1, max_size=40),
    blank=st.lists(st.booleans(), min_size=40, max_size=40),
    crlf=st.booleans(),
    block=st.integers(16, 300),
    batch=st.integers(1, 50),
    arrow=st.booleans(),
)
def test_every_reader_reads_the_csv_fields_pythons_csv_module_reads(tmp_path_factory, rows, blank, crlf, block, batch, arrow):
    content, expected = written(rows, blank, crlf)
    path = tmp_path_factory.mktemp("csv") / "p.csv"
    path.write_bytes(content)
    found = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(readers, "BLOCK_BYTES", block)  # many blocks: plain ones by pyarrow or numpy, quoted ones by csv
        patch.setattr(readers, "ARROW_BLOCK_BYTES", block)
        patch.setattr(readers, "ARROW_READERS", arrow)
        patch.setattr(readers, "ARROW_MIN_BYTES", 0)
        parts = list(read_batches([str(path)], weight="weight", batch_size=batch))
    for part in parts:
        assert len(part) <= batch
        fields = {role: texts(values) if role != "weight" or not np.issubdtype(np.asarray(values).dtype, np.number) else None
                  for role, values in part.fields.items()}  # fmt: skip
        weights_read = fields["weight"] or [str(value) for value in part.fields["weight"].tolist()]  # pyarrow reads a plain weight column as numbers
        found += [(int(line), [fields["actual"][k], fields["predicted"][k], weights_read[k]]) for k, line in enumerate(part.numbers)]
    assert [(line, row[:2]) for line, row in found] == [(line, row[:2]) for line, row in expected]
    for (_, row), (_, want) in zip(found, expected):  # a weight pyarrow read as a number is the number the text spells
        assert row[2] == want[2] or float(row[2]) == float(want[2])


@pytest.mark.parametrize(
    ("last", "message"),
    [
        ("a\n", "expected 2 fields, got 1"),
        ('"a,b\n', "a quoted field that starts on this line never ends"),
        ("a,\n", "empty label"),
        ("a,b\rc,d\n", "a carriage return"),
        ("a,nan\n", "'nan' is a missing value"),
        ("a\0,b\n", "a NUL byte"),
        (b"a,\xff\n", "the text is not UTF-8"),
        (b"a," + b"b" * readers.MAX_LINE_BYTES + b"\n", "the line is longer than 1,048,576 bytes"),
    ],
)
@pytest.mark.parametrize("arrow", [True, False], ids=["pyarrow", "numpy"])
@pytest.mark.slow  # over a few seconds: the full run only
def test_a_bad_row_after_a_million_clean_ones_is_named_by_its_line(tmp_path, capsys, monkeypatch, last, message, arrow):
    monkeypatch.setattr(readers, "ARROW_READERS", arrow)
    monkeypatch.setattr(readers, "ARROW_MIN_BYTES", 0)
    path = tmp_path / "big.csv"
    tail = last if isinstance(last, bytes) else last.encode()
    path.write_bytes(b"actual,predicted\n" + b"a,b\n" * 1_000_000 + tail)
    status, out, err = report(capsys, str(path))
    assert status == 2 and out == "" and err.count("\n") == 1
    assert f"big.csv:1000002: {message}" in err, err


@pytest.mark.parametrize("arrow", [True, False], ids=["pyarrow", "numpy"])
def test_a_weight_in_hexadecimal_is_refused_by_its_line_whichever_reader_parses_it(tmp_path, capsys, monkeypatch, arrow):
    # pyarrow's integer parser reads "0x10" as 16, where Python's float() (the rule of a weight) refuses it
    monkeypatch.setattr(readers, "ARROW_READERS", arrow)
    monkeypatch.setattr(readers, "ARROW_MIN_BYTES", 0)
    path = tmp_path / "w.csv"
    path.write_text("actual,predicted,weight\na,a,1\nb,a,0x10\n", encoding="utf-8")
    status, out, err = report(capsys, str(path), "--weight", "weight")
    assert status == 2 and out == "" and "w.csv:3: cannot read the weight '0x10'" in err, err


def test_a_quote_open_at_the_end_of_a_block_is_named_by_its_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(readers, "BLOCK_BYTES", 64)
    path = tmp_path / "q.csv"
    path.write_text("actual,predicted\n" + "a,b\n" * 20 + '"a\nb",c\n' + "a,b\n" * 20)
    status, _, err = report(capsys, str(path))
    assert status == 2 and "q.csv:22: a quoted field" in err, err


def test_the_fast_paths_give_the_report_python_gives(tmp_path, capsys, monkeypatch):
    rng = np.random.default_rng(3)
    names = np.array(["cat", " dog", "bird ", "10", "9"])
    rows = [f"{names[a]},{names[p]},{w}\n" for a, p, w in zip(rng.integers(0, 5, 3000), rng.integers(0, 5, 3000), rng.integers(0, 4, 3000))]
    quoted = rows[:1500] + ['"cat",dog,1\n'] + rows[1500:]  # one quoted field: its block is read by csv
    plain, python = tmp_path / "plain.csv", tmp_path / "python.csv"
    plain.write_text("actual,predicted,w\n" + "".join(rows[:1500]) + "cat,dog,1\n" + "".join(rows[1500:]))
    python.write_text("actual,predicted,w\n" + "".join(quoted))
    outputs = [report(capsys, str(path), "--weight", "w", "--format", "csv", "--batch-size", "700")[1] for path in (plain, python)]
    monkeypatch.setattr(readers, "_split", lambda *arguments: None)  # every block through Python's csv module
    outputs.append(report(capsys, str(plain), "--weight", "w", "--format", "csv", "--batch-size", "700")[1])
    assert outputs[0] == outputs[1] == outputs[2] and "cat" in outputs[0] and "dog" in outputs[0]
    assert ",dog," not in outputs[0].replace(" dog", "dog")  # " dog" and "dog" are one label, stripped


LABEL = st.sampled_from(["cat", " dog", "dog", "10", "10.0", "9", "é", "x y", "NA"])


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(st.tuples(LABEL, LABEL, st.integers(0, 3), st.floats(0, 1).map(lambda x: round(x, 3)), st.sampled_from(["a", "b"])),
                  min_size=1, max_size=120),
    block=st.integers(40, 2000),
    batch=st.integers(1, 60),
    kind=st.sampled_from(["csv", "jsonl"]),
)  # fmt: skip
def test_pyarrow_and_numpy_readers_give_one_report(tmp_path_factory, rows, block, batch, kind):
    folder = tmp_path_factory.mktemp("readers")
    path = folder / f"p.{kind}"
    if kind == "csv":
        path.write_text("actual,predicted,w,score,g\n" + "".join(f"{a},{p},{w},{x},{g}\n" for a, p, w, x, g in rows))
    else:
        path.write_text("".join(json.dumps({"actual": a, "predicted": p, "w": w, "score": x, "g": g}) + "\n" for a, p, w, x, g in rows))
    runs = [["--weight", "w", "--batch-size", str(batch)], ["--group", "g"], ["--actual", "g", "--score", "score", "--positive", "a",
            "--negative", "b", "--measures", "accuracy,roc_auc,ap"]]  # fmt: skip
    for options in runs:
        outputs = []
        for arrow in (True, False):
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(readers, "ARROW_READERS", arrow)
                patch.setattr(readers, "BLOCK_BYTES", block)
                patch.setattr(readers, "ARROW_BLOCK_BYTES", block)
                patch.setattr(readers, "ARROW_MIN_BYTES", 0)
                out, err = io.StringIO(), io.StringIO()
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    status = main(["report", str(path), "--format", "json", *options])
                outputs.append((status, out.getvalue(), err.getvalue()))
        assert outputs[0] == outputs[1] and outputs[0][0] == 0, (options, outputs[0][2])


def test_json_numbers_keep_their_value_in_every_reader(tmp_path, capsys, monkeypatch):
    # 2**53 + 1 is exact in int64, 10**22 + 1 only as Python's int: pyarrow's double would round it
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps({"actual": a, "predicted": p}) + "\n" for a, p in
                            [(9007199254740993, 9007199254740993), (10**22 + 1, 1), (1.0, 1), (2, 1)] * 3))  # fmt: skip
    outputs = []
    monkeypatch.setattr(readers, "ARROW_MIN_BYTES", 0)
    for arrow in (True, False):
        monkeypatch.setattr(readers, "ARROW_READERS", arrow)
        outputs.append(report(capsys, str(path), "--format", "json"))
    assert outputs[0] == outputs[1] and outputs[0][0] == 0
    assert "10000000000000000000001" in outputs[0][1] and "9007199254740993" in outputs[0][1]


def test_a_small_file_is_read_without_pyarrow(tmp_path, capsys, monkeypatch):
    # importing pyarrow costs a tenth of a second: a file below ARROW_MIN_BYTES is read without it
    called = []
    monkeypatch.setattr(readers, "_arrow_csv_block", lambda *arguments: called.append(1))
    path = tmp_path / "p.csv"
    path.write_text("actual,predicted\n" + "a,b\n" * 100)
    assert report(capsys, str(path))[0] == 0 and not called
    monkeypatch.setattr(readers, "ARROW_MIN_BYTES", 0)
    assert report(capsys, str(path))[0] == 0 and called


def test_a_block_pyarrow_cannot_take_is_read_by_the_other_reader(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(readers, "ARROW_BLOCK_BYTES", 64)
    monkeypatch.setattr(readers, "ARROW_MIN_BYTES", 0)
    taken = []
    original = readers._arrow_csv_block
    monkeypatch.setattr(readers, "_arrow_csv_block", lambda *arguments: taken.append(original(*arguments) is not None) or original(*arguments))
    path = tmp_path / "p.csv"
    path.write_text("actual,predicted\n" + "a,b\n" * 40 + '"a",b\n' + "a,b\n" * 40)  # one quoted field: its block by csv
    status, out, _ = report(capsys, str(path), "--format", "json")
    assert status == 0 and json.loads(out)["samples"] == 81
    assert True in taken and False in taken


# --------------------------------------------------------------------------------------------
# values: one vectorised step equals one Python call per value

NUMBER_TEXT = st.text(alphabet=st.sampled_from(list("0123456789.+-e_ ainf")), min_size=0, max_size=8)


def outcome(read):
    """What a read gives: its values, or the message of its error (a bad value must fail alike)."""
    try:
        return read()
    except InputFileError as error:
        return str(error)


def as_list(values):
    """Values read as a list of Python numbers (weights come as a list of exact integers or an array)."""
    return values if isinstance(values, list) else values.tolist()


@settings(max_examples=300, deadline=None)
@given(st.lists(NUMBER_TEXT, min_size=1, max_size=20))
def test_scores_read_at_once_equal_pythons_float(texts):
    fields = np.array([text.encode() for text in texts], dtype=bytes)
    expected = outcome(lambda: [score(text, where(k)) for k, text in enumerate(texts)])
    assert outcome(lambda: scores(fields, where).tolist()) == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(NUMBER_TEXT, min_size=1, max_size=20))
def test_weights_read_at_once_equal_one_by_one(texts):
    fields = np.array([text.encode() for text in texts], dtype=bytes)
    expected = outcome(lambda: [weight(text, where(k)) for k, text in enumerate(texts)])
    found = outcome(lambda: as_list(weights(fields, where)))
    assert found == expected
    if isinstance(found, list):  # whole numbers stay exact integers exactly when every one is whole
        assert [type(value) for value in found] == [type(value) for value in expected] or all(isinstance(value, float) for value in found)


def test_labels_spelled_apart_stay_apart_and_numbers_are_plain(tmp_path, capsys):
    """Python's int() reads "1_0" as 10 and "٣" (Arabic-Indic three) as 3: read so, a label
    column merged classes the file spells apart, turning two wrong predictions right. A number
    in a file is ASCII digits, a sign, a point and an exponent; anything else is a text label,
    and a refused score, weight or time."""
    from evalkit.io._fields import spelled_number

    path = tmp_path / "labels.csv"
    path.write_text("actual,predicted\n1_0,10\n10,1_0\n٣,3\n", encoding="utf-8")
    status, out, _ = report(capsys, str(path), "--format", "json")
    assert status == 0 and json.loads(out)["summary"]["accuracy"] == 0.0 and len(json.loads(out)["classes"]) == 4
    assert [spelled_number(text) for text in ("1_0", "٣", " -2 ", "+.5", "5.", "1e3", "0x10", "inf", "nan", "1 0")] == [None, None, -2, 0.5, 5.0, 1000.0, None, None, None, None]
    for column, option in (("score", ["--score", "score"]), ("weight", ["--weight", "weight"]), ("time", ["--time-column", "time", "--period", "5"])):
        path.write_text(f"actual,predicted,{column}\n1,1,1\n0,0,1_0\n")
        status, _, err = report(capsys, str(path), *option)
        assert status != 0 and f"{path}:3:" in err and "'1_0'" in err, err


def test_whole_weights_beyond_float64s_integers_stay_exact(tmp_path, capsys):
    """A 19-digit whole weight was read as a float (1000000000000000001 as 1e18), and whole
    weights summing past 2**63 - 1 became float counts with no word: they are read as the
    integers they are, and a sum evalkit cannot count exactly is refused, as the API refuses it."""
    path = tmp_path / "weights.csv"
    path.write_text("actual,predicted,weight\n0,0,1000000000000000001\n0,1,2\n1,1,1\n")
    status, out, _ = report(capsys, str(path), "--weight", "weight", "--format", "json")
    assert status == 0 and json.loads(out)["confusion_matrix"]["counts"] == [[1000000000000000001, 2], [0, 1]]
    path.write_text("actual,predicted,weight\n0,0,4611686018427387904\n0,0,4611686018427387904\n1,1,1\n")
    status, _, err = report(capsys, str(path), "--weight", "weight")
    assert status == 2 and "sum to 9223372036854775809, beyond the 9223372036854775807 (2**63 - 1)" in err


@settings(max_examples=300, deadline=None)
@given(st.from_regex(r"\A[+-]?(?:[0-9]{1,5}\.?[0-9]{0,5}|\.[0-9]{1,5})(?:[eE][+-]?[0-9]{1,3})?\Z"))
def test_a_plain_number_reads_as_python_reads_it(text):
    from evalkit.io._fields import spelled_number

    assert spelled_number(text) == (int(text) if text.lstrip("+-").isdigit() else float(text))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["a", " a", "b", "é", "10", "x y"]), min_size=1, max_size=10), min_size=1, max_size=5))
def test_labels_coded_from_bytes_and_from_text_agree_across_batches(batches):
    from_bytes, from_text = Labels(), Labels()
    for batch in batches:
        bytes_codes = from_bytes.codes(np.array([text.encode() for text in batch], dtype=bytes), where)
        text_codes = from_text.codes(list(batch), where)
        assert [from_bytes.texts[c] for c in bytes_codes] == [from_text.texts[c] for c in text_codes] == [text.strip() for text in batch]


def test_a_new_bad_label_is_named_by_its_first_line():
    coder = Labels()
    coder.codes(np.array([b"a", b"b"]), where)
    with pytest.raises(InputFileError, match=r"f:3: empty label"):
        coder.codes(np.array([b"a", b"b", b" ", b"", b"c"]), where)


# --------------------------------------------------------------------------------------------
# JSON Lines: one parse per block, and every fault still found


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.fixed_dictionaries({"actual": st.sampled_from(["a", "b", "c{", 'q"', 1]), "predicted": st.sampled_from(["a", "b"])}),
             min_size=1, max_size=30),
    st.sampled_from([(",", ":"), (", ", ": ")]),
)  # fmt: skip
def test_json_lines_read_at_once_equal_line_by_line(tmp_path_factory, records, separators):
    lines = [json.dumps(record, separators=separators) for record in records]
    path = tmp_path_factory.mktemp("jsonl") / "p.jsonl"
    path.write_text("\n".join(lines) + "\n")
    mixed = len({type(record["actual"]) for record in records}) > 1
    if mixed:
        with pytest.raises(InputFileError, match="is a (number|string) here but a"):
            list(read_batches([str(path)]))
        return
    found = [value for part in read_batches([str(path)], batch_size=7) for value in part.fields["actual"]]
    assert found == [record["actual"] for record in records]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"actual": "a", "predicted": "a", "actual": "b"}', "the key 'actual' appears twice"),
        ('{"actual" : "a", "predicted": "a", "actual": "b"}', "the key 'actual' appears twice"),
        ('{"actual": "a", "predicted": "b"}, {"actual": "a", "predicted": "b"}', "not valid JSON"),
        ('{"actual": "a", "predicted": {"x": 1, "x": 2}}', "the key 'x' appears twice"),
        ('{"actual": "a"}', "no field 'predicted'"),
        ('["a", "b"]', "not valid JSON|expected a JSON object"),
    ],
)
def test_a_bad_json_line_after_many_plain_ones_is_named(tmp_path, capsys, line, message):
    path = tmp_path / "p.jsonl"
    path.write_text('{"actual": "a", "predicted": "b"}\n' * 50_000 + line + "\n")
    status, _, err = report(capsys, str(path))
    assert status == 2 and "p.jsonl:50001: " in err, err
    assert any(part in err for part in message.split("|")), err


def test_json_lines_and_csv_give_one_report(tmp_path, capsys):
    rng = np.random.default_rng(5)
    pairs = [(str(a), str(p)) for a, p in zip(rng.integers(0, 4, 5000), rng.integers(0, 4, 5000))]
    jsonl, table = tmp_path / "p.jsonl", tmp_path / "p.csv"
    jsonl.write_text("\r\n".join(json.dumps({"actual": a, "predicted": p}) for a, p in pairs) + "\r\n\n")
    table.write_text("actual,predicted\n" + "".join(f"{a},{p}\n" for a, p in pairs))
    assert report(capsys, str(jsonl), "--format", "csv")[1] == report(capsys, str(table), "--format", "csv")[1]


# --------------------------------------------------------------------------------------------
# Parquet


def parquet_and_csv(tmp_path, columns: dict[str, list]) -> tuple[str, str]:
    table = pa.table(columns)
    pq.write_table(table, tmp_path / "p.parquet", row_group_size=700)
    text = ",".join(columns) + "\n" + "".join(",".join(str(column[k]) for column in columns.values()) + "\n" for k in range(table.num_rows))
    (tmp_path / "p.csv").write_text(text)
    return str(tmp_path / "p.parquet"), str(tmp_path / "p.csv")


def test_parquet_gives_the_report_of_the_same_csv(tmp_path, capsys):
    rng = np.random.default_rng(7)
    n = 3000
    actual = rng.integers(0, 3, n)
    columns = {
        "actual": [["cat", "dog", "bird"][k] for k in actual],
        "predicted": [["cat", "dog", "bird"][k] for k in rng.integers(0, 3, n)],
        "w": rng.integers(0, 5, n).tolist(),
        "p_cat": rng.random(n).round(4).tolist(),
        "p_dog": rng.random(n).round(4).tolist(),
        "p_bird": rng.random(n).round(4).tolist(),
    }
    parquet, table = parquet_and_csv(tmp_path, columns)
    for options in (["--weight", "w"], ["--scores", "p_*"], ["--batch-size", "500"]):
        ours, theirs = (report(capsys, path, *options, "--format", "csv") for path in (parquet, table))
        assert ours[0] == theirs[0] == 0 and ours[1] == theirs[1], (options, ours[2])


def test_parquet_integer_and_dictionary_columns_read_as_labels(tmp_path, capsys):
    """Numbers by value whatever the column's type (int64, a dictionary of floats); a string
    column beside a number column is refused (``"1"`` is never the number 1)."""
    actual = pa.array([0, 1, 1, 2] * 50)
    predicted = pa.array([0.0, 1.0, 2.0, 2.0] * 50).dictionary_encode()
    pq.write_table(pa.table({"actual": actual, "predicted": predicted, "score": pa.array([0.1, 0.9, 0.6, 0.4] * 50)}), tmp_path / "p.parquet")
    status, out, err = report(capsys, str(tmp_path / "p.parquet"), "--format", "json")
    assert status == 0, err
    assert json.loads(out)["confusion_matrix"] == {"labels": ["0", "1", "2"], "counts": [[50, 0, 0], [0, 50, 50], [0, 0, 50]]}
    text = pa.array(["0", "1", "2", "2"] * 50).dictionary_encode()
    pq.write_table(pa.table({"actual": actual, "predicted": text}), tmp_path / "t.parquet")
    status, _, err = report(capsys, str(tmp_path / "t.parquet"))
    assert status == 2 and "the label '0' is text but the label 0" in err


def test_parquet_faults_are_named_by_row(tmp_path, capsys):
    pq.write_table(pa.table({"actual": ["a", None, "b"], "predicted": ["a", "b", "b"]}), tmp_path / "n.parquet")
    assert "n.parquet: row 2: the column 'actual' has a missing value (null)" in report(capsys, str(tmp_path / "n.parquet"))[2]
    pq.write_table(pa.table({"actual": ["a", "nan"], "predicted": ["a", "b"]}), tmp_path / "m.parquet")
    assert "m.parquet: row 2: 'nan' is a missing value" in report(capsys, str(tmp_path / "m.parquet"))[2]
    (tmp_path / "bad.parquet").write_bytes(b"not parquet")
    status, _, err = report(capsys, str(tmp_path / "bad.parquet"))
    assert status == 2 and "bad.parquet: cannot read the Parquet file" in err


# --------------------------------------------------------------------------------------------
# what the reading feeds


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 20)), min_size=2, max_size=200), st.integers(1, 17))
def test_a_curve_counted_in_many_batches_is_the_one_shot_curve(samples, size):
    y = np.array([a for a, _ in samples])
    s = np.array([b for _, b in samples]) / 20
    counts = CurveCounts(pos_label=1)
    for low in range(0, len(y), size):
        counts.update(y[low : low + size], s[low : low + size])
    one = ThresholdCurve.from_scores(y, s, pos_label=1)
    merged = counts.curve()
    assert np.array_equal(merged.common_thresholds(), one.common_thresholds())
    assert merged.cells().counts()["tp"].tolist() == one.cells().counts()["tp"].tolist()
    assert merged.cells().counts()["fp"].tolist() == one.cells().counts()["fp"].tolist()


def test_a_file_s_scores_are_counted_in_chunks_as_large_as_the_curve(tmp_path, capsys, monkeypatch):
    # each chunk of scores is merged into the curve so far, a merge costing the points of both:
    # a chunk holds at least as many scores as the curve has points, and the report is the one
    # of the curve counted at once
    from evalkit.cli import _files as files

    monkeypatch.setattr(files, "SCORE_CHUNK", 64)
    flushed: list[tuple[int, int]] = []
    original = files._Chunks.flush

    def flush(self: files._Chunks) -> None:
        if self.parts:
            flushed.append((self.rows, max(counter.n_points for counter in self.counters)))
        original(self)

    monkeypatch.setattr(files._Chunks, "flush", flush)
    rng = np.random.default_rng(3)
    y, s = rng.integers(0, 2, 3000), rng.random(3000).round(4)
    path = tmp_path / "scores.csv"
    path.write_text("actual,score\n" + "".join(f"{a},{b}\n" for a, b in zip(y, s)))
    assert main(["report", str(path), "--score", "score", "--measures", "roc_auc,ap", "--format", "json", "--batch-size", "50"]) == 0
    report = json.loads(capsys.readouterr().out)
    curve = ThresholdCurve.from_scores(y, s, pos_label=1)
    assert len(flushed) > 2 and all(rows >= max(points, 64) for rows, points in flushed[:-1])  # the last: the rest of the file
    assert flushed[-2][0] > 500  # the chunks grew with the curve
    positive = report["classes"]["1"]
    assert positive["roc_auc"] == pytest.approx(curve.roc_auc(), abs=1e-12)
    assert positive["average_precision"] == pytest.approx(curve.average_precision(), abs=1e-12)


def test_renamed_keeps_every_count_and_refuses_a_name_twice():
    ev = Evaluation.from_labels([0, 1, 2, 2], [0, 2, 2, 1], sample_weight=[1, 2, 3, 4])
    named = ev.renamed(["a", "b", "c"])
    assert named.labels == ("a", "b", "c") and named.per_class("f1_score").tolist() == ev.per_class("f1_score").tolist()
    assert named.confusion_matrix().to_array().tolist() == ev.confusion_matrix().to_array().tolist()
    with pytest.raises(InvalidArgumentError):
        ev.renamed(["a", "b"])
    with pytest.raises(ValueError, match="twice"):
        ev.renamed(["a", "a", "b"])


def test_labels_named_twice_are_refused(tmp_path, capsys):
    (tmp_path / "p.csv").write_text("actual,predicted\na,b\n")
    status, _, err = report(capsys, str(tmp_path / "p.csv"), "--labels", "a,b,a")
    assert status == 2 and "--labels names 'a' twice" in err


def test_numbers_beyond_float64_and_whole_weights_beyond_int64_are_refused_at_their_line(tmp_path, capsys):
    """A score or time of 309 digits raised Python's OverflowError (a traceback); a whole
    weight beyond 2**63 - 1 was refused without its line, or rounded to a float (2**64 - 1)."""
    path = tmp_path / "big.csv"
    huge = "1" + "0" * 400
    path.write_text(f"actual,predicted,score,time\n1,1,0.9,1\n0,0,{huge},{huge}\n")
    for option in (["--score", "score"], ["--time-column", "time", "--period", "10"]):
        status, _, err = report(capsys, str(path), *option)
        assert status == 2 and f"{path}:3:" in err and "Traceback" not in err, err
    for whole in ("100000000000000000000", "18446744073709551615", "9223372036854775808"):
        path.write_text(f"actual,predicted,weight\n1,1,{whole}\n0,0,1\n")
        status, _, err = report(capsys, str(path), "--weight", "weight")
        assert status == 2 and f"{path}:2: the weight '{whole}' is a whole number beyond 2**63 - 1" in err, err
    path.write_text("actual,predicted,weight\n1,1,1e20\n0,0,1\n")
    assert report(capsys, str(path), "--weight", "weight")[0] == 0  # (a float: counted as one)
