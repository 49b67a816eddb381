"""Reports of predictions that abstain or give sets or intervals: ``evalkit report FILE
--confidence C``, ``--sets S`` and ``--interval LOW,HIGH`` read a file in batches into the
same results as the objects counted in memory, in every format, with the HTML page."""

import csv
import io
import json
import re

import numpy as np
import pytest

from evalkit import IntervalCoverage, RiskCoverage, SetCoverage
from evalkit.cli import main
from evalkit.io._coverage_report import COVERAGES, CoverageReport

CLASSES = ["cat", "dog", "emu"]


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def predictions(tmp_path):
    """A file of 300 predictions with a confidence, a prediction set and a region per row."""
    rng = np.random.default_rng(3)
    n = 300
    actual = rng.choice(CLASSES, n)
    confidence = np.round(rng.random(n), 2)
    predicted = np.where(rng.random(n) < confidence, actual, rng.choice(CLASSES, n))
    sets = ["|".join(sorted({p} | ({a} if rng.random() < 0.5 else set()))) for a, p in zip(actual, predicted)]
    region = rng.choice(["north", "south"], n)
    path = tmp_path / "predictions.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["actual", "predicted", "confidence", "set", "region"])
        writer.writerows(zip(actual, predicted, confidence, sets, region))
    return str(path), actual.tolist(), predicted.tolist(), confidence, [set(s.split("|")) for s in sets], region.tolist()


@pytest.fixture
def intervals(tmp_path):
    rng = np.random.default_rng(4)
    n = 300
    truth = np.round(rng.normal(size=n), 3)
    prediction = np.round(truth + rng.normal(scale=0.5, size=n), 3)
    path = tmp_path / "intervals.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["actual", "predicted", "low", "high"])
        writer.writerows(zip(truth, prediction, np.round(prediction - 0.8, 3), np.round(prediction + 0.8, 3)))
    return str(path), truth, prediction


def test_the_risk_coverage_report_reads_what_the_object_counts(capsys, predictions, tmp_path):
    path, actual, predicted, confidence, _, _ = predictions
    curve = RiskCoverage.from_predictions(actual, predicted, confidence)
    status, out, _ = run(capsys, "report", path, "--confidence", "confidence", "--format", "json", "--batch-size", "70", "--html", str(tmp_path / "page.html"))
    readings = json.loads(out)["readings"]
    assert status == 0 and readings["samples"] == 300
    assert readings["AURC"] == pytest.approx(curve.aurc(), rel=1e-12) and readings["excess AURC"] == pytest.approx(curve.excess_aurc(), rel=1e-12)
    assert all(readings[f"risk at {c:.0%} coverage"] == pytest.approx(curve.risk_at(c)) for c in COVERAGES)
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert "<svg" in page and "Risk-coverage curve" in page and "excess AURC" in page
    status, text, _ = run(capsys, "report", path, "--confidence", "confidence")
    assert text.startswith(f"evalkit risk-coverage report: {path}") and re.search(rf"^AURC +{curve.aurc():.3f}$", text, re.MULTILINE)


def test_the_prediction_set_report_reads_what_the_object_counts(capsys, predictions):
    path, actual, _, _, sets, region = predictions
    result = SetCoverage.from_sets(actual, sets, groups=region)
    status, out, _ = run(capsys, "report", path, "--sets", "set", "--group", "region", "--format", "json")
    document = json.loads(out)
    assert status == 0 and document["readings"]["coverage"] == pytest.approx(result.coverage())
    assert document["readings"]["mean set size"] == pytest.approx(result.mean_size())
    tables = {table["caption"]: {row[0]: row[-1] for row in table["rows"]} for table in document["tables"]}
    assert tables["Coverage per class"] == pytest.approx(result.class_coverage())
    assert tables["Coverage per group"] == pytest.approx(result.group_coverage())
    status, markdown, _ = run(capsys, "report", path, "--sets", "set", "--format", "markdown")
    assert "| singleton accuracy |" in markdown and "**Coverage per set size**" in markdown


def test_the_prediction_interval_report_reads_what_the_object_counts(capsys, intervals, tmp_path):
    path, truth, prediction = intervals
    result = IntervalCoverage.from_intervals(truth, prediction - 0.8, prediction + 0.8, y_pred=prediction, edges=[-1, 0, 1])
    status, out, _ = run(capsys, "report", path, "--interval", "low,high", "--predicted", "predicted", "--edges=-1,0,1", "--interval-level", "0.8",
                         "--format", "csv")  # fmt: skip
    rows = list(csv.reader(io.StringIO(out)))
    values = {row[1]: float(row[3]) for row in rows[1:] if row[0] == "readings"}
    assert status == 0 and values["coverage"] == pytest.approx(result.coverage())
    assert values["interval score at 0.8"] == pytest.approx(result.interval_score(0.8), rel=1e-9)
    bins = {row[1]: float(row[3]) for row in rows if row[0].startswith("Coverage per bin") and row[2] == "coverage"}
    assert list(bins) == ["< -1", "[-1, 0)", "[0, 1)", ">= 1"]  # the predictions beyond the edges in bins of their own
    inside = (prediction >= -1) & (prediction < 1)
    assert [bins["[-1, 0)"], bins["[0, 1)"]] == pytest.approx(
        IntervalCoverage.from_intervals(truth[inside], prediction[inside] - 0.8, prediction[inside] + 0.8, y_pred=prediction[inside], edges=[-1, 0, 1]).bin_coverage().tolist())
    for name, beyond in (("< -1", prediction < -1), (">= 1", prediction >= 1)):
        low, high = np.round(prediction[beyond] - 0.8, 3), np.round(prediction[beyond] + 0.8, 3)  # the file's bounds, counted by hand
        assert bins[name] == pytest.approx(np.mean((low <= truth[beyond]) & (truth[beyond] <= high)))


def test_bad_coverage_options_end_with_one_line(capsys, predictions, tmp_path):
    path, *_ = predictions
    cases = [
        (("--confidence", "confidence", "--sets", "set"), "two reports"),
        (("--confidence", "confidence", "--score", "confidence"), "--score is an option of another report"),
        (("--interval", "low"), "LOW,HIGH"),
        (("--edges=1,2",), "--interval-level and --edges are options of --interval"),
        (("--confidence", "nothing"), "nothing"),
    ]
    for options, message in cases:
        status, _, err = run(capsys, "report", path, *options)
        assert status == 2 and message in err and err.count("\n") == 1, (options, err)
    crossed = tmp_path / "crossed.csv"
    crossed.write_text("actual,low,high\n1.0,0.0,2.0\n1.0,3.0,2.0\n", encoding="utf-8")
    status, _, err = run(capsys, "report", str(crossed), "--interval", "low,high")
    assert status == 2 and f"{crossed}:3" in err and "lower bound must not exceed its upper bound" in err


def test_a_report_of_each_kind_renders_in_every_format():
    reports = [CoverageReport.of_risk_coverage(RiskCoverage.from_predictions([0, 1, 1], [0, 1, 0], [0.9, 0.6, 0.7], sample_weight=[0.5, 1, 2])),
               CoverageReport.of_sets(SetCoverage.from_sets([0, 1], np.array([[1, 0], [1, 1]]))),
               CoverageReport.of_intervals(IntervalCoverage.from_intervals([1.0], [0.0], [2.0]))]  # fmt: skip
    for report in reports:
        assert report.to_text() and report.to_markdown().startswith("| reading |") and report.to_csv().startswith("table,row,column,value")
        assert json.loads(report.to_json())["readings"] and report.to_html().startswith("<!DOCTYPE html>")
    assert reports[0].to_dict()["tables"][0]["rows"][0][2] is None  # weighted counts: no Wilson interval, shown as undefined


def test_interval_bins_are_named_by_what_they_hold_and_predictions_beyond_the_edges_get_their_own(capsys, tmp_path):
    path = tmp_path / "i.csv"  # predictions 1, 3, 6, 0, 7: two below 2, one in [2, 5), two at or above 5; the last interval misses
    path.write_text("actual,low,high,predicted\n1,0,2,1\n3,2,4,3\n4,3,5,6\n0,-1,1,0\n9,6,8,7\n", encoding="utf-8")
    status, out, _ = run(capsys, "report", str(path), "--interval", "low,high", "--predicted", "predicted", "--edges", "2,5", "--format", "json")
    rows = {row[0]: row[1:] for row in json.loads(out)["tables"][0]["rows"]}
    assert status == 0 and rows == {"< 2": [2, 1.0], "[2, 5)": [1, 1.0], ">= 5": [2, 0.5]}
    api = CoverageReport.of_intervals(IntervalCoverage.from_intervals([1, 3, 4, 0, 9], [0, 2, 3, -1, 6], [2, 4, 5, 1, 8], y_pred=[1, 3, 6, 0, 7], edges=[0, 2, 5]))
    assert [row[:2] for row in api.tables[0][2]] == [("< 2", 2), (">= 2", 3)]  # the API's end bins take what lies beyond its edges, and say so
    status, _, err = run(capsys, "report", str(path), "--interval", "low,high", "--edges", "5,2")
    assert status == 2 and "--edges takes increasing finite numbers" in err


def test_the_risk_coverage_chart_spans_the_risks_with_ticks_of_the_digits_asked(capsys, predictions, tmp_path):
    from evalkit.io._html import round_span

    path, actual, predicted, confidence, *_ = predictions
    curve = RiskCoverage.from_predictions(actual, predicted, confidence)
    page = tmp_path / "r.html"
    assert run(capsys, "report", path, "--confidence", "confidence", "--html", str(page), "--digits", "2")[0] == 0
    text = page.read_text(encoding="utf-8")
    top = max(float(np.max(curve.risk)), float(np.max(curve.oracle_risk()[1])))
    low, high = round_span(0.0, top, digits=2)
    assert (low, high) == (0.0, 0.4) and top == pytest.approx(1 / 3)  # the axis ends at the first round value above the highest risk, not at 1
    labels = re.findall(r'text-anchor="end">([^<]*)</text>', text)
    assert labels[0] == "0.00" and labels[-1] == f"{high:.2f}" and all(re.fullmatch(r"\d\.\d\d", label) for label in labels)
