"""The evalkit command: reports on files of every kind, aa-rar, formats, and one-line errors."""

import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

import numpy as np
import pytest
from harness import peak_mib
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit import (
    ConfusionMatrix,
    Evaluation,
    Monitor,
    ThresholdCurve,
    __version__,
    cli,
)
from evalkit.cli import main
from evalkit.datasets import example_path, load_example

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------------------------------
# the main job


def test_main_prints_the_example_report(capsys):
    status, out, _ = run(capsys)
    assert status == 0
    assert out.startswith("evalkit report: bundled example iris_predictions.csv (150 samples, 3 classes)")
    assert "Confusion matrix (rows actual, columns predicted)" in out and out.count("Confusion matrix") == 1  # once, in the report
    assert re.search(r"^versicolor +0 +47 +3$", out, re.MULTILINE)
    for line in ("micro avg", "macro avg", "weighted avg", "accuracy", "cohen kappa", "mcc"):
        assert line in out


def test_report_subcommand_takes_digits(capsys):
    status, out, _ = run(capsys, "report", "--digits", "2")
    assert status == 0 and re.search(r"^accuracy +0\.97$", out, re.MULTILINE)


@pytest.mark.slow
def test_python_dash_m_and_the_console_script_run():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-m", "evalkit"], capture_output=True, check=False, text=True, env=env)
    assert result.returncode == 0 and "macro avg" in result.stdout
    scripts = {entry.name: entry.value for entry in metadata.entry_points(group="console_scripts")}
    assert scripts.get("evalkit") == "evalkit.cli:main"
    result = subprocess.run([str(Path(sys.executable).parent / "evalkit")], capture_output=True, check=False, text=True)
    assert result.returncode == 0 and result.stdout.startswith("evalkit report")


def test_version():
    result = subprocess.run([sys.executable, "-m", "evalkit", "--version"], capture_output=True, check=False, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert result.stdout.strip() == f"evalkit {__version__}"


def test_the_bundled_example():
    actual, predicted = load_example()
    assert example_path().name == "iris_predictions.csv"
    assert ConfusionMatrix.from_predictions(actual, predicted).to_array().tolist() == [[50, 0, 0], [0, 47, 3], [0, 2, 48]]


# --------------------------------------------------------------------------------------------
# files of every kind


def test_a_csv_file_gives_the_api_numbers(tmp_path, capsys):
    path = write(tmp_path, "p.csv", "id,y_true,y_pred\n1,cat,cat\n2,cat,dog\n3,dog,dog\n4,bird,dog\n")
    status, out, _ = run(capsys, "report", path, "--format", "json")
    assert status == 0
    document = json.loads(out)
    cm = ConfusionMatrix.from_predictions(["cat", "cat", "dog", "bird"], ["cat", "dog", "dog", "dog"])
    assert document["samples"] == 4 and document["confusion_matrix"]["counts"] == cm.to_array().tolist()
    assert document["averages"]["macro avg"]["f1_score"] == pytest.approx(cm.average("f1_score", "macro"))
    assert document["summary"]["cohen_kappa"] == pytest.approx(cm.get_cohen_kappa())
    assert document["classes"]["bird"]["precision"] is None  # undefined: nothing predicted as bird


def test_tsv_jsonl_and_two_one_column_files_agree(tmp_path, capsys):
    rows = [("a", "a"), ("b", "a"), ("b", "b"), ("c", "b")]
    tsv = write(tmp_path, "p.tsv", "actual\tpredicted\n" + "".join(f"{a}\t{p}\n" for a, p in rows))
    jsonl = write(tmp_path, "p.jsonl", "".join(json.dumps({"actual": a, "predicted": p}) + "\n" for a, p in rows))
    truth = write(tmp_path, "truth.txt", "".join(f"{a}\n" for a, _ in rows))
    guess = write(tmp_path, "guess.txt", "".join(f"{p}\n" for _, p in rows))
    outputs = [run(capsys, "report", *files, "--format", "csv")[1] for files in ([tsv], [jsonl], [truth, guess])]
    assert outputs[0] == outputs[1] == outputs[2]


def test_columns_chosen_by_name_and_an_explicit_label_order(tmp_path, capsys):
    path = write(tmp_path, "p.csv", "gold,system\nx,y\ny,y\nz,z\n")
    status, out, _ = run(capsys, "report", path, "--actual", "gold", "--predicted", "system", "--labels", "z,y,x,w", "--format", "csv")
    assert status == 0
    names = [line.split(",")[0] for line in out.splitlines()[1:5]]
    assert names == ["z", "y", "x", "w"]


def test_multi_label_files(tmp_path, capsys):
    path = write(tmp_path, "m.csv", "actual,predicted\nnews|sport,sport\npolitics,politics|news\n,news\nsport,sport\n")
    status, out, _ = run(capsys, "report", path, "--multi-label", "--format", "json")
    assert status == 0
    document = json.loads(out)
    ev = Evaluation.from_label_sets([{"news", "sport"}, {"politics"}, set(), {"sport"}], [{"sport"}, {"politics", "news"}, {"news"}, {"sport"}])
    assert document["averages"]["samples avg"]["f1_score"] == pytest.approx(ev.average("f1_score", "samples"))
    assert document["summary"]["hamming_loss"] == pytest.approx(ev.average("hamming_loss", "micro"))
    jsonl = write(tmp_path, "m.jsonl", '{"actual": ["a", "b"], "predicted": ["a"]}\n{"actual": [], "predicted": ["b"]}\n')
    assert run(capsys, "report", jsonl, "--multi-label")[0] == 0


def test_score_column_with_a_threshold(tmp_path, capsys):
    path = write(tmp_path, "s.csv", "actual,probability\n1,0.9\n0,0.4\n1,0.35\n0,0.7\n")
    status, out, _ = run(capsys, "report", path, "--score", "probability", "--threshold", "0.3", "--format", "json")
    assert status == 0
    assert json.loads(out)["confusion_matrix"]["counts"] == [[0, 2], [0, 2]]


def test_output_file_markdown_and_plot(tmp_path, capsys):
    output, image = tmp_path / "r.md", tmp_path / "cm.png"
    status, out, _ = run(capsys, "report", "--format", "markdown", "--output", str(output), "--plot", str(image))
    assert status == 0 and out == ""
    assert output.read_text().startswith("# evalkit report: bundled example")
    assert image.stat().st_size > 10_000


def test_long_files_stream_in_batches(tmp_path, capsys):
    rows = "".join(f"{i % 7},{(i * 3) % 7}\n" for i in range(25_000))
    path = write(tmp_path, "big.csv", "actual,predicted\n" + rows)
    assert run(capsys, "report", path, "--batch-size", "1000", "--format", "csv")[1] == run(capsys, "report", path, "--format", "csv")[1]


def test_aa_rar_on_the_bundled_table_and_on_files(tmp_path, capsys):
    status, out, _ = run(capsys, "aa-rar", "--exact")
    assert status == 0 and "3/4 = 0.75" in out and "relative accuracy rate (RAR)  3" in out
    path = write(tmp_path, "f.csv", "ideal,result\na|b,b\nc,c\n")
    status, out, _ = run(capsys, "aa-rar", path, "--format", "json", "--exact")
    document = json.loads(out)
    assert document["absolute_accuracy_exact"] == "2/3" and document["relative_accuracy_rate_exact"] == "2"


# --------------------------------------------------------------------------------------------
# bad input: one line naming file and line, exit status 2, no traceback


@pytest.mark.parametrize(
    ("files", "options", "message"),
    [
        ({}, ["missing.csv"], "missing.csv: cannot read the file"),
        ({"p.csv": "actual,other\na,b\n"}, ["p.csv"], "p.csv:1: no column any of predicted"),
        ({"p.csv": "actual,predicted\na,b\nc\n"}, ["p.csv"], "p.csv:3: expected 2 fields, got 1"),
        ({"p.csv": ""}, ["p.csv"], "p.csv: the file is empty"),
        ({"p.csv": "actual,predicted\n"}, ["p.csv"], "p.csv: no data rows"),
        ({"p.csv": "actual,predicted\na,b\nc,d\n"}, ["p.csv", "--labels", "a,b,c"], "p.csv:3: label 'd' is not in --labels"),
        ({"p.csv": "actual,p\n1,0.2\n0,high\n"}, ["p.csv", "--score", "p"], "p.csv:3: cannot read the score 'high'"),
        ({"p.csv": "actual,p\n1,0.2\n"}, ["p.csv", "--score", "p", "--threshold", "1.5"], "--threshold must be in [0, 1], got 1.5"),
        ({"p.csv": "actual,predicted\na,\n"}, ["p.csv"], "p.csv:2: empty label"),
        ({"p.jsonl": '{"actual": "a", "predicted": "b"}\nnot json\n'}, ["p.jsonl"], "p.jsonl:2: not valid JSON"),
        ({"t.txt": "a\nb\n", "g.txt": "a\n"}, ["t.txt", "g.txt"], "g.txt:2: the file ends here"),
        ({"p.csv": b"actual,predicted\n\xff,a\n"}, ["p.csv"], "p.csv:2: the text is not UTF-8"),
        ({"p.csv": "actual,predicted,w\na,a,1\nb,a,-2\n"}, ["p.csv", "--weight", "w"], "p.csv:3: cannot read the weight '-2'"),
        ({"p.csv": "actual,predicted,w\na,a,nan\n"}, ["p.csv", "--weight", "w"], "p.csv:2: cannot read the weight 'nan'"),
        ({"p.csv": "actual,predicted\na,a\n"}, ["p.csv", "--weight", "w"], "p.csv:1: no column 'w' for the weight values"),
        ({"t.txt": "a\n", "g.txt": "a\n"}, ["t.txt", "g.txt", "--weight", "w"], "weight and score columns need one table"),
        ({"p.csv": "actual\tpredicted\na\tb\n"}, ["p.csv"], "p.csv:1: the header 'actual\\tpredicted' is one column"),
        ({"p.csv": "actual,predicted\n1,0.25\n0,0.75\n"}, ["p.csv"], "p.csv:2: the predicted label '0.25' is a number that is not whole"),
        ({"p.csv": "actual,predicted\na,b\n"}, ["p.csv", "--digits", "-1"], "--digits must be in 0..15, got -1"),
        ({"p.csv": "actual,predicted\na,b\n"}, ["p.csv", "--delimiter", ",,"], "--delimiter must be one character"),
        ({"p.csv": "actual,predicted\na,b\n"}, ["p.csv", "--multi-label", "--separator", ""], "--separator must not be empty"),
        ({"p.csv": "actual,predicted\na,b\n"}, ["p.csv", "--batch-size", "0"], "--batch-size must be a positive number"),
        ({"p.csv": "actual,p\n1,0.2\n"}, ["p.csv", "--score", "p", "--threshold", "nan"], "--threshold must be in [0, 1]"),
    ],
)
def test_bad_input_is_one_line_and_status_2(tmp_path, capsys, monkeypatch, files, options, message):
    monkeypatch.chdir(tmp_path)
    for name, text in files.items():
        (tmp_path / name).write_bytes(text if isinstance(text, bytes) else text.encode())
    status, out, err = run(capsys, "report", *options)
    assert status == 2 and out == ""
    assert err.startswith("evalkit: error: ") and message in err and err.count("\n") == 1
    assert "Traceback" not in err


def test_bad_input_through_the_real_command(tmp_path):
    result = subprocess.run([sys.executable, "-m", "evalkit", "report", str(tmp_path / "nope.csv")], capture_output=True, check=False, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))  # fmt: skip
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_unknown_options_exit_with_status_2(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["report", "--no-such-option"])
    assert caught.value.code == 2


def test_progress_goes_to_stderr_on_a_terminal_only(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, "p.csv", "actual,predicted\n" + "a,b\n" * 2500)
    status, _, err = run(capsys, "report", path, "--batch-size", "1000")
    assert status == 0 and err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    status, out, err = run(capsys, "report", path, "--batch-size", "1000")
    assert status == 0 and err == "" and "macro avg" in out  # a quick file shows no progress
    monkeypatch.setattr(cli, "PROGRESS_AFTER", 0.0)  # as if reading took longer than a second
    status, out, err = run(capsys, "report", path, "--batch-size", "1000")
    assert status == 0 and "read 1,000 rows, " in err and "read 2,500 rows, " in err and " rows/s" in err and "macro avg" in out


def test_weighted_reports_equal_the_weighted_api(tmp_path, capsys):
    rows = [("cat", "cat", "3"), ("cat", "dog", "1"), ("dog", "dog", "2.5"), ("bird", "dog", "0")]
    path = write(tmp_path, "w.csv", "actual,predicted,weight\n" + "\n".join(",".join(row) for row in rows) + "\n")
    status, out, _ = run(capsys, "report", path, "--weight", "weight", "--format", "json")
    assert status == 0
    report = json.loads(out)
    ev = Evaluation.from_labels([r[0] for r in rows], [r[1] for r in rows], sample_weight=[3, 1, 2.5, 0])
    assert report["samples"] == 6.5 and report["classes"]["cat"]["support"] == 4.0
    assert report["averages"]["macro avg"]["f1_score"] == pytest.approx(float(ev.average("f1_score", "macro")))
    assert report["summary"]["cohen_kappa"] == pytest.approx(ev.get_cohen_kappa())
    sets = write(tmp_path, "s.csv", "ideal,result,weight\na|b,a,2\nb,b|c,1\n")
    status, out, _ = run(capsys, "aa-rar", sets, "--weight", "weight", "--exact")
    # AA = (2 * 1 + 1 * 1) / (2 * 2 + 1 * 1) = 3/5; RAR = T_pos / T_neg = 3 / (2 * 1 + 1 * 1) = 1
    assert status == 0 and "3/5 = 0.6" in out and "relative accuracy rate (RAR)  1\n" in out


def test_numeric_labels_sort_as_numbers(tmp_path, capsys):
    path = write(tmp_path, "n.csv", "actual,predicted\n10,2\n2,10\n1,1\n11,0\n")
    status, out, _ = run(capsys, "report", path, "--format", "json")
    assert status == 0 and list(json.loads(out)["classes"]) == ["0", "1", "2", "10", "11"]
    status, out, _ = run(capsys, "report", path, "--format", "csv")
    assert [line.split(",")[0] for line in out.splitlines()[1:6]] == ["0", "1", "2", "10", "11"]


def test_the_undefined_policy_is_chosen_on_the_command_line_and_shown_on_the_row(tmp_path, capsys):
    path = write(tmp_path, "u.csv", "actual,predicted\na,a\nb,a\nc,a\n")  # b and c are never predicted: precision undefined
    status, out, _ = run(capsys, "report", path, "--measures", "precision")
    assert status == 0 and out.split("macro avg")[1].split()[0] == "0.333*"
    assert "* precision is undefined for b and c (0/0: never predicted): the macro and weighted averages are over 1 of 3 classes" in out
    status, zero, _ = run(capsys, "report", path, "--measures", "precision", "--undefined", "zero", "--format", "json")
    status, exclude, _ = run(capsys, "report", path, "--measures", "precision", "--format", "json")
    assert json.loads(zero)["averages"]["macro avg"]["precision"] == pytest.approx(1 / 9)
    assert json.loads(exclude)["averages"]["macro avg"]["precision"] == pytest.approx(1 / 3)
    assert json.loads(exclude)["averages"]["macro avg"]["n_defined"] == {"precision": 1}


def test_supports_are_integers_and_markdown_shows_the_matrix(tmp_path, capsys):
    path = write(tmp_path, "p.csv", "actual,predicted\ncat,cat\ncat,dog\ndog,dog\n")
    _status, out, _ = run(capsys, "report", path, "--format", "json")
    document = json.loads(out)
    assert document["classes"]["cat"]["support"] == 2 and isinstance(document["classes"]["cat"]["support"], int)
    assert document["averages"]["macro avg"]["support"] == 3
    _status, out, _ = run(capsys, "report", path, "--format", "csv")
    assert "cat,class,1.0,0.5" in out and ",2," in out.splitlines()[1] and "2.0" not in out.splitlines()[1].split(",")[-2]
    _status, out, _ = run(capsys, "report", path, "--format", "markdown")
    assert "| actual \\ predicted | cat | dog |" in out and "| cat | 1 | 1 |" in out


def test_multi_label_average_rows_have_scikit_learns_support(tmp_path, capsys):
    path = write(tmp_path, "m.csv", "actual,predicted\na|b,a\nb|c,b\n")
    _status, out, _ = run(capsys, "report", path, "--multi-label", "--format", "json")
    document = json.loads(out)
    assert document["samples"] == 2 and document["averages"]["micro avg"]["support"] == 4  # actual labels, as scikit-learn counts them
    assert sum(row["support"] for row in document["classes"].values()) == 4


def test_one_measure_asked_for_by_two_names_is_one_column(tmp_path, capsys):
    path = write(tmp_path, "d.csv", "actual,predicted\na,a\nb,a\nb,b\n")
    status, out, _ = run(capsys, "report", path, "--measures", "tpr,recall,nnd,number_needed_to_diagnose")
    header = out.split("\n\n")[1].splitlines()[0].split()  # the title, then the table
    assert status == 0 and header == ["class", "tpr", "nnd", "support"]
    assert "'tpr' and 'recall' are one measure (recall): one column" in out
    assert "'nnd' and 'number_needed_to_diagnose' are one measure (number_needed_to_diagnose): one column" in out


# --------------------------------------------------------------------------------------------
# measures over time


def over_time(capsys, *argv):
    status, out, err = run(capsys, "report", *argv, "--format", "json")
    assert status == 0, err
    return json.loads(out)


def test_tumbling_and_sliding_windows_report_the_samples_they_hold(capsys):
    actual, predicted = load_example()
    labels = sorted(set(actual))
    for option, step, size in (("--tumbling", 40, 40), ("--window", 25, 60)):
        extra = ("--step", str(step)) if option == "--window" else ()
        document = over_time(capsys, option, str(size), *extra, "--measures", "f1_score,recall")
        ends = [row["end"] for row in document["rows"]]
        assert ends == [*range(step, len(actual) + 1, step), *([len(actual)] if len(actual) % step else [])]
        for row in document["rows"]:
            start = (row["end"] - 1) // step * step if option == "--tumbling" else max(0, row["end"] - size)
            expected = ConfusionMatrix.from_predictions(actual[start : row["end"]], predicted[start : row["end"]], labels=labels)
            assert row["samples"] == row["end"] - start
            assert row["accuracy"] == pytest.approx(expected.get_accuracy())
            assert row["macro f1_score"] == pytest.approx(expected.average("f1_score", "macro"))
            interval = expected.interval("accuracy", method="wilson")
            assert (row["accuracy_low"], row["accuracy_high"]) == pytest.approx((interval.low, interval.high))


def test_a_window_of_time_holds_the_samples_of_its_period(capsys, tmp_path):
    rows = ["time,actual,predicted"] + [f"2026-11-01T{hour:02d}:{minute:02d}:00,{'ab'[(hour + minute) % 2]},{'ab'[hour % 2]}" for hour in range(6) for minute in (0, 30)]
    path = write(tmp_path, "stream.csv", "\n".join(rows) + "\n")
    document = over_time(capsys, path, "--period", "2h", "--time-column", "time", "--step", "1h")
    # rows end on whole steps (hours) from time 0, the first at or after the first sample; a window is (end - 2h, end]: four half hours, fewer at the start
    assert [row["end"] for row in document["rows"]] == [*(f"2026-11-01T{hour:02d}:00:00Z" for hour in range(6)), "2026-11-01T05:30:00Z"]
    assert [row["samples"] for row in document["rows"]] == [1, 3, 4, 4, 4, 4, 4]
    numbers = write(tmp_path, "numbers.csv", "t,actual,predicted\n" + "".join(f"{t},a,{'a' if t < 5 else 'b'}\n" for t in range(10)))
    document = over_time(capsys, numbers, "--period", "3", "--time-column", "t")
    assert [(row["end"], row["samples"], row["accuracy"]) for row in document["rows"]] == [(0.0, 1, 1.0), (3.0, 3, 1.0), (6.0, 3, 1 / 3), (9.0, 3, 0.0)]  # every sample in a window: (-3, 0], (0, 3], ...
    gaps = write(tmp_path, "gaps.csv", "t,actual,predicted\n0.5,a,a\n1.5,a,b\n1e9,b,b\n")  # a gap of a billion periods: no empty rows
    document = over_time(capsys, gaps, "--period", "1", "--time-column", "t")
    assert [(row["end"], row["samples"]) for row in document["rows"]] == [(1.0, 1), (2.0, 1), (1e9, 1)]
    for bad in ("nan", "inf", "-inf"):  # float() reads them: refused at their line, not a loop without end
        path = write(tmp_path, "bad.csv", f"t,actual,predicted\n1,a,a\n{bad},a,b\n")
        status, _, err = run(capsys, "report", path, "--period", "1", "--time-column", "t")
        assert status == 2 and f"bad.csv:3: time '{bad}' is not a finite number" in err


def test_the_windows_page_draws_each_measure_with_accuracy_in_its_band(capsys, tmp_path):
    page = tmp_path / "windows.html"
    status, out, _ = run(capsys, "report", "--tumbling", "30", "--html", str(page))
    assert status == 0 and out.startswith("evalkit report over time: bundled example")
    text = page.read_text(encoding="utf-8")
    assert text.count("<svg") == 6 and text.count("<polygon") == 1  # accuracy and five macro averages; the band around accuracy


@pytest.mark.parametrize(("argv", "message"), [
    (("--window", "10", "--tumbling", "5"), "one kind of window"),
    (("--period", "1h"), "--period needs --time-column"),
    (("--time-column", "t"), "--time-column applies with --period only"),
    (("--step", "3"), "--step applies with --window or --period only"),
    (("--window", "0"), "--window must be a positive number of samples"),
    (("--window", "10", "--step", "0"), "--step with --window must be a positive number"),
    (("--tumbling", "10", "--score", "x"), "does not go with --score"),
    (("--period", "soon", "--time-column", "sample"), "--period must be a duration"),
])  # fmt: skip
def test_windows_refuse_options_that_do_not_fit(capsys, argv, message):
    status, _, err = run(capsys, "report", *argv)
    assert status == 2 and message in err


def test_a_report_over_time_with_a_monitor_lists_its_alarms_in_text_json_and_on_its_charts(capsys, tmp_path):
    rng = np.random.default_rng(8)
    actual = rng.choice(["ok", "fraud"], 4000, p=[0.7, 0.3])
    right = rng.random(4000) < np.where(np.arange(4000) < 2000, 0.95, 0.8)
    predicted = np.where(right, actual, np.where(actual == "ok", "fraud", "ok"))
    path = write(tmp_path, "stream.csv", "actual,predicted\n" + "".join(f"{a},{p}\n" for a, p in zip(actual, predicted)))
    direct = Monitor(0.95, "recall", label="fraud", alpha=0.05)
    direct.update(actual, predicted)
    page = tmp_path / "watched.html"
    document = over_time(capsys, path, "--window", "500", "--monitor", "0.95", "--monitor-measure", "recall", "--monitor-label", "fraud",
                         "--monitor-alpha", "0.05", "--html", str(page))  # fmt: skip
    assert document["monitor"]["alarms"] == direct.alarms and direct.alarms[0] > 2000
    assert document["monitor"]["watched"] == "recall of 'fraud' below 0.95; a false alarm at most 0.05 over the whole stream"
    assert page.read_text(encoding="utf-8").count("<title>alarm</title>") == 6 * len(direct.alarms)  # across each of the six charts
    status, out, _ = run(capsys, "report", path, "--window", "500", "--monitor", "0.95")
    accuracy = Monitor(0.95)
    accuracy.update(actual, predicted)
    assert status == 0 and f"alarms (accuracy below 0.95; a false alarm at most 0.01 over the whole stream): {len(accuracy.alarms)}, at {accuracy.alarms[0]:,}" in out


def test_a_report_over_time_watches_a_macro_average_by_segments(capsys, tmp_path):
    rng = np.random.default_rng(9)
    actual = rng.choice(["a", "b", "c"], 6000)
    right = rng.random(6000) < np.where(np.arange(6000) < 3000, 0.95, 0.8)
    predicted = np.where(right, actual, np.where(actual == "a", "b", "a"))
    path = write(tmp_path, "stream.csv", "actual,predicted\n" + "".join(f"{a},{p}\n" for a, p in zip(actual, predicted)))
    for every, options in ((1000, ()), (300, ("--monitor-every", "300"))):  # (a file's checkpoints every 1,000 rows unless --monitor-every says)
        direct = Monitor(0.9, "f1_score", average="macro", alpha=0.05, every=every)
        direct.update(actual, predicted)  # (alarms at checkpoints: however the file is read in batches)
        document = over_time(capsys, path, "--window", "500", "--monitor", "0.9", "--monitor-measure", "f1_score", "--monitor-average", "macro",
                             "--monitor-alpha", "0.05", "--batch-size", "700", *options)  # fmt: skip
        assert document["monitor"]["alarms"] == direct.alarms and direct.alarms[0] > 3000 and all(at % every == 0 for at in direct.alarms)
        assert document["monitor"]["watched"] == "macro f1_score below 0.9; a false alarm at most 0.05 over the whole stream"


@pytest.mark.parametrize(("argv", "message"), [
    (("--monitor", "0.9"), "--monitor watches a stream in a report over time"),
    (("--window", "30", "--monitor-arl", "100"), "--monitor-arl applies with --monitor LEVEL only"),
    (("--window", "30", "--monitor-alpha", "0"), "--monitor-alpha applies with --monitor LEVEL only"),
    (("--window", "30", "--monitor", "0.9", "--monitor-alpha", "0"), "--monitor-alpha must be a finite number > 0"),
    (("--window", "30", "--monitor", "1.5"), "--monitor must be a level in (0, 1)"),
    (("--window", "30", "--monitor", "0.9", "--monitor-measure", "f1_score", "--monitor-label", "setosa", "--monitor-arl", "100"),
     "--monitor-arl is the Shiryaev–Roberts procedure of a proportion"),
    (("--window", "30", "--monitor", "0.9", "--monitor-measure", "recall"), "give --monitor-label (one class) or --monitor-average"),
    (("--window", "30", "--monitor-average", "macro"), "--monitor-average applies with --monitor LEVEL only"),
    (("--window", "30", "--monitor", "0.9", "--monitor-every", "0", "--monitor-measure", "f1_score", "--monitor-average", "macro"),
     "--monitor-every must be a whole number of samples >= 1"),
    (("--window", "30", "--monitor", "0.9", "--monitor-every", "50"), "--monitor-every sets the checkpoints of a measure watched by segments"),
    (("--window", "30", "--monitor", "0.9", "--monitor-measure", "recall", "--monitor-label", "rose"), "--monitor-label 'rose' is not a label"),
    (("--window", "30", "--monitor", "0.9", "--monitor-alpha", "0.1", "--monitor-arl", "100"), "not both"),
])  # fmt: skip
def test_a_monitor_refuses_options_that_do_not_fit(capsys, argv, message):
    status, _, err = run(capsys, "report", *argv)
    assert status == 2 and message in err, err


def test_windows_with_ci_give_every_average_its_interval_and_band(capsys, tmp_path):
    page = tmp_path / "windows.html"
    document = over_time(capsys, "--tumbling", "50", "--ci", "--measures", "f1_score,recall", "--html", str(page))
    actual, predicted = load_example()
    for row in document["rows"]:
        start = row["end"] - 50
        expected = ConfusionMatrix.from_predictions(actual[start : row["end"]], predicted[start : row["end"]], labels=sorted(set(actual)))
        interval = expected.interval("f1_score", "macro", n_resamples=1000, random_state=row["window"] - 1)  # seeded by the window
        assert (row["macro f1_score_low"], row["macro f1_score_high"]) == pytest.approx((interval.low, interval.high))
    assert page.read_text(encoding="utf-8").count("<polygon") == 3  # accuracy, macro F1 and macro recall in their bands


def test_a_regression_report_reads_numbers_in_batches_into_exact_sums(tmp_path, capsys):
    import numpy as np

    from evalkit import RegressionMetrics

    rng = np.random.default_rng(9)
    y, p, w = rng.normal(100.0, 15.0, 5_000), rng.normal(100.0, 15.0, 5_000), rng.integers(1, 4, 5_000)
    rows = "\n".join(f"{a!r},{b!r},{c}" for a, b, c in zip(y.tolist(), p.tolist(), w.tolist()))
    path = write(tmp_path, "regression.csv", "actual,predicted,weight\n" + rows + "\n")
    status, out, _ = run(capsys, "report", path, "--regression", "--weight", "weight", "--batch-size", "700", "--format", "json",
                         "--html", str(tmp_path / "page.html"), "--plot", str(tmp_path / "residuals.png"))  # fmt: skip
    document = json.loads(out)
    expected = RegressionMetrics.from_predictions(y, p, sample_weight=w)
    assert status == 0 and document["samples"] == 5_000
    assert document["r_squared"] == expected.get_r_squared() and document["mean_absolute_error"] == expected.get_mean_absolute_error()
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert page.count("<circle") == 2 * 2_000 and "Residuals against predictions" in page  # a uniform sample of the rows, not all
    assert (tmp_path / "residuals.png").stat().st_size > 3000
    status, out, _ = run(capsys, "report", path, "--regression", "--digits", "2")
    assert status == 0 and f"r_squared{' ' * 23}{expected.get_r_squared():.2f}" in out and "(5000 samples)" in out
    status, out, _ = run(capsys, "report", path, "--regression", "--weight", "weight", "--digits", "2", "--format", "csv")  # full precision, as a classification report's CSV (it was rounded to --digits)
    rows = dict(line.split(",") for line in out.strip().splitlines()[1:])
    assert status == 0 and float(rows["r_squared"]) == expected.get_r_squared() and float(rows["mean_absolute_error"]) == expected.get_mean_absolute_error()
    constant = write(tmp_path, "constant.csv", "actual,predicted\n1,2\n1,3\n1,1\n")
    status, out, _ = run(capsys, "report", constant, "--regression", "--format", "csv")
    assert status == 0 and "\nf_stat,\n" in out and "\nr_squared,-inf\n" in out  # undefined: empty
    status, _, err = run(capsys, "report", path)
    assert status != 0 and "--regression" in err  # numbers that are not whole: scores or numeric targets, and it says so
    status, _, err = run(capsys, "report", path, "--regression", "--score", "predicted")
    assert status != 0 and "--score is an option of labels or scores" in err


# --------------------------------------------------------------------------------------------
# what the command line reads as it is meant: --score's classes, label sets, groups, hints


def test_a_score_of_labels_other_than_0_1_needs_positive_and_reads_them_as_the_api_does(tmp_path, capsys):

    yes_no = write(tmp_path, "yn.csv", "actual,score\nyes,0.9\nno,0.2\nyes,0.4\nno,0.7\n")
    status, _, err = run(capsys, "report", yes_no, "--score", "score")
    assert status == 2 and "label 'yes'" in err and "--positive" in err  # not a silent 4-class matrix
    with pytest.raises(ValueError, match="give 'pos_label'"):  # the API refuses the same labels without a positive class
        ThresholdCurve.from_scores(["yes", "no", "yes", "no"], [0.9, 0.2, 0.4, 0.7])
    status, out, _ = run(capsys, "report", yes_no, "--score", "score", "--positive", "yes", "--measures", "recall,roc_auc", "--format", "json")
    document = json.loads(out)
    expected = ConfusionMatrix.from_predictions(["yes", "no", "yes", "no"], ["yes", "no", "no", "yes"])
    assert status == 0 and document["confusion_matrix"] == {"labels": ["no", "yes"], "counts": expected.to_array().tolist()}
    assert document["classes"]["yes"]["roc_auc"] == pytest.approx(ThresholdCurve.from_scores(["yes", "no", "yes", "no"], [0.9, 0.2, 0.4, 0.7], pos_label="yes").roc_auc())
    y, s = [1, 1, 1, -1, -1, 1], [0.9, 0.2, 0.4, 0.7, 0.1, 0.6]  # positives first: the negative class -1 is read in the second batch
    signed = write(tmp_path, "pm.csv", "actual,score\n" + "".join(f"{a},{b}\n" for a, b in zip(y, s)))
    for extra in ((), ("--thresholds", "5")):
        status, out, _ = run(capsys, "report", signed, "--score", "score", "--batch-size", "2", "--measures", "recall,roc_auc", "--format", "json", *extra)
        document = json.loads(out)
        expected = ConfusionMatrix.from_predictions(y, [1 if v >= 0.5 else -1 for v in s])
        assert status == 0 and document["confusion_matrix"] == {"labels": ["-1", "1"], "counts": expected.to_array().tolist()}  # no phantom 0
        curve = ThresholdCurve.from_scores(y, s, thresholds=int(extra[1]) if extra else None)
        assert document["classes"]["1"]["roc_auc"] == pytest.approx(curve.roc_auc())
        both = ThresholdCurve.from_scores(y, np.column_stack((1 - np.array(s), s)), labels=[-1, 1], thresholds=int(extra[1]) if extra else None)
        assert document["classes"]["-1"]["roc_auc"] == pytest.approx(both.roc_auc(-1))
    three = write(tmp_path, "three.csv", "actual,score\n1,0.9\n0,0.2\n-1,0.4\n")
    status, _, err = run(capsys, "report", three, "--score", "score")
    assert status == 2 and "three.csv:4: label '-1' is neither --positive '1' nor '0'" in err
    status, _, err = run(capsys, "report", yes_no, "--score", "score", "--positive", "yes", "--negative", "maybe")
    assert status == 2 and "yn.csv:3: label 'no' is neither --positive 'yes' nor --negative 'maybe'" in err


def test_multi_label_notes_and_json_count_samples_not_kinds_of_sample(tmp_path, capsys):
    truth, guess = [{"a"}, {"a"}, {"b"}, {"a"}, {"a"}], [{"a"}, {"a"}, {"b"}, {"b"}, set()]
    path = write(tmp_path, "m.csv", "actual,predicted,w\n" + "".join(f"{'|'.join(t)},{'|'.join(g)},{w}\n" for t, g, w in zip(truth, guess, [1, 2, 1, 1, 1])))
    expected = Evaluation.from_label_sets(truth, guess).average("precision", "samples")
    assert (expected.n_defined, expected.n_values) == (4, 5)  # the empty predicted set leaves precision undefined for one sample of five
    for extra in ((), ("--weight", "w")):
        status, out, _ = run(capsys, "report", path, "--multi-label", *extra)
        assert status == 0 and "* precision is undefined for some samples: the samples average is over 4 of 5 samples" in out
        document = json.loads(run(capsys, "report", path, "--multi-label", "--format", "json", *extra)[1])
        row = document["averages"]["samples avg"]
        assert row["n_values"] == 5 and row["n_defined"]["precision"] == 4 and row["n_defined"]["recall"] == 5


def overall_row(text):
    return next(line for line in text.splitlines() if line.startswith("overall")).split()


def test_a_binary_report_by_group_shows_the_positive_class_and_says_so_in_every_format(tmp_path, capsys):
    y, s = [1, 0, 1, 1, 0, 0, 1, 1], [0.9, 0.4, 0.6, 0.2, 0.7, 0.1, 0.3, 0.8]
    groups = ["a", "a", "a", "b", "b", "b", "b", "b"]
    path = write(tmp_path, "g.csv", "actual,score,g\n" + "".join(f"{a},{b},{c}\n" for a, b, c in zip(y, s, groups)))
    status, out, _ = run(capsys, "report", path, "--score", "score", "--group", "g", "--measures", "recall", "--format", "json")
    document = json.loads(out)
    by_hand = {"a": 2 / 2, "b": 1 / 3, "overall": 3 / 5}  # the positives found: a 2 of 2, b 1 of 3 (0.2 and 0.3 fall below 0.5)
    assert status == 0 and {row["group"]["g"]: row["recall"] for row in document["groups"]} == pytest.approx({"a": by_hand["a"], "b": by_hand["b"]})
    assert document["overall"]["recall"] == pytest.approx(by_hand["overall"]) and document["class"] == "1" and document["average"] is None
    assert document["measures_of"] == {"accuracy": "the whole", "recall": "class 1"}
    labels = write(tmp_path, "l.csv", "actual,predicted,g\n" + "".join(f"{a},{int(b >= 0.5)},{c}\n" for a, b, c in zip(y, s, groups)))
    status, out, _ = run(capsys, "report", labels, "--group", "g", "--measures", "recall", "--positive", "0")
    assert status == 0 and out.startswith(f"evalkit report by g: {labels} (class 0)") and "recall: of the class 0 alone" in out
    assert overall_row(out) == ["overall", "0.625", "0.667", "8"]  # class 0: 2 of the 3 negatives scored below 0.5
    markdown = run(capsys, "report", labels, "--group", "g", "--measures", "recall", "--format", "markdown")[1]
    assert "| overall | 0.625 | 0.600 | 8 |" in markdown and "recall: of the class 1 alone" in markdown  # 0/1 labels: the positive class 1
    rows = list(csv.reader(io.StringIO(run(capsys, "report", labels, "--group", "g", "--measures", "recall", "--format", "csv")[1])))
    assert rows[0][-2:] == ["average", "class"] and all(row[-2:] == ["", "1"] for row in rows[1:])
    words = write(tmp_path, "w.csv", "actual,predicted,g\n" + "".join(f"{'ny'[a]},{'ny'[int(b >= 0.5)]},{c}\n" for a, b, c in zip(y, s, groups)))
    text = run(capsys, "report", words, "--group", "g", "--measures", "recall")[1]
    macro = (3 / 5 + 2 / 3) / 2  # no positive class to choose: the macro average of y's recall 3/5 and n's 2/3, and the page says so
    assert overall_row(text) == ["overall", "0.625", f"{macro:.3f}", "8"]
    assert "(macro averages)" in text and "recall: the macro average over the classes" in text
    rows = list(csv.reader(io.StringIO(run(capsys, "report", words, "--group", "g", "--measures", "recall", "--format", "csv")[1])))
    assert all(row[-2:] == ["macro", ""] for row in rows[1:])
    page = tmp_path / "g.html"
    assert run(capsys, "report", words, "--group", "g", "--measures", "recall", "--positive", "y", "--html", str(page))[0] == 0
    assert "recall: of the class y alone" in page.read_text(encoding="utf-8")
    status, _, err = run(capsys, "report", words, "--group", "g", "--positive", "maybe")
    assert status == 2 and "--positive 'maybe' is not a class of the file" in err


def test_a_report_by_group_takes_its_measures_from_the_metrics_class(tmp_path, capsys, monkeypatch):
    (tmp_path / "screening.py").write_text(
        "import math\nimport evalkit\n\nclass Screening(evalkit.ClassificationMetrics):\n"
        "    @evalkit.measure(direction='lower', aliases=('nns',))\n    def get_number_needed_to_screen(self):\n"
        "        tp = self.get_true_positive()\n        return self.get_total() / tp if tp else math.nan\n", encoding="utf-8")  # fmt: skip
    monkeypatch.syspath_prepend(str(tmp_path))
    path = write(tmp_path, "g.csv", "actual,score,g\n1,0.9,a\n0,0.4,a\n1,0.6,a\n1,0.2,b\n0,0.7,b\n1,0.8,b\n")
    status, out, err = run(capsys, "report", path, "--score", "score", "--group", "g", "--metrics-class", "screening:Screening",
                           "--measures", "nns", "--sort-by", "nns", "--format", "json")  # fmt: skip
    assert status == 0, err
    document = json.loads(out)
    assert [(row["group"]["g"], row["number_needed_to_screen"]) for row in document["groups"]] == [("a", 3 / 2), ("b", 3 / 1)]  # total / tp of class 1
    assert document["overall"]["number_needed_to_screen"] == pytest.approx(6 / 3)


def test_reading_errors_suggest_score_and_multi_label_where_the_file_calls_for_them(tmp_path, capsys):
    scores = write(tmp_path, "s.csv", "actual,probability\n1,0.9\n0,0.2\n")
    status, _, err = run(capsys, "report", scores)
    assert status == 2 and "no column any of predicted" in err and "give --score probability" in err
    other = write(tmp_path, "o.csv", "actual,guess\n1,1\n")
    assert "give --predicted COLUMN, or --score COLUMN for a column of scores" in run(capsys, "report", other)[2]
    sets = write(tmp_path, "sets.csv", "actual,predicted\na|b,a\nc,\n")
    status, _, err = run(capsys, "report", sets)
    assert status == 2 and "sets.csv:3: empty label; the labels hold '|': label sets (an empty cell: the empty set) are read with --multi-label" in err
    assert run(capsys, "report", sets, "--multi-label")[0] == 0
    plain = write(tmp_path, "plain.csv", "actual,predicted\na,a\nc,\n")
    assert run(capsys, "report", plain)[2].rstrip().endswith("plain.csv:3: empty label")  # no label sets: no hint


def run_cli(tmp_path, capsys, name, content, *options):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    status = main(["report", str(path), *options])
    out, err = capsys.readouterr()
    return status, out, err


csv_bytes = st.lists(
    st.sampled_from([b"a", b"b", b"1", b"0.5", b",", b"\n", b"\r\n", b"\r", b'"', b" ", b"", b"\xff", b"<NA>", b"{", b"}", b":", b"\t", b"|"]),
    max_size=40,
).map(b"".join)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("q.csv", 'actual,predicted\na,b\n"a,b\nc,c\n', r"q.csv:3: a quoted field that starts on this line never ends"),
        ("n.csv", 'actual,predicted\na,b\n"x\ny",b\nc,c\n', r"n.csv:3: a quoted field spans lines 3 to 4"),
        ("r.csv", "actual,predicted\na,b\rb,b\n", r"r.csv:2: a carriage return"),
        ("mac.csv", "actual,predicted\ra,b\rb,b\r", r"mac.csv:1: a carriage return"),
        ("h.csv", "actual,predicted,actual\na,b,c\n", r"h.csv:1: the column 'actual' appears twice in the header \(columns 1 and 3\)"),
        ("na.csv", "actual,predicted\na,a\nb,<NA>\n", r"na.csv:3: '<NA>' is a missing value as pandas writes it"),
        ("nan.csv", "actual,predicted\nnan,a\nb,b\n", r"nan.csv:2: 'nan' is a missing value"),
        ("e.csv", "actual,predicted\na,\n", r"e.csv:2: empty label"),
        ("g.csv", 'actual,predicted\n"a"x,b\n', r"g.csv:2: "),
        ("d.jsonl", '{"actual": "a", "predicted": "a", "predicted": "b"}\n', r"d.jsonl:1: the key 'predicted' appears twice"),
        ("m.jsonl", '{"actual": "a", "predicted": 1}\n{"actual": "a", "predicted": "1"}\n', r"m.jsonl:2: the field 'predicted' is a string here but a number on line 1"),
        ("b.jsonl", '{"actual": "a", "predicted": "x\\ny"}\n', r"b.jsonl:1: the label 'x\\ny' holds a line break"),
    ],
)
def test_bad_files_end_in_one_line_naming_the_line(tmp_path, capsys, name, content, message):
    status, out, err = run_cli(tmp_path, capsys, name, content)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("evalkit: error: ") and re.search(message, err), err


def test_an_endless_line_is_refused_with_bounded_memory(tmp_path, capsys):
    from evalkit.io._readers import MAX_LINE_BYTES

    path = tmp_path / "endless.csv"
    path.write_bytes(b"actual,predicted\n" + b"a" * (2 * MAX_LINE_BYTES))
    statuses = []
    peak = peak_mib(lambda: statuses.append(main(["report", str(path)])))
    _, err = capsys.readouterr()
    assert statuses == [2] and peak < 8 and f"endless.csv:2: the line is longer than {MAX_LINE_BYTES:,} bytes" in err


def test_crlf_files_and_quoted_commas_still_read(tmp_path, capsys):
    status, out, _ = run_cli(tmp_path, capsys, "ok.csv", 'actual,predicted\r\n"a,1",b\r\nb,b\r\n', "--format", "json")
    assert status == 0 and json.loads(out)["samples"] == 2


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--score", "s", "--multi-label"], "--score .* cannot go with --multi-label"),
        (["--score", "s", "--predicted", "predicted"], "give --score or --predicted, not both"),
        (["--threshold", "0.3"], "--threshold applies with --score only"),
        (["--positive", "a"], "--positive applies with --score or --group only"),
        (["--negative", "a"], "--negative applies with --score only"),
        (["--separator", ";"], "--separator applies with --multi-label only"),
        (["--ci-level", "0.9"], "--ci-level applies with --ci only"),
        (["--score", "s", "--positive", "a", "--negative", "a"], "--positive and --negative must differ"),
        (["--output", "{data}"], "is an input file: writing it would destroy the data"),
        (["--output", "{tmp}/link.csv"], "is an input file: writing it would destroy the data"),  # a link to it (written through before)
        (["--html", "{tmp}/hard.csv"], "is an input file: writing it would destroy the data"),  # the same file under another name
        (["--html", "{tmp}/x", "--output", "{tmp}/x"], "--output and --html name the same file"),
        (["--plot", "{tmp}/x.png", "--html", "{tmp}/x.png"], "--html and --plot name the same file"),
        (["--score", "s", "--threshold", "2"], r"--threshold must be in \[0, 1\]"),
        (["--ci", "--ci-level", "95"], r"--ci-level must be a confidence level in \(0, 1\)"),
    ],
)
def test_contradictory_options_are_one_line_errors_with_exit_2(tmp_path, capsys, options, message):
    data = tmp_path / "data.csv"
    data.write_text("actual,predicted,s\na,b,0.3\nb,b,0.9\n")
    (tmp_path / "link.csv").symlink_to(data)
    os.link(data, tmp_path / "hard.csv")
    options = [option.format(data=data, tmp=tmp_path) for option in options]
    status = main(["report", str(data), *options])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1
    assert re.search(message, err), err
    assert data.read_text() == "actual,predicted,s\na,b,0.3\nb,b,0.9\n"  # never overwritten


def test_delimiter_does_not_apply_to_json_lines(tmp_path, capsys):
    status, _, err = run_cli(tmp_path, capsys, "x.jsonl", '{"actual": "a", "predicted": "a"}\n', "--delimiter", ";")
    assert status == 2 and "--delimiter applies to CSV and TSV tables only" in err


@settings(max_examples=100)
@given(st.sampled_from([".csv", ".jsonl", ".tsv"]), st.sampled_from([[], ["--multi-label"], ["--score", "predicted"]]), csv_bytes, st.binary(max_size=60))
def test_random_files_end_in_a_report_or_one_line_error(suffix, options, body, noise):
    header = b'{"actual": "a", "predicted": "b"}\n' if suffix == ".jsonl" else b"actual,predicted\n" if suffix == ".csv" else b"actual\tpredicted\n"
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "data" + suffix)
        with open(path, "wb") as handle:
            handle.write(header + body + noise)
        output = os.path.join(folder, "out.txt")
        statuses = []
        peak = peak_mib(lambda: statuses.append(main(["report", path, "--output", output, *options])))  # anything but an EvalkitError escapes
    assert statuses[0] in (0, 2) and peak < 64


def test_the_command_line_refuses_intervals_of_float_weights(tmp_path, capsys):
    path = tmp_path / "w.csv"
    path.write_text("actual,predicted,w\na,a,0.5\na,b,1.5\nb,b,2.25\nb,a,1\n")
    assert main(["report", str(path), "--weight", "w", "--ci"]) == 2
    assert "--ci resamples samples" in capsys.readouterr().err
    path.write_text("actual,predicted,w\na,a,1\na,b,2\nb,b,2\nb,a,1\n")
    assert main(["report", str(path), "--weight", "w", "--ci"]) == 0
    assert "n/a" not in capsys.readouterr().out


def test_a_report_by_group_reads_its_averages_under_the_undefined_policy_asked(tmp_path, capsys):
    """Group "de" has no sample of class b, whose recall is 0/0: left out, 0 or 1 (--undefined
    was not passed on: every policy read as "exclude")."""
    content = "actual,predicted,country\na,a,fr\na,b,fr\nb,b,fr\nc,a,fr\nc,c,de\na,a,de\n"
    for policy, expected in (("exclude", 1.0), ("zero", 2 / 3), ("one", 1.0)):
        status, out, err = run_cli(tmp_path, capsys, "countries.csv", content, "--group", "country", "--measures", "recall", "--undefined", policy,
                                   "--format", "json")  # fmt: skip
        assert status == 0, err
        rows = {row["group"]["country"]: row for row in json.loads(out)["groups"]}
        matrix = ConfusionMatrix.from_predictions(["c", "a"], ["c", "a"], labels=["a", "b", "c"])
        assert rows["de"]["recall"] == pytest.approx(expected) == pytest.approx(matrix.average("recall", "macro", undefined=policy))


def test_whole_weights_written_as_floats_are_repeated_samples(tmp_path, capsys):
    """pandas writes a float weight column as 1.0, 2.0: whole numbers, counted exactly as integer
    weights and resampled by --ci (refused as "not whole numbers" before), from CSV and Parquet."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    reports = []
    for name, weights in (("ints.csv", ["1", "2", "1"]), ("floats.csv", ["1.0", "2.0", "1e0"])):
        status, out, err = run_cli(tmp_path, capsys, name, "actual,predicted,w\n" + "".join(f"{a},{p},{w}\n" for (a, p), w in zip(["aa", "ba", "bb"], weights)),
                                   "--weight", "w", "--ci", "--format", "json")  # fmt: skip
        assert status == 0, err
        reports.append({key: value for key, value in json.loads(out).items() if key not in ("source", "title")})
    pq.write_table(pa.table({"actual": ["a", "b", "b"], "predicted": ["a", "a", "b"], "w": [1.0, 2.0, 1.0]}), tmp_path / "floats.parquet")
    status = main(["report", str(tmp_path / "floats.parquet"), "--weight", "w", "--ci", "--format", "json"])
    out, err = capsys.readouterr()
    assert status == 0, err
    reports.append({key: value for key, value in json.loads(out).items() if key not in ("source", "title")})
    assert reports[0] == reports[1] == reports[2]
    status, _, err = run_cli(tmp_path, capsys, "halves.csv", "actual,predicted,w\na,a,0.5\nb,b,1.5\n", "--weight", "w", "--ci")
    assert status == 2 and "not whole" in err


def test_a_time_column_holds_one_kind_of_time_whatever_the_batches(tmp_path, capsys):
    """Numbers and ISO dates in one time column: with one batch the number was called "neither a
    number nor a date"; read a row at a time, the epoch seconds of the dates were mixed with the
    raw numbers, and the table made of them."""
    mixed = "actual,predicted,t\na,a,5\nb,a,2024-01-01T00:00:00\nb,b,2024-01-01T00:00:01\n"
    for size in ("100000", "1"):  # the first time says the column's kind, whatever the batches
        status, _, err = run_cli(tmp_path, capsys, "mixed.csv", mixed, "--period", "1e10", "--time-column", "t", "--batch-size", size)
        assert status == 2 and "mixed.csv:3: time '2024-01-01T00:00:00' is a date among numbers: a column holds one kind of time" in err, err
        status, _, err = run_cli(tmp_path, capsys, "back.csv", "actual,predicted,t\na,a,2024-01-01T00:00:00\nb,a,7\n", "--period", "1e10", "--time-column", "t", "--batch-size", size)
        assert status == 2 and "back.csv:3: time '7' is a number among dates: a column holds one kind of time" in err
