"""One identity for a value, in Python and in every reader.

The rule a user can hold: a label is the value it is in Python. Numbers are equal by value
whatever their type (``1``, ``1.0``, ``np.int64(1)``, an int64 or float64 Parquet column, a JSON
``1`` or ``1.0``); text is never equal to a number, and a mix of the two is refused, as
``evalkit.metrics`` refuses ``[1, "1"]``. Text files (CSV, TSV) have no types: their labels are
numbers by value when every one of them spells a number (as a column is numeric only when every
field is), else text. Group keys and raters' categories follow the same rule, and a group is
found by any value equal to its key (``np.str_("a")`` is ``"a"``). The fast and the slow path of
every reader give the same report.
"""

from __future__ import annotations

import json
import tempfile
from decimal import Decimal
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit import (
    Agreement,
    ByGroup,
    ClassificationMetrics,
    ConfusionMatrix,
    Covering,
    Evaluation,
    ThresholdCurve,
    by_group,
)
from evalkit import metrics as ek
from evalkit.cli import main
from evalkit.exceptions import (
    EvalkitError,
    InputShapeError,
    InvalidArgumentError,
    InvalidLabelError,
    InvalidTypeError,
    MixedLabelTypesError,
    UnknownLabelError,
)
from evalkit.io import _readers as readers
from evalkit.io._readers import label_number, number_text

# --------------------------------------------------------------------------------------------
# Python


def test_numbers_are_labels_by_value_whatever_their_type():
    assert ek.accuracy_score(np.array([1, 2, 1]), np.array([1.0, 2.0, 2.0])) == pytest.approx(2 / 3)
    assert Evaluation.from_labels([np.int64(1), 2], [1.0, np.float32(2)]).labels == (1, 2)
    with pytest.raises(MixedLabelTypesError):
        ek.accuracy_score([1, 2], ["1", "2"])


def test_group_keys_and_categories_keep_text_and_numbers_apart():
    with pytest.raises(InvalidArgumentError, match="mix types: '1' \\(str\\) in 'group'"):
        by_group([0, 1, 1, 0], [0, 1, 0, 0], ["1", 1, "1", 1])
    with pytest.raises(MixedLabelTypesError, match="in 'ratings'"):
        Agreement.from_ratings([["1", 1], ["2", 2]])
    assert Agreement.from_ratings([["1", "1"], ["2", "1"]]).categories == ("1", "2")


def test_a_group_is_found_by_any_value_equal_to_its_key():
    result = by_group([0, 1, 1, 0], [0, 1, 0, 0], ["a", "b", "a", "b"])
    assert result[np.str_("a")] == result["a"]
    assert [result[key].get_accuracy() for key in np.unique(["a", "b"])] == [0.5, 1.0]
    assert result.difference("accuracy", relative_to=np.str_("a")).value == 0.5
    numbered = by_group([0, 1, 1, 0], [0, 1, 0, 0], [1, 2, 1, 2])
    assert numbered[np.int64(1)] == numbered[1] == numbered[1.0]
    with pytest.raises(UnknownLabelError):
        numbered["1"]
    with pytest.raises(UnknownLabelError):
        by_group([0, 1], [0, 1], [True, False])[1]


# --------------------------------------------------------------------------------------------
# files: every reader and path against Python

NUMBERS = st.sampled_from([0, 1, 2, 0.0, 1.0, 2.0])  # integral floats are the ints' classes
TEXTS = st.sampled_from(["1", "01", "1.0", "cat", "Dog", "é"])
DIGITS = st.sampled_from(["1", "01", "1.0", "2"])  # text that spells numbers: CSV reads it by value


@st.composite
def tables(draw):
    family = draw(st.sampled_from(["numbers", "texts", "digits"]))
    values = {"numbers": NUMBERS, "texts": TEXTS, "digits": DIGITS}[family]
    n = draw(st.integers(1, 12))
    rows = [(draw(values), draw(values)) for _ in range(n)]
    return family, rows


def expected_matrix(rows, typed):
    """The confusion matrix Python gives, with each label as the report names it: a number by
    its value; text as text, or by value in a text file whose labels all spell numbers."""
    actual, predicted = [a for a, _ in rows], [p for _, p in rows]
    if not typed:
        texts = [str(v) for v in actual + predicted]
        numbers = [label_number(t) for t in texts]
        if all(number is not None for number in numbers):
            named = [number_text(number) for number in numbers]
        else:
            named = texts
        actual, predicted = named[: len(rows)], named[len(rows) :]
    elif isinstance(actual[0], str):
        pass
    else:
        actual, predicted = [number_text(v) for v in actual], [number_text(v) for v in predicted]
    return _cells(Evaluation.from_labels(actual, predicted).confusion_matrix())


def _cells(matrix):
    labels = [str(label) for label in matrix.labels]
    counts = matrix.to_array()
    return {(labels[i], labels[j]): int(counts[i, j]) for i in range(len(labels)) for j in range(len(labels)) if counts[i, j]}


def reported(path, *options):
    """The confusion matrix of the command line's JSON report, as cells by label names."""
    with _captured() as out:
        assert main(["report", str(path), "--measures", "recall", "--format", "json", *options]) == 0
    document = json.loads(out.getvalue())
    labels, counts = document["confusion_matrix"]["labels"], document["confusion_matrix"]["counts"]
    return {(labels[i], labels[j]): counts[i][j] for i in range(len(labels)) for j in range(len(labels)) if counts[i][j]}


class _captured:
    def __enter__(self):
        import contextlib
        import io

        self.buffer = io.StringIO()
        self.context = contextlib.redirect_stdout(self.buffer)
        self.context.__enter__()
        return self.buffer

    def __exit__(self, *exc):
        self.context.__exit__(*exc)
        return False


def write_files(directory: Path, family: str, rows) -> dict[str, Path]:
    """The rows (actual, predicted[, group]) as CSV, quoted CSV, JSON Lines (fast and slow path) and Parquet."""
    roles = ("actual", "predicted", "g")[: len(rows[0])]
    files = {}
    csv_path = directory / "t.csv"
    csv_path.write_text(",".join(roles) + "\n" + "".join(",".join(map(str, row)) + "\n" for row in rows), encoding="utf-8")
    files["csv"] = csv_path
    quoted = directory / "quoted.csv"  # every field quoted: the block goes through Python's csv module
    quoted.write_text(",".join(f'"{role}"' for role in roles) + "\n" + "".join(",".join(f'"{v}"' for v in row) + "\n" for row in rows), encoding="utf-8")
    files["csv, slow path"] = quoted
    plain = directory / "t.jsonl"
    plain.write_text("".join(json.dumps(dict(zip(roles, row))) + "\n" for row in rows), encoding="utf-8")
    files["jsonl"] = plain
    spaced = directory / "spaced.jsonl"  # a space before each colon: read line by line
    spaced.write_text("".join(json.dumps(dict(zip(roles, row)), separators=(", ", " : ")) + "\n" for row in rows), encoding="utf-8")
    files["jsonl, slow path"] = spaced
    columns = {}
    for k, role in enumerate(roles):
        values = [row[k] for row in rows]
        if family == "numbers":  # one column int64 where it can be, the other float64: numbers by value all the same
            kind = pa.int64() if k == 0 and all(float(v).is_integer() for v in values) else pa.float64()
            columns[role] = pa.array([int(v) if kind == pa.int64() else float(v) for v in values], kind)
        else:
            columns[role] = pa.array(values, pa.string())
    parquet = directory / "t.parquet"
    pq.write_table(pa.table(columns), parquet)
    files["parquet"] = parquet
    return files


@settings(max_examples=60, deadline=None)
@given(tables(), st.sampled_from([1, 5, 100_000]))
def test_every_reader_gives_the_labels_python_gives(table, batch_size):
    family, rows = table
    with tempfile.TemporaryDirectory() as directory:
        for name, path in write_files(Path(directory), family, rows).items():
            typed = not name.startswith("csv")
            expected = expected_matrix(rows, typed)
            assert reported(path, "--batch-size", str(batch_size)) == expected, (name, rows)


def python_values(values, typed):
    """Values as Python has them once read: typed files keep numbers and text; in a text file
    they are numbers by value when every one of them spells a number, else text."""
    if typed:
        return list(values)
    numbers = [label_number(str(v)) for v in values]
    return numbers if all(number is not None for number in numbers) else [str(v) for v in values]


@settings(max_examples=40, deadline=None)
@given(tables(), st.data())
def test_every_reader_gives_the_groups_and_labels_python_gives(table, data):
    """--group on the same rows in every reader: each group (named by value as a label is) has
    the support and accuracy Python's by_group gives its rows' values."""
    family, rows = table
    values = {"numbers": NUMBERS, "texts": TEXTS, "digits": DIGITS}[family]
    rows = [(a, p, data.draw(values)) for a, p in rows]
    with tempfile.TemporaryDirectory() as directory:
        for name, path in write_files(Path(directory), family, rows).items():
            typed = not name.startswith("csv")
            labels = python_values([row[0] for row in rows] + [row[1] for row in rows], typed)  # the two label columns: one set of labels
            groups = python_values([row[2] for row in rows], typed)
            expected = _group_rows(ByGroup.from_labels(labels[: len(rows)], labels[len(rows) :], {"g": groups}).report(["accuracy"]).to_json())
            with _captured() as out:
                assert main(["report", str(path), "--group", "g", "--measures", "accuracy", "--format", "json"]) == 0
            assert _group_rows(out.getvalue()) == expected, (name, rows)


def _group_rows(document):
    """Each group's support and accuracy, by its key's value (a number or a text)."""
    def identity(key):
        return ("number", float(key)) if isinstance(key, (int, float)) else ("text", key)

    return {identity(row["group"]["g"]): (row["support"], row["accuracy"]) for row in json.loads(document)["groups"]}


def test_the_block_size_of_a_reader_does_not_change_a_label(tmp_path, monkeypatch):
    rows = [(v, w) for v, w in zip(["1", "1.0", "2", "02"] * 50, ["2.0", "1", "1", "2"] * 50)]
    path = tmp_path / "d.csv"
    path.write_text("actual,predicted\n" + "".join(f"{a},{p}\n" for a, p in rows), encoding="utf-8")
    expected = reported(path)
    assert expected == {("1", "1"): 50, ("1", "2"): 50, ("2", "1"): 50, ("2", "2"): 50}
    monkeypatch.setattr(readers, "BLOCK_BYTES", 64)
    assert reported(path) == expected
    monkeypatch.setattr(readers, "_split", lambda *arguments: None)
    assert reported(path) == expected


def test_numbers_and_text_in_one_typed_file_are_refused_at_their_line(tmp_path, capsys):
    mixed = tmp_path / "m.jsonl"
    mixed.write_text('{"actual": 1, "predicted": "2"}\n{"actual": 2, "predicted": "1"}\n', encoding="utf-8")  # each field of one type
    assert main(["report", str(mixed)]) == 2
    assert "m.jsonl:1: the label '2' is text but the label 1 (" in capsys.readouterr().err
    parquet = tmp_path / "m.parquet"
    pq.write_table(pa.table({"actual": pa.array([1, 2], pa.int64()), "predicted": pa.array(["1", "2"])}), parquet)
    assert main(["report", str(parquet)]) == 2
    assert "evalkit never merges numbers and text" in capsys.readouterr().err
    surrogate = tmp_path / "s.jsonl"
    surrogate.write_text('{"actual": "a", "predicted": "a"}\n{"actual": "\\ud800", "predicted": "a"}\n', encoding="utf-8")
    assert main(["report", str(surrogate)]) == 2
    assert "s.jsonl:2: the label '\\ud800' is not valid Unicode" in capsys.readouterr().err


def test_a_score_report_finds_its_positive_class_by_value(tmp_path, capsys):
    path = tmp_path / "s.csv"
    path.write_text("actual,p\n1.0,0.9\n0.0,0.2\n1.0,0.4\n0.0,0.7\n", encoding="utf-8")
    assert main(["report", str(path), "--score", "p", "--measures", "recall,roc_auc", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert list(document["classes"]) == ["0", "1"] and document["confusion_matrix"]["counts"] == [[1, 1], [1, 1]]
    assert document["classes"]["1"]["roc_auc"] == pytest.approx(0.75)
    text = tmp_path / "t.csv"
    text.write_text("actual,p\n1.0,0.9\ncat,0.2\n", encoding="utf-8")
    assert main(["report", str(text), "--score", "p", "--positive", "1"]) == 2
    assert "the label '1.0' was read as '1' (the same number), but the labels are not all numbers ('cat')" in capsys.readouterr().err


MISSING = [pd.NA, pd.NaT, np.datetime64("NaT"), Decimal("NaN"), Decimal("sNaN"), float("nan"), None]


@pytest.mark.parametrize("label", [np.array([1]), [1], (1,), {1}])
def test_a_class_label_that_is_a_collection_is_refused(label):
    with pytest.raises(InvalidTypeError, match="'class_label' must be one label"):
        ClassificationMetrics.from_counts(tp=1, fp=1, fn=1, tn=1, class_label=label)
    with pytest.raises(InvalidTypeError, match="'class_label' must be one label"):
        ClassificationMetrics(ConfusionMatrix.from_predictions([1, 2], [1, 1]), class_label=label)


def test_a_pos_label_or_none_that_is_a_collection_is_refused():
    with pytest.raises(InvalidTypeError, match="'pos_label' must be one label"):
        ThresholdCurve.from_scores([0, 1], [0.2, 0.7], pos_label=[1])
    with pytest.raises(InvalidTypeError, match="'none' must be one label"):
        Evaluation.from_labels([1, 2], [1, 2], none=np.array([0]))


@pytest.mark.parametrize("missing", MISSING, ids=repr)
def test_missing_values_among_labels_are_refused_with_their_position(missing):
    with pytest.raises(InvalidLabelError, match=r"'y_true' contains .* which cannot be a class label.*position 1|'y_true' contains NaN \(first at position 1\)"):
        ConfusionMatrix.from_predictions(["a", missing, "b"], ["a", "a", "b"])


@pytest.mark.parametrize("missing", MISSING, ids=repr)
def test_missing_values_in_labels_are_refused(missing):
    with pytest.raises(InvalidLabelError, match="'labels' contains"):
        ConfusionMatrix.from_predictions(["a", "b"], ["a", "b"], labels=["a", "b", missing])


def test_pandas_extension_arrays_with_missing_values_are_refused():
    for series in (pd.Series(["a", None, "b"], dtype="string"), pd.Series([True, None, False], dtype="boolean"),
                   pd.Series([1, None, 2], dtype="Int64")):  # fmt: skip
        with pytest.raises(InvalidLabelError, match="'y_true' contains .*position 1"):
            ConfusionMatrix.from_predictions(series, series.fillna(series.iloc[0]))


def test_decimal_labels_that_are_numbers_still_count():
    cm = ConfusionMatrix.from_predictions([Decimal("1.5"), Decimal(2)], [Decimal("1.5"), Decimal("1.5")])
    assert cm.labels == (Decimal("1.5"), Decimal(2)) and cm.get_total_items() == 2


@pytest.mark.parametrize("threshold", ["0.5", b"0.5", [["0.5"]], True])
def test_a_threshold_given_as_text_or_boolean_is_refused(threshold):
    with pytest.raises(InvalidTypeError, match="'threshold' must be a number or numbers"):
        Evaluation.from_scores([[1], [0]], [[0.2], [0.8]], threshold=threshold)
    with pytest.raises(InvalidTypeError, match="'threshold' must be a number or numbers"):
        ThresholdCurve.from_scores([1, 0], [0.2, 0.8]).at(threshold)


def test_thresholds_given_as_text_are_refused():
    with pytest.raises(InvalidTypeError, match="'thresholds' must be a number or numbers"):
        ThresholdCurve.from_scores([1, 0], [0.2, 0.8], thresholds=["0.1", "0.5"])


def test_ragged_indicator_rows_are_refused():
    with pytest.raises(InputShapeError, match=r"'y_true' has rows of different lengths \[1, 2\]"):
        Evaluation.from_indicators([[1, 0], [1]], [[1, 0], [0, 1]])
    with pytest.raises(InputShapeError, match="'y_pred' has rows of different lengths"):
        Evaluation.from_soft([[0.1, 0.2]], [[0.1], [0.2, 0.3]])


@pytest.mark.parametrize("unordered", [{1, 2}, frozenset({1, 2}), {1: 1, 2: 2}, {1: 1, 2: 2}.keys(), {1: 1, 2: 2}.values()], ids=lambda v: type(v).__name__)
def test_an_unordered_collection_of_samples_is_refused(unordered):
    with pytest.raises(InvalidTypeError, match="'y_true' must be an ordered sequence of labels"):
        ConfusionMatrix.from_predictions(unordered, [1, 2])
    with pytest.raises(InvalidTypeError, match="'y_pred' must be an ordered sequence of labels"):
        Evaluation.from_labels([1, 2], unordered)


def test_an_unordered_collection_of_label_sets_or_rows_is_refused():
    with pytest.raises(InvalidTypeError, match="'y_true' must be an ordered sequence of label sets"):
        Evaluation.from_label_sets({frozenset({1}), frozenset({2})}, [{1}, {2}])
    with pytest.raises(InvalidTypeError, match="'y_true' must be an ordered sequence of rows"):
        Evaluation.from_indicators({(1, 0), (0, 1)}, [[1, 0], [0, 1]])


def test_the_scikit_learn_face_refuses_unordered_samples_and_text_scores():
    from evalkit import metrics

    with pytest.raises(InvalidTypeError, match="'y_true' must be an ordered sequence of labels"):
        metrics.f1_score({0, 1}, [0, 1])
    with pytest.raises(InvalidTypeError, match=r"'y_score' must be (an ordered sequence of scores|a number or numbers, got \{0.2, 0.5\})"):
        metrics.roc_auc_score([0, 1], {0.2, 0.5})
    with pytest.raises(InvalidTypeError, match="'y_proba' must be a number or numbers"):
        metrics.log_loss([0, 1], ["0.2", "0.8"])
    with pytest.raises(InvalidTypeError, match="'y_proba' must be a number or numbers"):
        metrics.brier_score_loss([0, 1], ["0.2", "0.8"])
    with pytest.raises(InvalidTypeError, match="'labels_per_element' must be an ordered sequence"):
        Covering.from_labels({"x", "y"})
    assert metrics.roc_auc_score([0, 1, 1], [False, True, False]) == 0.75  # booleans are scores, as in scikit-learn


def test_none_equal_to_a_class_after_coercion_is_refused():
    with pytest.raises(MixedLabelTypesError, match="True \\(bool\\) in 'none'"):
        Evaluation.from_labels([1, 0, 1], [1, 0, 1], none=True)  # True == 1: class 1 would become the abstention
    with pytest.raises(MixedLabelTypesError):
        Evaluation.from_labels([True, False], [True, True], none=1)
    kept = Evaluation.from_labels([1, 0, 2], [1, 0, 9], none=9)
    assert kept.labels == (0, 1, 2) and kept.confusion_labels == (0, 1, 2, 9)


def test_booleans_and_ints_never_merge_when_results_are_joined():
    booleans = ConfusionMatrix.from_predictions([True, False], [True, True])
    ints = ConfusionMatrix.from_predictions([1, 0], [1, 1])
    assert booleans.labels == ints.labels  # (False, True) == (0, 1) in Python
    with pytest.raises(EvalkitError, match="different labels"):
        booleans + ints
    assert booleans != ints
    with pytest.raises(MixedLabelTypesError):
        ints.with_labels([False, True])
    ev_bool, ev_int = (Evaluation.from_labels(y, y) for y in ([True, False], [1, 0]))
    with pytest.raises(EvalkitError, match="different labels"):
        ev_bool.merge(ev_int)
    with pytest.raises(MixedLabelTypesError):
        ev_bool.merge(ev_int, grow=True)
    with pytest.raises(MixedLabelTypesError):
        Evaluation.from_labels(["a"], ["a"]).merge(Evaluation.from_labels([1], [1]), grow=True)


@pytest.mark.parametrize(
    "call",
    [
        lambda: ek.accuracy_score([0, 1], [np.inf, np.inf]),
        lambda: ek.f1_score([np.inf, 1, 2], [1, 2, 3], average="macro"),
        lambda: ek.confusion_matrix([0.0, -np.inf], [0.0, 1.0]),
        lambda: Evaluation.from_labels([1.0, float("inf")], [1.0, 1.0]),
    ],
)
def test_infinity_is_not_a_class_label(call):
    with pytest.raises(InvalidLabelError, match="inf"):
        call()
