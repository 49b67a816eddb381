"""The table model every report is written by: one set of writers (text, Markdown, CSV, LaTeX,
HTML) over columns, rows, a title and notes, and reports that give their tables."""

import csv
import io
import math
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalkit
from evalkit import ConfusionMatrix, ModelComparison, SetCoverage, ThresholdCurve, gains_table
from evalkit._results.table import Strong, Table
from evalkit.io import CoverageReport, OverTime


def test_text_aligns_names_left_and_numbers_right_with_headings_blank_lines_and_notes():
    table = Table(("", "recall", "n"), (("cat", 0.75, 4), ("dog", math.nan, 2), (), ("a long heading of one cell",), ("avg", -0.0001, 6)),
                  title="Per class", notes=("* a note",))  # fmt: skip
    assert table.to_text(2).split("\n") == [
        "Per class",
        "     recall      n",  # the headers over their columns, every column at least digits + 3 wide
        "cat    0.75      4",
        "dog   undef      2",
        "",
        "a long heading of one cell",  # a heading runs past the names without widening them
        "avg    0.00      6",  # no -0.00
        "",
        "* a note",
    ]


def test_markdown_escapes_bars_and_bolds_the_best_leaving_separators_out():
    table = Table(("model", "a|b"), (("x", Strong("0.9")), (), ("y|z", 0.25)), title="T", notes=("n|1",))
    assert table.to_markdown(2).split("\n") == ["**T**", "", "| model | a\\|b |", "|---|---:|", "| x | **0.9** |", "| y\\|z | 0.25 |", "", "n\\|1  "]


def test_csv_keeps_full_precision_and_leaves_undefined_cells_empty():
    table = Table(("name", "value", "count"), (("a", 1 / 3, 2), (), ("b", math.nan, None), ("c", np.float64(0.1), np.int64(7))))
    rows = list(csv.reader(io.StringIO(table.to_csv())))
    assert rows == [["name", "value", "count"], ["a", repr(1 / 3), "2"], ["b", "", ""], ["c", "0.1", "7"]]
    assert float(rows[1][1]) == 1 / 3


def test_latex_escapes_specials_marks_the_best_and_rules_the_groups():
    latex = Table(("data set", "a_1"), (("x&y", Strong("0.9 (1.0)")), (), ("avg", "1.00")), notes=("50% of it",)).to_latex()
    assert latex.split("\n") == [r"\begin{tabular}{lr}", r"\hline", r"data set & a\_1 \\", r"\hline", r"x\&y & \textbf{0.9 (1.0)} \\", r"\hline",
                                 r"avg & 1.00 \\", r"\hline", r"\end{tabular}", "% 50% of it"]  # fmt: skip


def test_html_escapes_every_text():
    fragment = Table(("<b>", "value"), (("a<script>", 0.5),), title="t&t").to_html()
    assert "<script>" not in fragment and "&lt;script&gt;" in fragment and "t&amp;t" in fragment and "&lt;b&gt;" in fragment


@given(st.lists(st.tuples(st.text("abc xyz", min_size=1, max_size=12), st.lists(st.floats(-1e6, 1e6) | st.integers(-9999, 9999), min_size=3, max_size=3)),
                min_size=1, max_size=8), st.integers(0, 6))  # fmt: skip
def test_every_full_row_of_the_text_ends_where_the_header_does(rows, digits):
    table = Table(("", "first", "second", "third"), ((name.strip() or "x", *cells) for name, cells in rows))
    lines = table.to_text(digits).split("\n")
    assert len({len(line) for line in lines}) == 1  # the last column right-aligned in every row


def _reports():
    cm = ConfusionMatrix.from_predictions(["a", "b", "b", "c", "a", "c"], ["a", "b", "c", "c", "b", "c"])
    curve = ThresholdCurve.from_scores([1, 0, 1, 0, 1, 0], [0.9, 0.8, 0.7, 0.4, 0.35, 0.1])
    comparison = ModelComparison({"a": [0.9, 0.8, 0.7], "b": [0.8, 0.8, 0.6], "c": [0.7, 0.75, 0.65]}, datasets=["x", "y", "z"])
    window = {"window": 1, "end": 2, "samples": 2, "accuracy": 1.0, "accuracy_low": 0.34, "accuracy_high": 1.0, "macro f1_score": 1.0}
    return {
        "Report": cm.report(),
        "GroupReport": evalkit.by_group(["a", "b", "b", "a"], ["a", "b", "a", "a"], ["x", "x", "y", "y"]).report(),
        "CoverageReport": CoverageReport.of_sets(SetCoverage.from_sets(["a", "b"], [{"a"}, {"a", "b"}])),
        "OverTime": OverTime("tumbling windows of 2 samples", ("macro f1_score",), (window,)),
        "GainsTable": gains_table(curve, groups=3),
        "ModelComparison": comparison,
        "PairwiseTests": comparison.pairwise("nemenyi"),
    }


@pytest.mark.parametrize("name", sorted(_reports()))
def test_every_report_is_written_by_its_tables(name):
    report = _reports()[name]
    tables = report.as_tables(3)
    assert tables and all(isinstance(table, Table) for table in tables)
    assert report.to_text(3) == "\n\n".join(table.to_text(3) for table in tables)
    assert report.to_markdown(3) == "\n\n".join(table.to_markdown(3) for table in tables)
    assert report.to_csv() == report.csv_table().to_csv() and str(report) == report.to_text()
    assert not [writer for writer in ("to_text", "to_markdown", "to_csv") if writer in vars(type(report))]  # written by the model, not by itself


def test_a_report_csv_reads_back_its_numbers_exactly():
    cm = ConfusionMatrix.from_predictions([0, 1, 1, 2, 2, 2], [0, 1, 2, 2, 2, 1], sample_weight=[0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    report = cm.report(measures=["precision", "recall"])
    rows = {row["name"]: row for row in csv.DictReader(io.StringIO(report.to_csv()))}
    for label in report.labels:
        assert [float(rows[str(label)][measure]) for measure in ("precision", "recall")] == [float(value) for value in report.per_class[label]]
    assert float(rows["accuracy"]["value"]) == report.summary["accuracy"]


def test_str_of_a_report_is_its_text():
    report = ConfusionMatrix.from_predictions([0, 1, 1, 0], [0, 1, 0, 0]).report()
    assert str(report) == report.to_text() and str(report).startswith("class") and "Confusion matrix (rows actual" in str(report)


def test_a_table_refuses_rows_wider_than_its_columns_and_writes_its_columns_as_text():
    with pytest.raises(evalkit.exceptions.InvalidArgumentError, match="at most the 2 columns"):
        Table(("a", "b"), ((1, 2, 3),))
    with pytest.raises(evalkit.exceptions.InvalidArgumentError, match="at least one column"):
        Table((), ())
    assert Table(("name", 1), (("a", 0.5),)).to_text(1).split("\n")[:2] == ["name     1", "a      0.5"]


def test_html_cells_are_the_text_cells():
    window = {"window": 1, "end": 2, "samples": 1234567.25, "accuracy": 0.5, "accuracy_low": 0.34, "accuracy_high": 1.0, "macro f1_score": -1e-05}
    page = OverTime("tumbling windows", ("macro f1_score",), (window,)).to_html(2)
    assert "<td>1234567.25</td>" in page and "<td>0.00</td>" in page and "e+06" not in page


def test_a_newline_in_a_label_or_note_never_breaks_a_table():
    """A label with a line break (hostile input) stays in its cell: one line per row in every
    writer, and a LaTeX note stays a comment."""
    report = ConfusionMatrix.from_predictions(["a", "x\ny"], ["a", "a"]).report()
    table = report.as_tables()[0]
    assert len(table.to_text().split("\n")) == len(table.to_text().replace("x y", "").split("\n"))
    assert all(line.startswith("%") or line.endswith(("\\\\", "}", "\\hline")) for line in table.to_latex().split("\n"))
    assert all(line.startswith("|") or not line.strip() or line.endswith("  ") for line in table.to_markdown().split("\n"))
    assert "x y" in table.to_text() and "x\ny" in table.to_csv()  # CSV quotes the line break and keeps it


@pytest.mark.parametrize("digits", [-1, 2.5, True, "3"])
def test_digits_that_are_not_a_count_of_decimals_are_refused(digits):
    report = ConfusionMatrix.from_predictions([0, 1], [0, 1]).report()
    with pytest.raises(evalkit.exceptions.InvalidArgumentError, match="'digits'"):
        report.to_text(digits)
    with pytest.raises(evalkit.exceptions.InvalidArgumentError, match="'digits'"):
        Table(("a",), (("x",),)).to_markdown(digits)


def test_a_string_is_not_taken_for_a_list_of_columns_or_cells():
    with pytest.raises(evalkit.exceptions.InvalidTypeError, match="'columns'"):
        Table("abc", ())
    with pytest.raises(evalkit.exceptions.InvalidTypeError, match="'rows'"):
        Table(("a", "b"), ("xy",))


@pytest.mark.parametrize("level", ["x", 1.5, 0, 1, -1, True])
def test_a_coverage_report_refuses_a_level_outside_zero_to_one(level):
    result = SetCoverage.from_sets(["a", "b"], [{"a"}, {"a"}])
    with pytest.raises(evalkit.exceptions.EvalkitError, match="level"):
        CoverageReport.of_sets(result, level=level)


def test_huge_counts_and_values_print_compactly_and_whole_counts_below_them_as_integers():
    # a float of 1e16 or more in size shows in scientific notation (as Python and numpy print
    # it), never as its hundreds of fixed-point digits; whole float counts below it as integers
    from evalkit._engine._validation import count_text
    from evalkit._results.table import shown

    assert (shown(1e300, 3), shown(-2.5e20, 2), shown(1e16, 0), shown(9.5e15, 1)) == ("1.000e+300", "-2.50e+20", "1e+16", "9500000000000000.0")
    assert (count_text(1e300, 3), count_text(1e300), count_text(9e15), count_text(2.5, 2), count_text(10**20)) == ("1.000e+300", "1e+300", "9000000000000000", "2.50",
                                                                                                                   "100000000000000000000")  # fmt: skip
    cm = ConfusionMatrix.from_predictions([0, 1, 1], [0, 1, 0], sample_weight=[1e300, 1, 2.5])
    report = cm.report()
    for text in (report.to_text(), report.to_markdown(), report.to_html(), str(cm)):
        assert not re.search(r"\d{20}", text), text
    assert "1.000e+300" in report.to_text() and "1e+300" in str(cm)
    counted = ConfusionMatrix.from_predictions([0, 1, 1], [0, 1, 0], sample_weight=[1e20, 1, 2.5]).report(measures=["precision", "true_positive"])
    assert [row.split()[2:] for row in counted.to_text().split("\n")[1:3]] == [["1.000e+20", "1.000e+20"], ["1", "3.500"]]
    assert ConfusionMatrix.from_predictions([0, 1], [0, 1], sample_weight=[2.0, 1.0]).report().to_text().split("\n")[1].split()[-1] == "2"


def test_an_empty_or_blank_label_is_named_by_its_quoted_text_in_every_rendering():
    # "" (and " ") would leave a row without a name, as scikit-learn's report does; tables,
    # pages, plots and str() show it quoted, '' (and a label that reads '' is quoted apart);
    # CSV and JSON keep the label itself
    from evalkit import by_group, plots

    cm = ConfusionMatrix.from_predictions(["", "a", "a", " ", "''"], ["", "a", "", " ", "''"])
    report = cm.report()
    names = ["''", "' '", '"\'\'"', "a"]
    assert [row[0] for row in report.as_tables()[0].rows[:4]] == names
    assert all(line.startswith(f"{name}  ") for line, name in zip(report.to_text().split("\n")[1:5], names))
    matrix = report.as_tables()[-1]
    assert list(matrix.columns[1:]) == names and [row[0] for row in matrix.rows] == names
    assert "\n| '' | 0.500 |" in report.to_markdown() and "<th scope=\"row\">&#x27;&#x27;</th>" in report.to_html()
    assert [line.split("|")[0].strip() for line in str(cm).split("\n")[3:5]] == ["''", "' '"]
    assert [tick.get_text() for tick in plots.confusion_matrix(cm).get_xticklabels()][:2] == ["''", "' '"]
    assert next(csv.reader(io.StringIO(report.to_csv().split("\n", 1)[1])))[0] == "" and report.to_dict()["classes"][""]["support"] == 1
    groups = by_group(["a", "b", "a"], ["a", "b", "b"], ["", "x", ""]).report().to_text()
    assert groups.split("\n")[1].split()[0] == "''" and "accuracy x vs ''" in groups


def test_a_notebook_table_keeps_significant_digits_and_a_heat_map_shades_any_counts():
    """A quick look in a notebook shows small values as they are (not 0.0000); the shares of a
    heat map's row never overflow, even at float64's largest counts."""
    from evalkit import Interval

    fragment = Interval(1.234e-5, 2e-7, 3.4e-4, 0.95, "wilson")._repr_html_()
    assert "1.234e-05" in fragment and "0.0000" not in fragment
    page = Table(("", "a", "b"), (("a", 1.5e308, 1.5e308),), role="heatmap").to_html()
    assert page.count('title="50.0% of the row"') == 2
