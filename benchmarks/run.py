"""Benchmarks: evalkit against the numpy floor and against its peers, as ratios measured in one run.

    python -m pip install ".[benchmark]"          # scikit-learn, PyCM, torch (CPU), torchmetrics
    python benchmarks/run.py                       # every case; Markdown table on stdout
    python benchmarks/run.py --output benchmarks/results.md
    python benchmarks/run.py --quick               # a tenth of the sizes: a smoke run

Machines here are noisy, so every case times all its contenders in the same run (interleaved
best-of-N for evalkit and the floor, one timing for slow peers) and the table reports ratios;
absolute times are for orientation only. Slow peers are timed on a slice of the data and
scaled linearly, and say so. Peak extra memory of evalkit is measured with tracemalloc
(numpy reports its allocations there) against the size of the input arrays. A peer that is
not installed is reported as missing, never silently skipped.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from timing import best_times, peak_bytes, without_huge_pages  # the timing of every benchmark

import evalkit
from evalkit import Calibration, ConfusionMatrix, Covering, Evaluation, NeighborhoodSystem, ThresholdCurve
from evalkit.io import build_report
from evalkit.metrics import expected_calibration_error

AVERAGES = ("micro", "macro", "weighted", "samples")


@dataclass
class Case:
    """One workload: a floor, evalkit, and peers, all computing the same thing."""

    name: str
    input_bytes: int
    contenders: dict[str, Callable[[], object]] = field(default_factory=dict)
    target: str = ""
    scale: dict[str, float] = field(default_factory=dict)  # contender timed on a slice -> n / slice
    once: set[str] = field(default_factory=set)  # slow peers: timed once
    missing: list[str] = field(default_factory=list)
    calls: int = 1  # each timing runs the contender this many times (microsecond workloads)


def _peer(module: str, case: Case) -> bool:
    try:
        __import__(module)
        return True
    except ImportError:
        case.missing.append(module)
        return False


# --------------------------------------------------------------------------------------------
# cases


def integer_labels(n: int, m: int) -> Case:
    rng = np.random.default_rng(n + m)
    y_true, y_pred = rng.integers(0, m, n), rng.integers(0, m, n)
    case = Case(f"confusion matrix, {n:,} int labels, {m} classes", y_true.nbytes + y_pred.nbytes,
                target="≤ 1.3× floor; ≥ 20× faster than scikit-learn")  # fmt: skip
    case.contenders["numpy floor (bincount)"] = lambda: np.bincount(y_true * m + y_pred, minlength=m * m)
    case.contenders["evalkit"] = lambda: ConfusionMatrix.from_predictions(y_true, y_pred)
    if _peer("sklearn", case):
        from sklearn.metrics import confusion_matrix

        case.contenders["scikit-learn"] = lambda: confusion_matrix(y_true, y_pred)
        case.once.add("scikit-learn")
    if _peer("torchmetrics", case):
        import torch
        from torchmetrics.functional.classification import multiclass_confusion_matrix

        torch.set_num_threads(1)
        target, preds = torch.from_numpy(y_true), torch.from_numpy(y_pred)
        case.contenders["torchmetrics (CPU)"] = lambda: multiclass_confusion_matrix(preds, target, num_classes=m)
        case.once.add("torchmetrics (CPU)")
    return case


def weighted_labels(n: int, m: int, integral: bool) -> Case:
    rng = np.random.default_rng(n + m + integral)
    y_true, y_pred = rng.integers(0, m, n), rng.integers(0, m, n)
    weight = rng.integers(1, 10, n) if integral else rng.random(n)
    kind = "integer" if integral else "float"
    case = Case(f"weighted confusion matrix, {n:,} int labels, {m} classes, {kind} weights", y_true.nbytes + y_pred.nbytes + weight.nbytes,
                target="≤ 1.5× floor; faster than scikit-learn" if integral else "exact sums (the floor's are not): ≤ 7× floor; ≥ 5× faster than scikit-learn")  # fmt: skip
    case.contenders["numpy floor (bincount with weights)"] = lambda: np.bincount(y_true * m + y_pred, weights=weight, minlength=m * m)
    case.contenders["evalkit"] = lambda: ConfusionMatrix.from_predictions(y_true, y_pred, sample_weight=weight)
    if _peer("sklearn", case):
        from sklearn.metrics import confusion_matrix

        case.contenders["scikit-learn"] = lambda: confusion_matrix(y_true, y_pred, sample_weight=weight)
        case.once.add("scikit-learn")
    return case


def dataframe_columns(n: int, m: int, kind: str) -> Case:
    """Two label columns of a dataframe library: categorical (pandas ``category``, Arrow
    ``dictionary``, polars ``Categorical``) against numpy's bincount of their codes, strings
    (Arrow, pandas ``str``, polars ``String``) against Arrow's ``dictionary_encode`` of both."""
    import pandas as pd
    import polars as pl
    import pyarrow as pa

    rng = np.random.default_rng(3)
    names = np.array([f"class_{k:03d}" for k in range(m)])
    y_true, y_pred = names[rng.integers(0, m, n)], names[rng.integers(0, m, n)]
    columns = {
        "pandas category": lambda values: pd.Series(values).astype("category"),
        "Arrow dictionary": lambda values: pa.array(values).dictionary_encode(),
        "Arrow string": pa.array,
        "pandas str": lambda values: pd.Series(values, dtype="str"),
        "polars Categorical": lambda values: pl.Series(values, dtype=pl.Categorical),
        "polars String": lambda values: pl.Series(values, dtype=pl.String),
    }
    actual, predicted = columns[kind](y_true), columns[kind](y_pred)
    coded = kind in ("pandas category", "Arrow dictionary", "polars Categorical")
    case = Case(f"confusion matrix, {n:,} labels in two {kind} columns, {m} classes", y_true.nbytes + y_pred.nbytes,
                target="≤ 2× the bincount of the codes" if coded else "≤ 3× Arrow's dictionary_encode")  # fmt: skip
    if coded:
        physical = {"pandas category": lambda column: column.cat.codes, "Arrow dictionary": lambda column: column.indices,
                    "polars Categorical": lambda column: column.to_physical().to_numpy()}[kind]  # fmt: skip
        codes = [np.asarray(physical(column)) for column in (actual, predicted)]
        case.contenders["numpy floor (bincount of the codes)"] = lambda: np.bincount(codes[0].astype(np.intp) * m + codes[1], minlength=m * m)
    else:
        arrow = [pa.array(y_true), pa.array(y_pred)]
        case.contenders["Arrow floor (dictionary_encode of both)"] = lambda: [column.dictionary_encode() for column in arrow]
    case.contenders["evalkit"] = lambda: ConfusionMatrix.from_predictions(actual, predicted)
    return case


def full_report(n: int, m: int) -> Case:
    rng = np.random.default_rng(5)
    y_true, y_pred = rng.integers(0, m, n), rng.integers(0, m, n)
    case = Case(f"full per-class report, {n:,} labels, {m} classes", y_true.nbytes + y_pred.nbytes,
                target="≥ 30× faster than scikit-learn")  # fmt: skip
    case.contenders["numpy floor (bincount)"] = lambda: np.bincount(y_true * m + y_pred, minlength=m * m)
    case.contenders["evalkit"] = lambda: build_report(ConfusionMatrix.from_predictions(y_true, y_pred)).to_text()
    if _peer("sklearn", case):
        from sklearn.metrics import classification_report

        case.contenders["scikit-learn"] = lambda: classification_report(y_true, y_pred, zero_division=0)
        case.once.add("scikit-learn")
    return case


def string_labels(n: int, m: int, as_array: bool) -> Case:
    rng = np.random.default_rng(1)
    names = np.array([f"class_{k:03d}" for k in range(m)])
    y_true, y_pred = names[rng.integers(0, m, n)], names[rng.integers(0, m, n)]
    kind = "numpy str array" if as_array else "list of str"
    size = y_true.nbytes + y_pred.nbytes if as_array else 2 * n * 8
    if not as_array:
        y_true, y_pred = y_true.tolist(), y_pred.tolist()
    case = Case(f"confusion matrix, {n:,} string labels ({kind}), {m} classes", size,
                target="≥ 3× faster than scikit-learn; faster than PyCM")  # fmt: skip
    lookup = {name: k for k, name in enumerate(names.tolist())}

    def floor() -> object:  # one dict lookup per label, then a bincount
        t = np.fromiter(map(lookup.__getitem__, y_true if not as_array else y_true.tolist()), np.intp, n)
        p = np.fromiter(map(lookup.__getitem__, y_pred if not as_array else y_pred.tolist()), np.intp, n)
        return np.bincount(t * m + p, minlength=m * m)

    case.contenders["dict floor"] = floor
    case.contenders["evalkit"] = lambda: ConfusionMatrix.from_predictions(y_true, y_pred)
    if _peer("sklearn", case):
        from sklearn.metrics import confusion_matrix

        case.contenders["scikit-learn"] = lambda: confusion_matrix(y_true, y_pred)
        case.once.add("scikit-learn")
    if _peer("pycm", case):
        from pycm import ConfusionMatrix as PycmMatrix

        part = min(n, 100_000)  # PyCM is pure Python: time a slice, scale linearly
        t_part, p_part = list(y_true[:part]), list(y_pred[:part])
        name = f"PyCM (timed on {part:,}, × {n / part:g})"
        case.contenders[name] = lambda: PycmMatrix(actual_vector=t_part, predict_vector=p_part)
        case.scale[name] = n / part
    return case


def multilabel(n: int, m: int) -> Case:
    rng = np.random.default_rng(2)
    actual = rng.random((n, m), dtype=np.float32) < 0.1
    predicted = rng.random((n, m), dtype=np.float32) < 0.1
    case = Case(f"multi-label F1, four averages, {n:,} x {m} bool", actual.nbytes + predicted.nbytes,
                target="≤ 2× floor; ≥ 20× faster than scikit-learn")  # fmt: skip

    def floor() -> object:  # one pass of column and row sums over the logical cells
        both = actual & predicted
        return [x.sum(axis) for x in (both, actual, predicted) for axis in (0, 1)]

    def ours() -> object:
        evaluation = Evaluation.from_indicators(actual, predicted)
        return [evaluation.average("f1_score", average) for average in AVERAGES]

    case.contenders["numpy floor (row and column sums)"] = floor
    case.contenders["evalkit"] = ours
    if _peer("sklearn", case):
        from sklearn.metrics import precision_recall_fscore_support

        part = min(n, 100_000)
        name = f"scikit-learn (timed on {part:,}, × {n / part:g})"
        case.contenders[name] = lambda: [
            precision_recall_fscore_support(actual[:part], predicted[:part], average=average, zero_division=np.nan) for average in AVERAGES
        ]
        case.scale[name] = n / part
    if _peer("torchmetrics", case):
        import torch
        from torchmetrics.functional.classification import multilabel_f1_score

        target, preds = torch.from_numpy(actual.view(np.uint8)), torch.from_numpy(predicted.view(np.uint8))
        name = "torchmetrics (CPU; micro, macro, weighted)"
        case.contenders[name] = lambda: [multilabel_f1_score(preds, target, num_labels=m, average=a) for a in ("micro", "macro", "weighted")]
        case.once.add(name)
    return case


def label_sets(n: int, m: int) -> Case:
    rng = np.random.default_rng(9)
    names = [f"tag{k}" for k in range(m)]
    actual = [set(rng.choice(names, size=rng.integers(0, 4), replace=False).tolist()) for _ in range(n)]
    predicted = [set(rng.choice(names, size=rng.integers(0, 4), replace=False).tolist()) for _ in range(n)]
    case = Case(f"multi-label F1 from label sets, four averages, {n:,} samples, {m} labels", 1, target="≤ 3× the dict floor")
    index = {name: k for k, name in enumerate(names)}

    def floor() -> object:  # one dict lookup per label of both inputs, then the sums
        codes = [np.fromiter((index[label] for labels in family for label in labels), np.intp) for family in (actual, predicted)]
        return [np.bincount(c, minlength=m) for c in codes]

    def ours() -> object:
        evaluation = Evaluation.from_label_sets(actual, predicted)
        return [evaluation.average("f1_score", average) for average in AVERAGES]

    case.contenders["dict floor (a lookup per label)"] = floor
    case.contenders["evalkit"] = ours
    if _peer("sklearn", case):
        from sklearn.metrics import f1_score
        from sklearn.preprocessing import MultiLabelBinarizer

        def peer() -> object:
            binarizer = MultiLabelBinarizer(classes=names, sparse_output=True)
            a, p = binarizer.fit_transform(actual), binarizer.transform(predicted)
            return [f1_score(a, p, average=average, zero_division=np.nan) for average in AVERAGES]

        case.contenders["scikit-learn (MultiLabelBinarizer, sparse)"] = peer
        case.once.add("scikit-learn (MultiLabelBinarizer, sparse)")
    return case


def soft(n: int, m: int) -> Case:
    rng = np.random.default_rng(3)
    actual = rng.random((n, m), dtype=np.float32)
    predicted = rng.random((n, m), dtype=np.float32)
    case = Case(f"soft F1 (product t-norm), four averages, {n:,} x {m} float32", actual.nbytes + predicted.nbytes,
                target="peak extra memory ≤ 2× input")  # fmt: skip

    def floor() -> object:
        both = actual * predicted
        return [x.sum(axis, dtype=np.float64) for x in (both, actual, predicted) for axis in (0, 1)]

    def ours() -> object:
        evaluation = Evaluation.from_soft(actual, predicted)
        return [evaluation.average("f1_score", average) for average in AVERAGES]

    case.contenders["numpy floor (row and column sums)"] = floor
    case.contenders["evalkit"] = ours
    return case


def aa_rar(n: int, m: int, with_sets: bool) -> Case:
    rng = np.random.default_rng(4)
    ideal = rng.random((n, m), dtype=np.float32) < 0.1
    result = ideal ^ (rng.random((n, m), dtype=np.float32) < 0.05)
    target = "≥ 100× faster than the set-based formulas" if with_sets else "≤ 2× floor"
    case = Case(f"AA and RAR, {n:,} x {m} bool", ideal.nbytes + result.nbytes, target=target)

    def floor() -> object:
        both = ideal & result
        return [x.sum(axis) for x in (both, ideal, result) for axis in (0, 1)]

    def ours() -> object:
        accuracy = NeighborhoodSystem(Covering.from_indicators(ideal)).evaluate(Covering.from_indicators(result))
        return accuracy.get_absolute_accuracy(), accuracy.get_relative_accuracy_rate()

    case.contenders["numpy floor (row and column sums)"] = floor
    case.contenders["evalkit"] = ours
    if with_sets:
        blocks = [set(np.flatnonzero(ideal[:, j]).tolist()) for j in range(m)]
        result_blocks = [set(np.flatnonzero(result[:, j]).tolist()) for j in range(m)]

        def straightforward() -> object:  # the paper's formulas on Python sets, Q_NS by membership
            t_pos = sum(len(p & q) for p, q in zip(blocks, result_blocks))
            t_neg = 0
            for r in range(n):
                q = {i for i, block in enumerate(blocks) if r in block}
                q_result = {i for i, block in enumerate(result_blocks) if r in block}
                t_neg += max(len(q_result - q), len(q - q_result))
            return t_pos / sum(map(len, blocks)), t_pos / t_neg

        case.contenders["set-based (the paper's formulas)"] = straightforward
        case.once.add("set-based (the paper's formulas)")
    return case


# --------------------------------------------------------------------------------------------
# the Java-style object path (microseconds: each contender runs many times per timing)


def binary_scores(n: int, weighted: bool) -> Case:
    rng = np.random.default_rng(n + weighted)
    y = rng.random(n) < 0.3
    s = np.clip(rng.normal(0.4, 0.2, n) + 0.2 * y, 0, 1)
    weight = rng.random(n) if weighted else None
    kind = ", float weights" if weighted else ""
    case = Case(f"exact ROC AUC, {n:,} binary scores{kind}", y.nbytes + s.nbytes + (weight.nbytes if weighted else 0),
                target="≤ 1.5× one argsort; ≥ 2× faster than scikit-learn")  # fmt: skip
    case.contenders["numpy floor (one argsort)"] = lambda: np.argsort(s)
    case.contenders["evalkit"] = lambda: ThresholdCurve.from_scores(y, s, sample_weight=weight).roc_auc()
    if _peer("sklearn", case):
        from sklearn.metrics import roc_auc_score

        case.contenders["scikit-learn"] = lambda: roc_auc_score(y, s, sample_weight=weight)
        case.once.add("scikit-learn")
    if not weighted and _peer("torchmetrics", case):
        import torch
        from torchmetrics.functional.classification import binary_auroc

        torch.set_num_threads(1)
        preds, target = torch.from_numpy(s), torch.from_numpy(y.astype(np.int64))
        case.contenders["torchmetrics (CPU)"] = lambda: binary_auroc(preds, target)
        case.once.add("torchmetrics (CPU)")
    return case


def multiclass_scores(n: int, m: int) -> Case:
    rng = np.random.default_rng(n * m)
    y = rng.integers(0, m, n)
    s = rng.dirichlet(np.ones(m), n) * 0.7 + np.eye(m)[y] * 0.3
    case = Case(f"exact one-vs-rest ROC AUC (macro), {n:,} samples, {m} classes", y.nbytes + s.nbytes,
                target="≤ 1.5× argsort of every column; ≥ 2× faster than scikit-learn")  # fmt: skip
    case.contenders["numpy floor (argsort of every column)"] = lambda: np.argsort(s, axis=0)
    case.contenders["evalkit"] = lambda: ThresholdCurve.from_scores(y, s).roc_auc(average="macro")
    if _peer("sklearn", case):
        from sklearn.metrics import roc_auc_score

        case.contenders["scikit-learn"] = lambda: roc_auc_score(y, s, multi_class="ovr")
        case.once.add("scikit-learn")
    return case


def binned_scores(n: int, thresholds: int) -> Case:
    rng = np.random.default_rng(n + thresholds)
    y = rng.random(n) < 0.3
    s = np.clip(rng.normal(0.4, 0.2, n) + 0.2 * y, 0, 1)
    grid = np.linspace(0, 1, thresholds)
    case = Case(f"binned ROC AUC, {n:,} binary scores, {thresholds} thresholds", y.nbytes + s.nbytes,
                target="memory O(thresholds); near one bucketing pass")  # fmt: skip
    case.contenders["numpy floor (one bucketing pass)"] = lambda: np.bincount(np.searchsorted(grid, s), minlength=thresholds + 1)
    case.contenders["evalkit"] = lambda: ThresholdCurve.from_scores(y, s, thresholds=thresholds).roc_auc()
    if _peer("torchmetrics", case):
        import torch
        from torchmetrics.functional.classification import binary_auroc

        torch.set_num_threads(1)
        preds, target = torch.from_numpy(s), torch.from_numpy(y.astype(np.int64))
        case.contenders["torchmetrics (CPU)"] = lambda: binary_auroc(preds, target, thresholds=thresholds)
        case.once.add("torchmetrics (CPU)")
    return case


def operating_point(n: int) -> Case:
    """The highest precision at recall >= 0.9: build the exact curve, then optimise over every distinct score."""
    rng = np.random.default_rng(n + 1)
    y_true = rng.random(n) < 0.3
    y_score = rng.normal(y_true * 1.0, 1.0)
    case = Case(f"precision at recall >= 0.9, {n:,} binary scores", y_true.nbytes + y_score.nbytes,
                target="≤ 1.5× the curve alone; ≥ 10× faster than torchmetrics")  # fmt: skip
    case.contenders["numpy floor (one sort of the scores)"] = lambda: np.sort(y_score)
    case.contenders["evalkit"] = lambda: ThresholdCurve.from_scores(y_true, y_score).optimize("precision", subject_to="recall >= 0.9")
    case.contenders["evalkit: the curve alone"] = lambda: ThresholdCurve.from_scores(y_true, y_score)
    if _peer("torchmetrics", case):
        import torch
        from torchmetrics.functional.classification import binary_precision_at_fixed_recall

        torch.set_num_threads(1)
        preds, target = torch.from_numpy(y_score).sigmoid(), torch.from_numpy(y_true.astype(np.int64))
        case.contenders["torchmetrics (CPU)"] = lambda: binary_precision_at_fixed_recall(preds, target, min_recall=0.9)
        case.once.add("torchmetrics (CPU)")
    return case


def scikit_learn_rest(n: int, m: int = 20) -> list[Case]:
    """scikit-learn's ranking metrics, hinge loss, D² scores and auc: evalkit against
    scikit-learn on the same data (scikit-learn's per-sample loops timed on a slice and scaled)."""
    from evalkit import metrics as ek

    rng = np.random.default_rng(n + m)
    relevance = (rng.random((n, m)) < 0.2).astype(np.int64)
    gains = rng.integers(0, 4, (n, m))
    scores = np.round(rng.random((n, m)), 2)  # ties, as real scores have
    labels = rng.integers(0, 2, 100 * n)
    decision = rng.normal(size=100 * n)
    probabilities = np.clip(rng.normal(0.4, 0.2, 100 * n) + 0.2 * labels, 0.01, 0.99)
    x, y = np.sort(rng.random(100 * n)), rng.random(100 * n)
    table, rows = np.column_stack([1 - probabilities, probabilities]), np.arange(100 * n)
    workloads = [
        ("coverage_error", (relevance, scores), f"{n:,} x {m} scores", lambda: (scores >= 0.5).sum(axis=1)),
        ("label_ranking_average_precision_score", (relevance, scores), f"{n:,} x {m} scores", lambda: np.argsort(-scores, axis=1)),
        ("label_ranking_loss", (relevance, scores), f"{n:,} x {m} scores", lambda: np.argsort(-scores, axis=1)),
        ("dcg_score", (gains, scores), f"{n:,} x {m} scores, ties averaged", lambda: np.argsort(-scores, axis=1)),
        ("ndcg_score", (gains, scores), f"{n:,} x {m} scores, ties averaged", lambda: np.argsort(-scores, axis=1)),
        ("hinge_loss", (labels, decision), f"{100 * n:,} decisions", lambda: np.maximum(1 - (2 * labels - 1) * decision, 0).mean()),
        ("d2_brier_score", (labels, probabilities), f"{100 * n:,} probabilities",
         lambda: (((labels - probabilities) ** 2).mean(), np.bincount(labels))),  # the model's squared gaps, the null model's class totals
        ("d2_log_loss_score", (labels, table), f"{100 * n:,} probabilities",
         lambda: (-np.log(table.ravel().take(labels + 2 * rows)).mean(), np.bincount(labels))),  # each sample's own probability, class totals
        ("auc", (x, y), f"{100 * n:,} points", lambda: np.trapezoid(y, x)),
    ]
    cases = []
    for name, args, size, floor in workloads:
        case = Case(f"{name}, {size}", sum(np.asarray(a).nbytes for a in args), target="faster than scikit-learn")
        case.contenders["numpy floor (the formula's main step)"] = floor
        case.contenders["evalkit"] = lambda name=name, args=args: getattr(ek, name)(*args)
        if _peer("sklearn", case):
            from sklearn import metrics as sk

            if name in ("label_ranking_average_precision_score", "label_ranking_loss") or (name in ("dcg_score", "ndcg_score")):
                part = max(n // 20, 1)  # a loop over samples: timed on a slice, scaled
                sliced = tuple(a[:part] for a in args)
                case.contenders["scikit-learn"] = lambda name=name, sliced=sliced: getattr(sk, name)(*sliced)
                case.scale["scikit-learn"] = n / part
            else:
                case.contenders["scikit-learn"] = lambda name=name, args=args: getattr(sk, name)(*args)
            case.once.add("scikit-learn")
        cases.append(case)
    return cases


def agreement(items: int, raters: int, q: int) -> Case:
    """Every agreement measure of a ratings table against statsmodels' Fleiss kappa and the
    krippendorff package."""
    rng = np.random.default_rng(items)
    truth = rng.integers(0, q, items)
    ratings = np.where(rng.random((items, raters)) < 0.7, truth[:, None], rng.integers(0, q, (items, raters)))
    case = Case(f"agreement: Fleiss, Randolph, AC1, alpha, {items:,} items x {raters} raters, {q} categories", ratings.nbytes,
                target="≤ 3× floor; faster than statsmodels + krippendorff")  # fmt: skip
    case.contenders["numpy floor (the counts table: a key per rating, one bincount)"] = lambda: np.bincount((np.arange(items)[:, None] * q + ratings).ravel(),
                                                                                                           minlength=items * q)  # fmt: skip

    def ours() -> object:
        found = evalkit.Agreement.from_ratings(ratings)
        return found.get_fleiss_kappa(), found.get_randolph_kappa(), found.get_gwet_ac1(), found.get_krippendorff_alpha()

    def script() -> tuple[float, ...]:  # the four formulas in plain numpy, every item rated by every rater (no checks, no weights)
        n = np.bincount((np.arange(items)[:, None] * q + ratings).ravel(), minlength=items * q).reshape(items, q).astype(np.float64)
        observed = ((n * n).sum() - items * raters) / (items * raters * (raters - 1))
        p = n.sum(axis=0) / (items * raters)
        fleiss, randolph = (observed - p @ p) / (1 - p @ p), (observed - 1 / q) / (1 - 1 / q)
        chance = (p * (1 - p)).sum() / (q - 1)
        coincidences = (n.T @ n - np.diag(n.sum(axis=0))) / (raters - 1)
        marginals = coincidences.sum(axis=1)
        total = marginals.sum()
        alpha = 1 - (total - 1) * (coincidences.sum() - np.trace(coincidences)) / (total**2 - marginals @ marginals)
        return fleiss, randolph, (observed - chance) / (1 - chance), alpha

    assert np.allclose(ours(), script(), rtol=1e-12)
    case.contenders["evalkit"] = ours
    case.contenders["numpy script (the four formulas on the counts table, no checks)"] = script
    if _peer("statsmodels", case) and _peer("krippendorff", case):
        import krippendorff
        from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

        def theirs() -> object:
            table, _ = aggregate_raters(ratings)
            return fleiss_kappa(table), fleiss_kappa(table, method="randolph"), krippendorff.alpha(reliability_data=ratings.T.astype(float),
                                                                                                   level_of_measurement="nominal")  # fmt: skip

        case.contenders["statsmodels + krippendorff"] = theirs
        case.once.add("statsmodels + krippendorff")
    return case


def model_comparison(n: int, k: int) -> Case:
    """Ranks, Friedman, Iman-Davenport, the critical differences and the rank z tests of every
    pair (Shaffer) of a table of n data sets x k models, beside numpy's ranking of it and
    scikit-posthocs' Nemenyi p-values."""
    rng = np.random.default_rng(n * k)
    table = rng.random((n, k))
    case = Case(f"model comparison: ranks, omnibus and post-hoc tests, {n} data sets x {k} models", table.nbytes,
                target="a few times numpy's ranking")  # fmt: skip
    case.contenders["numpy floor (ranks: two argsorts)"] = lambda: np.argsort(np.argsort(-table, axis=1), axis=1)

    def ours() -> object:
        found = evalkit.ModelComparison(table)
        return found.friedman(), found.iman_davenport(), found.critical_difference(), found.pairwise("ranks", "shaffer")

    case.contenders["evalkit"] = ours
    if _peer("scikit_posthocs", case):
        import scikit_posthocs

        case.contenders["scikit-posthocs (Nemenyi p-values)"] = lambda: scikit_posthocs.posthoc_nemenyi_friedman(table)
    return case


def bayesian_signed_rank(n: int, samples: int = 50_000) -> Case:
    """The Bayesian signed-rank test of two models on n data sets, beside baycomp's."""
    from evalkit.comparisons._bayesian import signed_rank_test

    rng = np.random.default_rng(n)
    a = rng.uniform(0.6, 0.9, n)
    b = a + rng.normal(0.004, 0.02, n)
    case = Case(f"Bayesian signed-rank test, {n} data sets, {samples:,} posterior samples", a.nbytes + b.nbytes,
                target=">= 10x faster than baycomp")  # fmt: skip
    case.contenders["numpy floor (the Dirichlet samples)"] = lambda: np.random.default_rng(1).dirichlet(np.ones(n + 1), samples)
    case.contenders["evalkit"] = lambda: signed_rank_test(a, b, rope=0.01, n_samples=samples, random_state=1)
    if _peer("baycomp", case):
        import baycomp

        case.contenders["baycomp"] = lambda: baycomp.SignedRankTest.probs(b, a, rope=0.01, nsamples=samples, random_state=1)
        case.once.add("baycomp")
    return case


def grouped(n: int, count: int, m: int) -> Case:
    """Every measure and average of every group against the same of the whole data once."""
    rng = np.random.default_rng(n + count)
    y_true, y_pred, groups = rng.integers(0, m, n), rng.integers(0, m, n), rng.integers(0, count, n)
    names = [name for name in evalkit.formulas.measure_names() if not evalkit.formulas.MEASURES[name].parameters]

    def every(result: object) -> object:
        return [result.average(name, kind) for name in names for kind in ("micro", "macro", "weighted")]  # type: ignore[attr-defined]

    case = Case(f"by group: every measure and average, {n:,} labels, {count} groups, {m} classes", y_true.nbytes * 3,
                target="≤ 2× one evaluation of the whole data")  # fmt: skip
    case.contenders["numpy floor (bincount of (group, actual, predicted))"] = lambda: np.bincount((groups * m + y_true) * m + y_pred, minlength=count * m * m)
    def by_group() -> object:
        result = evalkit.by_group(y_true, y_pred, groups)
        return [result.values(name, kind) for name in names for kind in ("micro", "macro", "weighted")]

    case.contenders["evalkit"] = by_group
    case.contenders["evalkit: the whole data once"] = lambda: every(ConfusionMatrix.from_predictions(y_true, y_pred))
    return case


def grouped_bootstrap(n: int, count: int, resamples: int) -> Case:
    """An interval of the difference of macro F1 between groups: evalkit's stratified bootstrap
    against fairlearn's MetricFrame bootstrap (timed with fewer resamples and scaled)."""
    rng = np.random.default_rng(n)
    y_true, groups = rng.integers(0, 3, n), rng.integers(0, count, n)
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, 3, n))
    case = Case(f"by group: {resamples:,}-resample interval of a macro F1 difference, {n:,} labels, {count} groups", y_true.nbytes * 3,
                target="≥ 100× faster than fairlearn's MetricFrame")  # fmt: skip
    case.contenders["numpy floor (bincount of (group, actual, predicted))"] = lambda: np.bincount((groups * 3 + y_true) * 3 + y_pred, minlength=count * 9)
    case.contenders["evalkit"] = lambda: evalkit.by_group(y_true, y_pred, groups).difference("f1_score", "macro", confidence=0.95, n_resamples=resamples)
    if _peer("fairlearn", case):
        from fairlearn.metrics import MetricFrame
        from sklearn.metrics import f1_score

        few = 10
        case.contenders[f"fairlearn MetricFrame (n_boot={few}, scaled)"] = lambda: MetricFrame(
            metrics=lambda t, p: f1_score(t, p, average="macro"), y_true=y_true, y_pred=y_pred, sensitive_features=groups, n_boot=few,
            ci_quantiles=[0.025, 0.975], random_state=0).difference_ci()  # fmt: skip
        case.scale[f"fairlearn MetricFrame (n_boot={few}, scaled)"] = resamples / few
    return case


def calibration_error(n: int, n_bins: int = 15) -> Case:
    """ECE of binary scores in equal-width bins (right-closed, scikit-learn's bins)."""
    rng = np.random.default_rng(n)
    y_prob = rng.random(n)
    y_true = (rng.random(n) < y_prob).astype(np.int64)
    case = Case(f"expected calibration error, {n:,} binary scores, {n_bins} bins", y_prob.nbytes + y_true.nbytes,
                target="≤ 1.5× floor")  # fmt: skip
    case.contenders["numpy floor (bin index, one bincount)"] = lambda: np.bincount(np.minimum((y_prob * n_bins).astype(np.intp), n_bins - 1), minlength=n_bins)
    case.contenders["evalkit"] = lambda: expected_calibration_error(y_true, y_prob, n_bins=n_bins)
    case.contenders["evalkit Calibration(bins=15): every sum (Brier, log loss, ...)"] = lambda: Calibration.from_scores(y_true, y_prob, bins=n_bins)
    if _peer("sklearn", case):
        from sklearn.calibration import calibration_curve

        case.contenders["scikit-learn calibration_curve (no ECE)"] = lambda: calibration_curve(y_true, y_prob, n_bins=n_bins)
        case.once.add("scikit-learn calibration_curve (no ECE)")
    if _peer("torchmetrics", case):
        import torch
        from torchmetrics.functional.classification import binary_calibration_error

        torch.set_num_threads(1)
        preds, target = torch.from_numpy(y_prob), torch.from_numpy(y_true)
        case.contenders["torchmetrics (CPU)"] = lambda: binary_calibration_error(preds, target, n_bins=n_bins)
        case.once.add("torchmetrics (CPU)")
    return case


def bootstrap_interval(n: int, m: int, resamples: int = 10_000) -> Case:
    rng = np.random.default_rng(n + m + resamples)
    y_true = rng.integers(0, m, n)
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, m, n))
    case = Case(f"BCa interval of macro F1, {resamples:,} resamples, {n:,} labels, {m} classes", y_true.nbytes + y_pred.nbytes,
                target="≤ 50× one evaluation (the floor here)")  # fmt: skip
    case.contenders["one evaluation floor (count, then macro F1)"] = lambda: ConfusionMatrix.from_predictions(y_true, y_pred).average("f1_score", "macro")
    case.contenders["evalkit"] = lambda: ConfusionMatrix.from_predictions(y_true, y_pred).interval("f1_score", "macro", n_resamples=resamples, random_state=0)
    return case


def getter_measures(n: int, m: int, scores: int) -> list[Case]:
    """A measure defined by a subclass getter against the same measure registered as a
    vectorised function: averages of multi-label samples, and a curve at every threshold."""
    from evalkit import ClassificationMetrics, formulas

    class Defined(ClassificationMetrics):
        def get_balanced_error(self) -> float:
            tp, fp, fn, tn = self.get_true_positive(), self.get_false_positive(), self.get_false_negative(), self.get_true_negative()
            return (fn / (tp + fn) + fp / (fp + tn)) / 2 if tp + fn and fp + tn else float("nan")

    def balanced_error(*, tp: object, fp: object, fn: object, tn: object) -> object:
        tp, fp, fn, tn = (np.asarray(x, dtype=np.float64) for x in (tp, fp, fn, tn))
        with np.errstate(divide="ignore", invalid="ignore"):
            return (fn / (tp + fn) + fp / (fp + tn)) / 2

    registered = formulas.Measure.from_function(balanced_error)
    rng = np.random.default_rng(n + m)
    y_true = rng.random((n, m)) < 0.3
    y_pred = np.where(rng.random((n, m)) < 0.8, y_true, ~y_true)
    evaluation = Evaluation.from_indicators(y_true, y_pred, metrics_class=Defined)
    averages = Case(f"a getter-defined measure, micro + macro + samples averages of {n:,} x {m} multi-label samples", y_true.nbytes * 2,
                    target="one getter call per distinct entry (documented)")  # fmt: skip
    averages.contenders["the measure registered as a vectorised function (floor)"] = lambda: [evaluation.average(registered, a) for a in ("micro", "macro", "samples")]
    averages.contenders["evalkit"] = lambda: [evaluation.average("balanced_error", a) for a in ("micro", "macro", "samples")]
    labels = rng.integers(0, 2, scores)
    curve = ThresholdCurve.from_scores(labels, rng.random(scores), metrics_class=Defined)
    at_thresholds = Case(f"a getter-defined measure at every threshold of {scores:,} distinct scores", labels.nbytes * 2,
                         target="one getter call per threshold (documented)")  # fmt: skip
    at_thresholds.contenders["the measure registered as a vectorised function (floor)"] = lambda: curve.evaluate(registered)
    at_thresholds.contenders["evalkit"] = lambda: curve.evaluate("balanced_error")
    return [averages, at_thresholds]


def _per_call(function: Callable[[], object], calls: int) -> Callable[[], object]:
    """A contender timing ``calls`` runs; the table divides by ``calls`` (via ``Case.scale``)."""

    def run() -> object:
        for _ in range(calls):
            function()
        return None

    return run


def _micro(name: str, target: str, contenders: dict[str, Callable[[], object]], calls: int) -> Case:
    case = Case(name, 0, target=target, calls=calls)
    case.contenders.update({contender: _per_call(function, calls) for contender, function in contenders.items()})
    return case


def _first_read(metrics: Any, getter: Callable[[], object]) -> Callable[[], object]:
    """A getter timed as its first read: an object computes each measure once, so its memo is
    forgotten before every call."""
    memo = metrics._memo

    def read() -> object:
        memo.clear()
        return getter()

    return read


def _mean_getter_floor(metrics: Any) -> Callable[[], object]:
    """The first read of each metric getter, in turn: the unit of the object-path targets."""
    getters = [_first_read(metrics, getattr(metrics, f"get_{name}")) for name in type(metrics).metric_names()]
    position = [0]

    def one() -> object:
        position[0] = (position[0] + 1) % len(getters)
        return getters[position[0]]()

    return one


def getters() -> list[Case]:
    from evalkit import ClassificationMetrics

    metrics = ClassificationMetrics.from_counts(tp=35, fp=10, fn=5, tn=50)

    def plain_f1(tp: int, fp: int, fn: int, tn: int) -> float:
        return 2 * tp / (2 * tp + fp + fn) if 2 * tp + fp + fn else float("nan")

    def plain_mcc(tp: int, fp: int, fn: int, tn: int) -> float:
        margins = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
        return (tp * tn - fp * fn) / margins**0.5 if margins else float("nan")

    def plain_precision(tp: int, fp: int, fn: int, tn: int) -> float:
        return tp / (tp + fp) if tp + fp else float("nan")

    return [
        _micro("one getter, first read: precision of four ints", "≤ 10× a plain Python function",
               {"plain Python function (floor)": lambda: plain_precision(35, 10, 5, 50), "evalkit": _first_read(metrics, metrics.get_precision)}, 20_000),
        _micro("one getter, first read: MCC of four ints", "≤ 20× a plain Python function",
               {"plain Python function (floor)": lambda: plain_mcc(35, 10, 5, 50),
                "evalkit": _first_read(metrics, metrics.get_matthews_correlation_coefficient)}, 20_000),
        _micro("one getter, read again: F1 of four ints", "≤ 10× a plain Python function",
               {"plain Python function (floor)": lambda: plain_f1(35, 10, 5, 50), "evalkit": metrics.get_f1_score}, 20_000),
        _micro("one getter, read again: MCC of four ints", "≤ 10× a plain Python function",
               {"plain Python function (floor)": lambda: plain_mcc(35, 10, 5, 50),
                "evalkit": metrics.get_matthews_correlation_coefficient}, 20_000),
        _micro("to_dict() of one ClassificationMetrics", "≤ 30 getters",
               {"one getter, mean over all metrics (floor)": _mean_getter_floor(metrics), "evalkit": _first_read(metrics, metrics.to_dict)}, 2_000),
        _micro("str() of one ClassificationMetrics", "≤ 30 getters",
               {"one getter, mean over all metrics (floor)": _mean_getter_floor(metrics), "evalkit": _first_read(metrics, lambda: str(metrics))}, 2_000),
    ]


def averaging() -> list[Case]:
    from evalkit import ClassificationMetrics

    objects = [ClassificationMetrics.from_counts(tp=5 + k, fp=10 - k, fn=k, tn=50) for k in range(10)]
    floor = _mean_getter_floor(objects[0])
    return [
        _micro("ClassificationMetrics.average of 10 objects", "≤ 50 getters",
               {"one getter, mean over all metrics (floor)": floor, "evalkit": lambda: ClassificationMetrics.average(objects)}, 2_000),
        _micro("ClassificationMetrics.average of 10 objects, every summary read (to_dict)", "(220 getter calls are inherent)",
               {"one getter, mean over all metrics (floor)": floor,
                "evalkit": lambda: ClassificationMetrics.average(objects).to_dict()}, 200),
    ]


def training_loop(batches: int, size: int, m: int) -> Case:
    """A training loop counting class indexes batch by batch: update_indices against one
    bincount per batch (the floor), Deep Netts' inc per sample, update with labels, and
    torchmetrics' stateful confusion matrix."""
    rng = np.random.default_rng(batches + size + m)
    targets, outputs = rng.integers(0, m, (batches, size)), rng.integers(0, m, (batches, size))
    case = Case(f"training loop, {batches:,} batches of {size:,} class indexes, {m} classes", targets.nbytes + outputs.nbytes,
                target="≤ 3× floor (a fixed cost of checks per batch); ≥ 100× faster than a loop of inc")  # fmt: skip

    def floor() -> object:
        counts = np.zeros(m * m, dtype=np.int64)
        for actual, predicted in zip(targets, outputs):
            counts += np.bincount(actual * m + predicted, minlength=m * m)
        return counts

    def counted(method: str, rows: int = batches) -> Callable[[], object]:
        def loop() -> object:
            cm = ConfusionMatrix(list(range(m)))
            for actual, predicted in zip(targets[:rows], outputs[:rows]):
                if method == "inc":
                    for a, p in zip(actual.tolist(), predicted.tolist()):
                        cm.inc(a, p)
                else:
                    getattr(cm, method)(actual, predicted)
            return cm

        return loop

    case.contenders["numpy floor (bincount per batch)"] = floor
    case.contenders["evalkit"] = counted("update_indices")
    case.contenders["evalkit update (labels)"] = counted("update")
    slice_rows = max(1, batches // 50)
    case.contenders["evalkit inc per sample (Deep Netts style)"] = counted("inc", slice_rows)
    case.scale["evalkit inc per sample (Deep Netts style)"] = batches / slice_rows
    if _peer("torchmetrics", case):
        import torch
        from torchmetrics.classification import MulticlassConfusionMatrix

        torch.set_num_threads(1)
        pairs = [(torch.from_numpy(p), torch.from_numpy(a)) for a, p in zip(targets, outputs)]

        def torchmetrics_loop() -> object:
            metric = MulticlassConfusionMatrix(num_classes=m)
            for preds, target in pairs:
                metric.update(preds, target)
            return metric.compute()

        case.contenders["torchmetrics (CPU)"] = torchmetrics_loop
        case.once.add("torchmetrics (CPU)")
    return case


def main_path(n: int = 1_000, m: int = 10) -> Case:
    from evalkit import ClassificationMetrics

    rng = np.random.default_rng(6)
    y_true, y_pred = rng.integers(0, m, n).tolist(), rng.integers(0, m, n).tolist()

    def ours() -> object:
        matrix = ConfusionMatrix.from_predictions(y_true, y_pred)
        objects = ClassificationMetrics.create_from(matrix)
        values = [[getattr(o, f"get_{name}")() for name in o.metric_names()] for o in objects]
        return values, ClassificationMetrics.average(objects).to_dict()

    contenders: dict[str, Callable[[], object]] = {
        "numpy floor (asarray + bincount)": lambda: np.bincount(np.asarray(y_true) * m + np.asarray(y_pred), minlength=m * m),
        "evalkit": ours,
    }
    try:
        from sklearn.metrics import classification_report, precision_recall_fscore_support

        contenders["scikit-learn classification_report(output_dict=True)"] = lambda: classification_report(y_true, y_pred, output_dict=True)
        contenders["scikit-learn precision_recall_fscore_support"] = lambda: precision_recall_fscore_support(y_true, y_pred)
    except ImportError:
        pass
    return _micro(f"Java-style main path: lists of {n:,} labels, {m} classes: matrix, create_from, every getter, Stats read",
                  "≥ 10× faster than classification_report; ≥ 3× faster than precision_recall_fscore_support", contenders, 20)  # fmt: skip


def python_lists(n: int, strings: bool) -> Case:
    rng = np.random.default_rng(7)
    codes_true, codes_pred = rng.integers(0, 10, n), rng.integers(0, 10, n)
    names = np.array([f"label_{k}" for k in range(10)])
    if strings:
        y_true, y_pred = names[codes_true].tolist(), names[codes_pred].tolist()
    else:
        y_true, y_pred = codes_true.tolist(), codes_pred.tolist()
    kind = "str" if strings else "int"
    case = Case(f"confusion matrix of Python lists, {n:,} {kind} labels", 1, target="≤ 3× np.asarray(list) + np.bincount")
    case.contenders["numpy floor (np.asarray of both lists + bincount)"] = lambda: (
        np.asarray(y_true), np.asarray(y_pred), np.bincount(codes_true * 10 + codes_pred, minlength=100))
    case.contenders["evalkit"] = lambda: ConfusionMatrix.from_predictions(y_true, y_pred)
    if _peer("sklearn", case):
        from sklearn.metrics import confusion_matrix

        case.contenders["scikit-learn"] = lambda: confusion_matrix(y_true, y_pred)
    return case


def neighborhoods(n: int = 16_000, m: int = 20) -> Case:
    rng = np.random.default_rng(8)
    label_sets = [set(rng.choice(m, size=rng.integers(1, 4), replace=False).tolist()) for _ in range(n)]
    case = Case(f"every element's neighborhood and neighborhood system, {n:,}-element covering, {m} labels", 1,
                target="O(n log n) in all (was O(n) per element: minutes)")  # fmt: skip

    def ours() -> object:
        covering = Covering.from_label_sets(label_sets)
        return [(covering.neighborhood(e), covering.neighborhood_system(e)) for e in covering.universe], covering.derived_covering()

    def sets() -> object:  # the definitions on Python sets, one intersection per element
        blocks = [set() for _ in range(m)]
        for element, labels in enumerate(label_sets):
            for label in labels:
                blocks[label].add(element)
        return [frozenset.intersection(*(frozenset(blocks[j]) for j in labels)) for labels in label_sets]

    case.contenders["set-based floor (an intersection per element)"] = sets
    case.contenders["evalkit"] = ours
    case.once = {"set-based floor (an intersection per element)"}
    return case


def import_time(repeats: int = 5) -> str:
    """Wall time of ``import evalkit`` and of ``import numpy`` in fresh interpreters (bytecode
    caches warm, as after an install), and the optional packages evalkit loaded."""
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    env.pop("PYTHONDONTWRITEBYTECODE", None)

    def best(module: str) -> tuple[float, str]:
        code = f"import sys, time; s = time.perf_counter(); import {module}; t = time.perf_counter() - s; " \
               "print(t, sorted(m for m in ('matplotlib', 'sklearn', 'scipy', 'dask', 'pandas', 'torch') if m in sys.modules))"  # fmt: skip
        runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout.split(" ", 1)
                for _ in range(repeats + 1)][1:]  # fmt: skip  # the first run warms the bytecode cache
        return min(float(seconds) for seconds, _ in runs), runs[0][1].strip()

    ours, loaded = best("evalkit")
    numpy_time, _ = best("numpy")
    return (f"`import evalkit`: {ours * 1e3:.0f} ms, `import numpy`: {numpy_time * 1e3:.0f} ms, ratio {ours / numpy_time:.2f} "
            f"(best of {repeats}; target < 2× numpy), optional packages imported: {loaded}")


# --------------------------------------------------------------------------------------------
# the table


def run(cases: list[Case], repeats: int) -> str:
    lines = [
        (f"evalkit {evalkit.__version__}, numpy {np.__version__}, Python {platform.python_version()}, {platform.machine()}, "
        f"{os.cpu_count()} cores. Ratio = contender time / evalkit time (> 1: evalkit is faster); "
        f"evalkit and floors best of {repeats} in interleaved rounds, slow peers once; numpy's huge pages off "
        "(`timing.without_huge_pages`)."),
        "",
        "| case | contender | time (ms) | ratio to evalkit | evalkit / floor | evalkit peak memory / input | target |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for case in cases:
        runs = {name: 1 if name in case.scale or name in case.once else repeats for name in case.contenders}
        times = {name: seconds * case.scale.get(name, 1.0) / case.calls for name, seconds in best_times(case.contenders, runs).items()}
        floor = next(name for name in case.contenders if "floor" in name)
        ours = times["evalkit"]
        memory = f"{peak_bytes(case.contenders['evalkit']) / case.input_bytes:.2f}" if case.input_bytes > 1 else ""
        for name, seconds in times.items():
            mine = name == "evalkit"
            shown = f"{seconds * 1e3:.1f}" if seconds >= 1e-4 else f"{seconds * 1e3:.4f}"
            lines.append(
                f"| {case.name} | {name} | {shown} | {seconds / ours:.2f} | {f'{ours / times[floor]:.2f}' if mine else ''} | "
                f"{memory if mine else ''} | {case.target if mine else ''} |"
            )
        for module in case.missing:
            lines.append(f"| {case.name} | {module} | not installed | | | | |")
        print(f"done: {case.name}", file=sys.stderr)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a tenth of the sizes (a smoke run)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--output", help="also write the table to this file")
    arguments = parser.parse_args()
    without_huge_pages()
    scale = 10 if arguments.quick else 1
    started = time.perf_counter()
    cases = [integer_labels(n // scale, m) for m in (10, 1000) for n in (100_000, 1_000_000, 10_000_000)]
    cases += [weighted_labels(n // scale, 10, integral) for n in (1_000_000, 10_000_000) for integral in (False, True)]
    cases += [
        full_report(1_000_000 // scale, 10),
        string_labels(1_000_000 // scale, 20, as_array=False),
        string_labels(1_000_000 // scale, 20, as_array=True),
        *(dataframe_columns(1_000_000 // scale, 20, kind)
          for kind in ("pandas category", "Arrow dictionary", "polars Categorical", "Arrow string", "pandas str", "polars String")),
        multilabel(1_000_000 // scale, 100),
        label_sets(100_000 // scale, 50),
        soft(1_000_000 // scale, 100),
        aa_rar(1_000_000 // scale, 100, with_sets=False),
        aa_rar(100_000 // scale, 100, with_sets=True),
        binary_scores(10_000_000 // scale, weighted=False),
        binary_scores(1_000_000 // scale, weighted=True),
        multiclass_scores(1_000_000 // scale, 10),
        binned_scores(10_000_000 // scale, 101),
        calibration_error(10_000_000 // scale),
        operating_point(10_000_000 // scale),
        grouped(1_000_000 // scale, 20, 10),
        *scikit_learn_rest(10_000 // scale),
        agreement(100_000 // scale, 5, 4),
        model_comparison(100, 50),
        bayesian_signed_rank(50),
        grouped_bootstrap(100_000 // scale, 5, 1000),
        bootstrap_interval(1_000_000 // scale, 10),
        *getters(),
        *averaging(),
        *getter_measures(100_000 // scale, 10, 10_000 // scale),
        main_path(),
        training_loop(1_000 // scale, 1_000, 10),
        python_lists(10_000, strings=False),
        python_lists(10_000, strings=True),
        neighborhoods(16_000 // scale),
    ]
    table = run(cases, arguments.repeats)
    from bounds import bounds  # costs bounded by the input
    from coverage import coverage  # the simulation of benchmarks/coverage.py
    from reading import reading  # the command line on big files, beside numpy's, pandas' and pyarrow's readers

    datasets = 1000 // scale
    intervals = coverage(datasets)
    files = reading(5_000_000 // scale)
    limits = bounds()
    text = (
        f"{table}\n\n{import_time()}\n\n{files}\n\n{limits}\n\n"
        f"Coverage of the nominal 95% confidence intervals, {datasets:,} simulated data sets per row "
        f"(`python benchmarks/coverage.py`):\n\n{intervals}\n\n"
        f"Whole run: {time.perf_counter() - started:.0f} s (`python benchmarks/run.py`)."
    )
    print(text)
    if arguments.output:
        Path(arguments.output).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
