"""The HTML report: its structure read back with an HTML parser, and the page rendered by a real
headless browser (Chromium, installed by .ci/run) without console errors."""

import re
import shutil
import subprocess
from html.parser import HTMLParser

import numpy as np
import pytest

from evalkit import ConfusionMatrix, Evaluation, ThresholdCurve
from evalkit.cli import main
from evalkit.datasets import load_example
from evalkit.io._report import build_report


class Structure(HTMLParser):
    """Tags, attributes and the text of every table cell, by table class."""

    def __init__(self):
        super().__init__()
        self.tags, self.attributes, self.tables, self.text = [], [], {}, []
        self._table, self._row = None, None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes += attrs
        if tag == "table":
            self._table = dict(attrs).get("class")
            self.tables[self._table] = []
        elif tag == "tr" and self._table is not None:
            self._row = []
            self.tables[self._table].append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._row.append("")

    def handle_endtag(self, tag):
        if tag == "table":
            self._table, self._row = None, None

    def handle_data(self, data):
        self.text.append(data)
        if self._row is not None and self._row:
            self._row[-1] += data.strip()


def parse(page):
    parser = Structure()
    parser.feed(page)
    return parser


def scored_example():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 400)
    s = np.clip(0.3 * y + rng.normal(0.35, 0.2, 400), 0, 1)
    return y, s


def test_the_page_holds_the_table_the_heat_map_and_the_curves():
    y, s = scored_example()
    curve = ThresholdCurve.from_scores(y, s)
    matrix = ConfusionMatrix.from_predictions(y, (s >= 0.5).astype(int))
    report = build_report(matrix)
    structure = parse(report.to_html(curve=curve, title="scores <&> test"))
    rows = structure.tables["metrics"]
    assert rows[0] == ["class", "precision", "recall", "f1-score", "specificity", "mcc", "support"]
    assert [row[0] for row in rows[1:]] == ["0", "1", "micro avg", "macro avg", "weighted avg"]
    assert rows[1][1] == f"{report.per_class[0][0]:.3f}" and rows[1][-1] == str(report.support[0])
    heatmap = structure.tables["heatmap"]
    assert [row[1:] for row in heatmap[1:]] == [[str(c) for c in row] for row in matrix.to_array().tolist()]
    assert structure.tags.count("svg") == 2 and structure.tags.count("polyline") == 2  # the positive class of the binary scores, in each chart
    text = "".join(structure.text)
    assert f"1: AUC {curve.roc_auc():.3f}" in text and f"1: AP {curve.average_precision():.3f}" in text and "0: AUC" not in text
    assert "scores <&> test" in "".join(structure.text)  # escaped, then read back as text


def test_the_page_is_self_contained():
    y, s = scored_example()
    page = build_report(ConfusionMatrix.from_predictions(y, (s > 0.5).astype(int))).to_html(curve=ThresholdCurve.from_scores(y, s))
    structure = parse(page)
    assert "script" not in structure.tags and "link" not in structure.tags and "img" not in structure.tags
    assert not [value for name, value in structure.attributes if name in ("src", "href")]
    assert not re.search(r"url\(|@import|https?:", page)


def test_multi_label_and_many_classes_render_without_a_matrix():
    evaluation = Evaluation.from_label_sets([{"a", "b"}, {"c"}, set()], [{"a"}, {"c", "b"}, {"b"}])
    structure = parse(build_report(evaluation).to_html())
    assert "heatmap" not in structure.tables
    assert [row[0] for row in structure.tables["metrics"][1:]][-1].startswith("samples avg")


def test_the_command_line_writes_the_page(tmp_path):
    y, s = scored_example()
    data = tmp_path / "scores.csv"
    data.write_text("actual,score\n" + "".join(f"{a},{b:.5f}\n" for a, b in zip(y, s)), encoding="utf-8")
    page = tmp_path / "out.html"
    assert main(["report", str(data), "--score", "score", "--html", str(page), "--output", str(tmp_path / "out.txt")]) == 0
    structure = parse(page.read_text(encoding="utf-8"))
    assert structure.tags.count("svg") == 2
    auc = ThresholdCurve.from_scores(y, np.round(s, 5)).roc_auc()
    assert f"AUC {auc:.3f}" in "".join(structure.text)
    assert main(["report", "--html", str(tmp_path / "missing" / "x.html")]) == 2


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if shutil.which(name):
            return shutil.which(name)
    pytest.fail("Chromium is not installed: .ci/run installs it (apt-get install chromium)")


BROWSER_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--enable-logging=stderr", "--v=0"]


def rendered_dom(page, profile):
    """The DOM Chromium builds from the page, after asserting it logged no console error."""
    flags = [*BROWSER_FLAGS, f"--user-data-dir={profile}"]
    dom = subprocess.run([chromium(), *flags, "--dump-dom", page.as_uri()], capture_output=True, check=False, text=True, timeout=120)
    console = [line for line in dom.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    assert dom.returncode == 0 and not console, (page.name, dom.returncode, console)
    return parse(dom.stdout)


@pytest.mark.slow
def test_a_headless_browser_renders_the_page_without_console_errors(tmp_path):
    y, s = scored_example()
    true, pred = load_example()
    page = tmp_path / "report.html"
    page.write_text(build_report(ConfusionMatrix.from_predictions(true, pred)).to_html(curve=ThresholdCurve.from_scores(y, s)), encoding="utf-8")
    rendered = rendered_dom(page, tmp_path / "profile")  # the DOM after rendering: the table is there
    assert [row[0] for row in rendered.tables["metrics"][1:4]] == ["setosa", "versicolor", "virginica"]
    shot = tmp_path / "shot.png"
    flags = [*BROWSER_FLAGS, f"--user-data-dir={tmp_path / 'profile'}"]
    subprocess.run([chromium(), *flags, f"--screenshot={shot}", "--window-size=1000,1400", page.as_uri()], capture_output=True, check=False, timeout=120)
    from PIL import Image

    pixels = np.asarray(Image.open(shot).convert("L"))
    assert pixels.shape == (1400, 1000) and pixels.min() < 100 < pixels.max()  # text drawn on a light page


@pytest.mark.slow
def test_the_binary_many_class_and_group_pages_render_in_a_browser(tmp_path):
    """The other page shapes a report takes: both classes of a binary curve with a reliability
    diagram, one small chart per class, and a group report's dot plots."""
    from evalkit import Calibration, by_group

    y, s = scored_example()
    binary = build_report(ConfusionMatrix.from_predictions(y, (s >= 0.5).astype(int)), calibration=Calibration.from_scores(y, s, bins=10))
    rng = np.random.default_rng(1)
    labels = rng.integers(0, 12, 600)
    scores = rng.dirichlet(np.ones(12), 600)
    many = build_report(ConfusionMatrix.from_predictions(labels, scores.argmax(axis=1)), measures=["recall"])
    groups = by_group(y, (s >= 0.5).astype(int), rng.choice(["a", "b", "c"], len(y))).report(["accuracy", "recall"])
    pages = {"binary.html": binary.to_html(curve=ThresholdCurve.from_scores(y, s)),
             "many.html": many.to_html(curve=ThresholdCurve.from_scores(labels, scores)),
             "groups.html": groups.to_html()}  # fmt: skip
    for name, html in pages.items():
        page = tmp_path / name
        page.write_text(html, encoding="utf-8")
        rendered = rendered_dom(page, tmp_path / "profile")
        assert rendered.tags.count("svg") == html.count("<svg") > 0, name  # every chart survives rendering


def test_the_page_reads_as_a_newcomer_reads_it():
    """Summary intervals sit in the summary table, not under a measure's column; the note on
    undefined values appears only when a value is undefined; a reliability diagram's bars have
    their own axis of counts; many classes get a small chart each; a group plot's ticks are
    round numbers."""
    y, s = scored_example()
    matrix = ConfusionMatrix.from_predictions(y, (s >= 0.5).astype(int))
    structure = parse(build_report(matrix, measures=["precision", "recall"], confidence=0.9, n_resamples=200).to_html())
    summary = structure.tables["summary"]
    assert summary[0] == ["measure", "value", "interval"] and summary[1][0] == "accuracy" and summary[1][2].startswith("[")
    assert [row[0] for row in structure.tables["intervals"][1:]] == ["micro avg", "macro avg", "weighted avg"]  # averages only
    assert not any("undefined" in text for text in structure.text if "{" not in text)  # (the style sheet names its undefined cells)
    gaps = parse(build_report(ConfusionMatrix.from_array([[3, 0], [1, 0]], ["a", "b"]), measures=["precision"]).to_html())
    assert any("precision is undefined for b" in text for text in gaps.text)

    from evalkit import Calibration

    page = build_report(matrix, calibration=Calibration.from_scores(y, s, bins=10)).to_html()
    bars = re.findall(r"<title>(\d+) samples</title>", page)
    assert bars and sum(map(int, bars)) == len(y) and ">samples</text>" in page  # counts, on their own axis
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 12, 600)
    scores = rng.dirichlet(np.ones(12), 600)
    many = build_report(ConfusionMatrix.from_predictions(labels, scores.argmax(axis=1)), measures=["recall"]).to_html(
        curve=ThresholdCurve.from_scores(labels, scores))
    assert "Each class" in many and many.count("<svg") == 2 + 2 * 12

    from evalkit import by_group
    from evalkit.io._html import nice_ticks

    assert nice_ticks(0.927, 0.963) == [0.93, 0.94, 0.95, 0.96]
    grouped = by_group(labels % 2, (scores.argmax(axis=1) + labels) % 2, rng.choice(["a", "b", "c"], 600)).report(["accuracy"]).to_html()
    ticks = [float(value) for value in re.findall(r'text-anchor="middle">(-?[\d.]+)</text>', grouped)]
    assert ticks and all(abs(round(tick * 100) - tick * 100) < 1e-9 for tick in ticks)  # round values, not 0.927


def test_chart_ticks_share_one_format_and_stay_inside_the_chart():
    from evalkit.io._html import axis_ticks, svg_chart, time_ticks

    assert axis_ticks(5750, 20500) == [(10000.0, "10,000"), (15000.0, "15,000"), (20000.0, "20,000")]  # not 5,750 / 1.05e+04 / 2e+04
    assert axis_ticks(0.0, 0.3, digits=3) == [(0.0, "0.000"), (0.1, "0.100"), (0.2, "0.200"), (0.3, "0.300")]
    assert time_ticks(1_709_272_800, 1_709_335_800) == [(1_709_272_800, "03-01 06:00"), (1_709_294_400, "03-01 12:00"), (1_709_316_000, "03-01 18:00")]
    width = 380
    chart = svg_chart([("a", np.array([5750.0, 20500.0]), np.array([0.2, 0.9]))], x_label="x", y_label="y", x_span=(5750.0, 20500.0), width=width)
    labels = re.findall(r'<text x="([\d.]+)" y="[\d.]+" font-size="11" text-anchor="middle">([^<]*)</text>', chart)
    assert [label for _, label in labels] == ["10,000", "15,000", "20,000"]
    assert all(3.2 * len(label) < float(x) < width - 3.2 * len(label) for x, label in labels)  # each label wholly inside the chart
    edge = svg_chart([("a", np.array([0.0, 99999.0]), np.array([0.2, 0.9]))], x_label="x", y_label="y", x_span=(0.0, 100000.0), width=width)
    x, label = re.findall(r'<text x="([\d.]+)" y="[\d.]+" font-size="11" text-anchor="middle">([^<]*)</text>', edge)[-1]
    assert label == "100,000" and float(x) + 3.2 * len(label) < width  # the last tick's label is moved in, not cut off


def test_a_window_of_time_chart_plots_the_window_ends_as_dates(tmp_path):
    rows = ["time,actual,predicted"] + [f"2024-03-01T{i // 2:02d}:{30 * (i % 2):02d}:00,{i % 2},{(i // 3) % 2}" for i in range(48)]
    path = tmp_path / "t.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    page = tmp_path / "t.html"
    assert main(["report", str(path), "--period", "6h", "--time-column", "time", "--html", str(page)]) == 0
    text = page.read_text(encoding="utf-8")  # windows end at 00:00 (the first sample's), 06:00, 12:00, 18:00 and 23:30 (the last row): ticks at whole hours of the dates
    assert re.findall(r'text-anchor="middle">(\d\d-\d\d \d\d:\d\d)</text>', text)[:2] == ["03-01 00:00", "03-01 12:00"]
    assert "time (end of the window, UTC)" in text and "window (end of the window)" not in text


def test_a_top_label_reliability_diagram_reads_accuracy():
    from evalkit import Calibration

    probabilities = np.array([[0.7, 0.2, 0.1], [0.3, 0.6, 0.1], [0.2, 0.2, 0.6], [0.5, 0.4, 0.1]])
    report = build_report(ConfusionMatrix.from_predictions([0, 1, 1, 0], probabilities.argmax(axis=1).tolist()),
                          calibration=Calibration.from_scores([0, 1, 1, 0], probabilities, labels=[0, 1, 2]))  # fmt: skip
    assert report.calibration_title.startswith("calibration (top label")
    assert "accuracy</text>" in report.to_html() and "share of positives" not in report.to_html()
    binary = build_report(ConfusionMatrix.from_predictions([0, 1, 1, 0], [0, 1, 0, 0]), calibration=Calibration.from_scores([0, 1, 1, 0], [0.2, 0.9, 0.4, 0.3]))
    assert "share of positives</text>" in binary.to_html()
