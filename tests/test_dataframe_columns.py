"""Dataframe columns as labels: pandas, polars and Arrow columns (categorical and dictionary
columns counted from their codes, string columns encoded by Arrow) give the results of the same
labels in a Python list, in every face that counts labels."""

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit import ByGroup, ConfusionMatrix, Evaluation
from evalkit import metrics as face
from evalkit._engine._columns import Coded, coded_column, decoded
from evalkit.exceptions import InvalidLabelError, UnknownLabelError


def _chunked(labels):
    cut = len(labels) // 2
    return pa.chunked_array([pa.array(labels[:cut], type=pa.string()), pa.array(labels[cut:], type=pa.string())])


def _dictionary_chunks(labels):
    """Chunks whose dictionaries differ (each chunk encoded alone)."""
    cut = len(labels) // 2
    return pa.chunked_array([pa.array(part, type=pa.string()).dictionary_encode() for part in (labels[:cut], labels[cut:]) if part] or
                            [pa.array([], type=pa.string()).dictionary_encode()])  # fmt: skip


TEXT_FORMS = {
    "pandas category": lambda labels: pd.Series(labels, dtype="category"),
    "pandas category, unused and reversed categories": lambda labels: pd.Series(pd.Categorical(labels, categories=["zz", *sorted(set(labels), reverse=True)])),
    "pandas str": lambda labels: pd.Series(labels, dtype="str"),
    "pandas Categorical": lambda labels: pd.Categorical(labels),
    "arrow string": lambda labels: pa.array(labels, type=pa.string()),
    "arrow large_string, chunked": lambda labels: _chunked(labels).cast(pa.large_string()),
    "arrow dictionary": lambda labels: pa.array(labels, type=pa.string()).dictionary_encode(),
    "arrow dictionary chunks": _dictionary_chunks,
    "polars String": lambda labels: pl.Series(labels, dtype=pl.String),
    "polars Categorical": lambda labels: pl.Series(labels, dtype=pl.Categorical),
    "polars Enum": lambda labels: pl.Series(labels, dtype=pl.Enum(["zz", "c", "b", "a"])),
    "numpy strings": lambda labels: np.array(labels, dtype=str),
}

samples = st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("abc"), st.sampled_from([0.0, 0.5, 1.0, 2.5])), min_size=1, max_size=30)


@pytest.mark.filterwarnings("ignore::UserWarning")  # (one class, or an undefined F1: warned alike for both inputs)
@settings(max_examples=25, deadline=None)
@given(samples, st.sampled_from(list(TEXT_FORMS)), st.sampled_from(list(TEXT_FORMS)), st.booleans(), st.booleans())
def test_text_columns_of_every_library_count_as_their_labels(rows, form_true, form_pred, weighted, fixed):
    y, p = [row[0] for row in rows], [row[1] for row in rows]
    w = np.array([row[2] for row in rows]) if weighted else None
    labels = ["c", "a", "b"] if fixed else None
    columns = TEXT_FORMS[form_true](y), TEXT_FORMS[form_pred](p)
    expected = ConfusionMatrix.from_predictions(y, p, labels, sample_weight=w)
    assert ConfusionMatrix.from_predictions(*columns, labels, sample_weight=w) == expected
    assert Evaluation.from_labels(*columns, labels, sample_weight=w) == Evaluation.from_labels(y, p, labels, sample_weight=w)
    if w is None or w.any():  # (weights that are all 0 the face refuses, as scikit-learn does)
        assert np.array_equal(face.confusion_matrix(*columns, labels=labels, sample_weight=w), face.confusion_matrix(y, p, labels=labels, sample_weight=w))
        assert face.f1_score(*columns, average="macro", sample_weight=w) == face.f1_score(y, p, average="macro", sample_weight=w)


@settings(max_examples=15, deadline=None)
@given(samples, st.integers(0, 300))
def test_a_polars_categorical_counts_from_its_codes_whatever_the_process_wide_categories(rows, others):
    """polars 2 keeps one list of categories for the whole process: a Categorical's codes may be
    far apart in a large list. They are counted from the codes (the categories of the codes
    present read from polars) and give the labels' matrix."""
    pl.Series([f"other{k}" for k in range(others)], dtype=pl.Categorical)  # categories made before (the process's)
    y, p = [f"{row[0]}{others}" for row in rows], [f"{row[1]}{others}" for row in rows]  # (labels new to the process: codes after those)
    expected = ConfusionMatrix.from_predictions(y, p)
    actual, predicted = pl.Series(y, dtype=pl.Categorical), pl.Series(p, dtype=pl.Categorical)
    assert ConfusionMatrix.from_predictions(actual, predicted) == expected
    assert face.f1_score(actual, predicted, average="macro", zero_division=0) == face.f1_score(y, p, average="macro", zero_division=0)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=30))
def test_number_columns_of_codes_count_as_their_numbers(rows):
    y, p = [row[0] for row in rows], [row[1] for row in rows]
    expected = ConfusionMatrix.from_predictions(y, p)
    for columns in ((pd.Series(y, dtype="category"), pd.Series(p, dtype="category")), (pa.array(y).dictionary_encode(), pa.array(p).dictionary_encode()),
                    (pa.array(y), pa.array(p)), (pl.Series(y), pl.Series(p)), (pd.Series(y, dtype="category"), np.array(p))):  # fmt: skip
        found = ConfusionMatrix.from_predictions(*columns)
        assert found == expected and all(type(label) is int for label in found.labels)


def test_a_group_column_of_categories_is_counted_from_its_codes():
    y, p, g = [0, 1, 1, 0, 1], [0, 1, 0, 0, 1], ["x", "y", "x", "z", "y"]
    grouped = ByGroup.from_labels(y, p, pd.Series(g, dtype="category"))
    assert grouped.keys == ByGroup.from_labels(y, p, g).keys == ("x", "y", "z")
    assert all(grouped[name] == ByGroup.from_labels(y, p, g)[name] for name in ("x", "y", "z"))


@pytest.mark.parametrize("column", [
    pd.Series(["a", None, "b"], dtype="category"),
    pa.array(["a", None, "b"]),
    pa.array(["a", None, "b"]).dictionary_encode(),
    pl.Series(["a", None, "b"], dtype=pl.Categorical),
    pd.Series(["a", None, "b"], dtype="str"),
])  # fmt: skip
def test_a_missing_label_in_a_column_is_an_error_naming_it_and_its_position(column):
    with pytest.raises(InvalidLabelError, match=r"'y_true' contains a missing value .*first at position 1"):
        ConfusionMatrix.from_predictions(column, ["a", "a", "b"])
    with pytest.raises(InvalidLabelError, match="'y_pred'"):
        face.accuracy_score(pa.array(["a", "a", "b"]), column)


def test_a_category_outside_fixed_labels_is_named_and_unused_categories_are_not_classes():
    actual = pd.Series(pd.Categorical(["a", "b"], categories=["a", "b", "never"]))
    assert ConfusionMatrix.from_predictions(actual, actual).labels == ("a", "b")
    assert ConfusionMatrix.from_predictions(actual, actual, labels=["a", "b", "never"]).labels == ("a", "b", "never")
    with pytest.raises(UnknownLabelError, match="'y_true' contains 'b'"):
        ConfusionMatrix.from_predictions(actual, actual, labels=["a"])


def test_columns_of_codes_are_read_not_decoded_and_other_columns_are_left_to_numpy():
    column = pd.Series(["b", "a", "b"], dtype="category")
    coded = coded_column(column, "y_true")
    assert isinstance(coded, Coded) and coded.codes.tolist() == [1, 0, 1] and coded.categories == ["a", "b"]
    assert decoded(coded).tolist() == ["b", "a", "b"]
    assert coded_column(column.cat.codes, "y_true") is None and coded_column(pa.array([1.5, 2.5]), "y_true") is None
    assert coded_column(np.array(["a"]), "y_true") is None and coded_column(["a"], "y_true") is None
    assert decoded(Coded(np.array([0, 1]), ["a", 1])).tolist() == ["a", 1]  # (labels of two kinds stay objects)


def test_an_arrow_dictionary_that_holds_a_value_twice_counts_both_entries_as_one_label():
    actual = pa.DictionaryArray.from_arrays(pa.array([0, 1, 2, 3, 1], pa.int32()), pa.array(["b", "a", "c", "b"]))  # b, a, c, b, a
    predicted = ["a", "a", "c", "c", "b"]
    expected = ConfusionMatrix.from_predictions(["b", "a", "c", "b", "a"], predicted)
    assert ConfusionMatrix.from_predictions(actual, pa.array(predicted)) == expected
    assert ConfusionMatrix.from_predictions(actual, actual).labels == ("a", "b", "c")
    assert Evaluation.from_labels(actual, pa.array(predicted)) == Evaluation.from_labels(["b", "a", "c", "b", "a"], predicted)


def test_only_the_categories_that_occur_are_checked_as_labels():
    assert face.accuracy_score(pd.Categorical([1.0, 2.0], categories=[1.0, 2.0, 2.5]), pd.Categorical([1.0, 2.0])) == 1.0
    assert ConfusionMatrix.from_predictions(pd.Categorical([True, False], categories=[True, False, 99]), pd.Categorical([True, True])).labels == (False, True)


SET_FORMS = {
    "arrow list": lambda sets: pa.array(sets, type=pa.list_(pa.string())),
    "arrow large_list, chunked": lambda sets: pa.chunked_array([pa.array(sets[:1], type=pa.large_list(pa.string())),
                                                                pa.array(sets[1:], type=pa.large_list(pa.string()))]),
    "polars List": lambda sets: pl.Series(sets, dtype=pl.List(pl.String)),
    "pandas Arrow list": lambda sets: pd.Series(sets, dtype=pd.ArrowDtype(pa.list_(pa.string()))),
    "python lists": lambda sets: sets,
}

label_sets = st.lists(st.tuples(st.lists(st.sampled_from("abc"), max_size=3), st.lists(st.sampled_from("abc"), max_size=3), st.sampled_from("xy")),
                      min_size=1, max_size=20)  # fmt: skip


@settings(max_examples=25, deadline=None)
@given(label_sets, st.sampled_from(list(SET_FORMS)), st.sampled_from(list(SET_FORMS)))
def test_columns_of_lists_count_as_one_label_set_per_sample_in_every_face(rows, form_true, form_pred):
    from evalkit import LabelSetCounts, SetCoverage

    truth, guess, groups = [row[0] for row in rows], [row[1] for row in rows], [row[2] for row in rows]
    if not any(truth) and not any(guess):
        return  # (no label anywhere: nothing to evaluate, however given)
    columns = SET_FORMS[form_true](truth), SET_FORMS[form_pred](guess)
    expected = Evaluation.from_label_sets([set(row) for row in truth], [set(row) for row in guess])
    assert Evaluation.from_label_sets(*columns) == expected
    counts, pairs = LabelSetCounts(), LabelSetCounts(keep_pairs=True)
    counts.update(*columns)
    pairs.update(*columns)
    reference = LabelSetCounts(keep_pairs=True)
    reference.update(truth, guess)
    assert counts.to_evaluation() == expected.compact() and pairs == reference
    assert ByGroup.from_label_sets(*columns, groups).results == ByGroup.from_label_sets(truth, guess, groups).results
    actual = [row[0] if row else "a" for row in truth]
    assert SetCoverage.from_sets(actual, columns[1], labels=["a", "b", "c"]) == SetCoverage.from_sets(actual, guess, labels=["a", "b", "c"])


@pytest.mark.parametrize("column", [pa.array([["a"], None]), pl.Series([["a"], None]), pa.array([["a"], ["b", None]])])
def test_a_missing_label_set_or_label_in_a_column_of_lists_is_an_error_naming_its_position(column):
    with pytest.raises(InvalidLabelError, match="missing .* position 1"):
        Evaluation.from_label_sets(column, [["a"], ["b"]])


def test_fixed_size_list_columns_stay_indicator_rows_and_scalars_are_no_columns():
    from evalkit import SetCoverage, ThresholdCurve, by_group
    from evalkit.exceptions import InvalidTypeError

    rows_true, rows_pred = [[1, 0, 1], [0, 1, 0], [1, 1, 0]], [[1, 0, 0], [0, 1, 1], [1, 0, 0]]
    actual, predicted = (pl.Series(rows, dtype=pl.Array(pl.Int64, 3)) for rows in (rows_true, rows_pred))
    assert by_group(actual, predicted, ["a", "b", "a"]).overall == by_group(np.array(rows_true), np.array(rows_pred), ["a", "b", "a"]).overall
    assert SetCoverage.from_sets([0, 1, 2], actual).mean_size() == SetCoverage.from_sets([0, 1, 2], np.array(rows_true)).mean_size()
    scores = np.array([[0.9, 0.1, 0.8], [0.2, 0.7, 0.4], [0.6, 0.5, 0.1]])
    assert ThresholdCurve.from_scores(actual, scores) == ThresholdCurve.from_scores(np.array(rows_true), scores)
    with pytest.raises(InvalidTypeError):
        Evaluation.from_label_sets(pa.scalar(["a"]), [["a"]])


def test_groups_of_label_sets_of_other_lengths_are_refused():
    from evalkit.exceptions import InputLengthError

    sets = [["a"], ["b"], ["a", "b"], []]
    for actual, predicted in ((pa.array(sets[:3]), pa.array(sets)), (sets, sets[:3])):
        with pytest.raises(InputLengthError):
            ByGroup.from_label_sets(actual, predicted, [1, 1, 2, 2][: len(actual)])


def test_columns_of_lists_of_numbers_booleans_and_dictionaries_read_as_the_same_python_lists():
    from evalkit.exceptions import EvalkitError

    cases = [([[1, 2], [], [2]], [[1], [2], [2, 3]]),  # numbers
             ([[1.0, 2.5], [2.5]], [[1, 2], [1]]),  # floats beside ints: 1.0 is the class 1
             ([[True], [False, True]], [[1], [0]])]  # booleans are no numbers: refused alike
    for actual, predicted in cases:
        outcomes = []
        for inputs in ((actual, predicted), (pa.array(actual), pa.array(predicted))):
            try:
                outcomes.append(Evaluation.from_label_sets(*inputs))
            except EvalkitError as error:
                outcomes.append(type(error))
        assert outcomes[0] == outcomes[1], (actual, predicted)
    words = pa.array([["b", "a"], [], ["a"]], type=pa.list_(pa.dictionary(pa.int8(), pa.string())))
    assert Evaluation.from_label_sets(words, words) == Evaluation.from_label_sets([["b", "a"], [], ["a"]], [["b", "a"], [], ["a"]])
    for bad in (pa.array([[1.0, float("nan")]]), pa.array([[[1], [2]]])):  # a NaN label; lists inside the lists
        with pytest.raises(EvalkitError):
            Evaluation.from_label_sets(bad, bad)


def test_arrow_fixed_size_list_columns_are_label_sets_where_label_sets_are_asked_for_and_tables_elsewhere():
    from evalkit import SetCoverage

    labels = pa.FixedSizeListArray.from_arrays(pa.array(["a", "b", "b", "c"]), 2)
    assert Evaluation.from_label_sets(labels, [["a", "b"], ["b", "c"]]) == Evaluation.from_label_sets([["a", "b"], ["b", "c"]], [["a", "b"], ["b", "c"]])
    words = pl.Series([["a", "b"], ["b", "c"]], dtype=pl.Array(pl.String, 2))
    assert Evaluation.from_label_sets(words, words) == Evaluation.from_label_sets([["a", "b"], ["b", "c"]], [["a", "b"], ["b", "c"]])
    rows = [[1, 0, 1], [0, 1, 0]]
    table = pa.FixedSizeListArray.from_arrays(pa.array([value for row in rows for value in row]), 3)  # a table of 0/1 indicator rows
    assert Evaluation.from_indicators(table, table) == Evaluation.from_indicators(np.array(rows), np.array(rows))
    assert SetCoverage.from_sets([0, 1], table).mean_size() == SetCoverage.from_sets([0, 1], np.array(rows)).mean_size()
