"""Comparisons of many models: speed beside the peers, and the error rates of the tests under
the null hypothesis, measured by simulation.

    python benchmarks/comparisons.py                       # 10,000 simulations per row (a few minutes)
    python benchmarks/comparisons.py --simulations 1000    # a quicker, noisier run

Speed: the Bayesian signed-rank test (50,000 posterior samples) beside baycomp's, on 20, 50 and
100 data sets, with the largest difference of the three probabilities (both sample: they agree
to sampling error, about ±0.005); the ranks, omnibus tests and post-hoc tests of a table of
100 data sets x 50 models, as ratios to numpy's ranking of it (two argsorts).

Error rates: ``k = 5`` equal models on ``N = 30`` data sets (each data set's difficulty drawn,
every model's score that plus the same noise), so every rejection is a false one: the
family-wise error rate of each procedure at alpha 0.05 (with 10,000 simulations the rate itself
varies by about ±0.004). Then two equal classifiers (thresholds on two equally informative
features) under 10 x 10-fold cross-validation of 200 samples: the naive paired t-test of the
100 fold differences against Nadeau and Bengio's corrected one. And a partial null (models
1-3 equal, 4 and 5 equal and better): what Holm, Shaffer and Bergmann-Hommel gain over
Bonferroni.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import scipy.stats as ss
from timing import best_time

from evalkit import ModelComparison
from evalkit._results.multiplicity import adjust_pairwise
from evalkit.comparisons import _bayesian as bayesian
from evalkit.comparisons import _paired as paired


def speed() -> str:
    import baycomp

    lines = ["| workload | evalkit | peer | peer / evalkit | largest difference |", "|---|---:|---:|---:|---:|"]
    rng = np.random.default_rng(5)
    for n in (20, 50, 100):
        a = rng.uniform(0.6, 0.9, n)
        b = a + rng.normal(0.004, 0.02, n)
        ours = best_time(lambda a=a, b=b: bayesian.signed_rank_test(a, b, rope=0.01, random_state=1), 3)
        theirs = best_time(lambda a=a, b=b: baycomp.SignedRankTest.probs(b, a, rope=0.01, random_state=1), 1)
        mine = bayesian.signed_rank_test(a, b, rope=0.01, random_state=1)
        peer = baycomp.SignedRankTest.probs(b, a, rope=0.01, random_state=1)
        gap = max(abs(x - float(y)) for x, y in zip((mine.second, mine.equivalent, mine.first), peer))
        lines.append(f"| Bayesian signed-rank, {n} data sets, 50,000 samples | {ours * 1e3:.1f} ms | {theirs * 1e3:.0f} ms (baycomp) "
                     f"| {theirs / ours:.0f}x | {gap:.4f} |")  # fmt: skip
    table = rng.random((100, 50))
    floor = best_time(lambda: np.argsort(np.argsort(-table, axis=1), axis=1), 20)
    comparison = ModelComparison(table)
    workloads = {
        "ModelComparison (ranks with ties)": lambda: ModelComparison(table),
        "Friedman + Iman-Davenport": lambda: (comparison.friedman(), comparison.iman_davenport()),
        "critical differences (Nemenyi, Bonferroni-Dunn)": lambda: (comparison.critical_difference(), comparison.critical_difference(test="bonferroni-dunn")),
        "1,225 pairs: rank z tests, Holm": lambda: comparison.pairwise("ranks"),
        "1,225 pairs: rank z tests, Shaffer": lambda: comparison.pairwise("ranks", "shaffer"),
        "49 against the best, Holm": lambda: comparison.against(),
        "1,225 pairs: sign tests, Holm": lambda: comparison.pairwise("sign"),
        "1,225 pairs: Wilcoxon, Holm (scipy)": lambda: comparison.pairwise("wilcoxon"),
        "1,225 pairs: Nemenyi (scipy's studentized range)": lambda: comparison.pairwise("nemenyi"),
    }  # fmt: skip
    lines += ["", f"100 data sets x 50 models; numpy's ranking (two argsorts) {floor * 1e6:.0f} us:", "",
              "| workload | evalkit | / numpy's ranking |", "|---|---:|---:|"]  # fmt: skip
    for name, work in workloads.items():
        seconds = best_time(work, 5)
        lines.append(f"| {name} | {seconds * 1e6:,.0f} us | {seconds / floor:.1f}x |")
    return "\n".join(lines)


def family_wise_errors(simulations: int, k: int = 5, n: int = 30, alpha: float = 0.05) -> str:
    rng = np.random.default_rng(2006)
    procedures = ["Friedman chi2_F", "Iman-Davenport F_F", "Nemenyi (all pairs)", "rank z tests, Bonferroni", "rank z tests, Holm",
                  "rank z tests, Shaffer", "rank z tests, Bergmann-Hommel", "Bonferroni-Dunn (against the first)",
                  "Wilcoxon, Holm", "sign test, Holm"]  # fmt: skip
    rejected = dict.fromkeys(procedures, 0)
    first, second = np.triu_indices(k, 1)
    for _ in range(simulations):
        table = rng.uniform(0.6, 0.9, (n, 1)) + rng.normal(0.0, 0.02, (n, k))
        comparison = ModelComparison(table)
        z = (comparison.ranks[:, None] - comparison.ranks[None, :]) / np.sqrt(k * (k + 1) / (6 * n))
        raw = 2 * ss.norm.sf(np.abs(z[first, second]))
        found = {
            "Friedman chi2_F": comparison.friedman().p_value <= alpha,
            "Iman-Davenport F_F": comparison.iman_davenport().p_value <= alpha,
            "Nemenyi (all pairs)": bool(comparison.pairwise("nemenyi").significant(alpha)),
            "rank z tests, Bonferroni": adjust_pairwise(raw, k, "bonferroni").min() <= alpha,
            "rank z tests, Holm": adjust_pairwise(raw, k, "holm").min() <= alpha,
            "rank z tests, Shaffer": adjust_pairwise(raw, k, "shaffer").min() <= alpha,
            "rank z tests, Bergmann-Hommel": adjust_pairwise(raw, k, "bergmann-hommel").min() <= alpha,
            "Bonferroni-Dunn (against the first)": min(comparison.against(comparison.models[0], correction="bonferroni").values()) <= alpha,
            "Wilcoxon, Holm": bool(comparison.pairwise("wilcoxon", "holm").significant(alpha)),
            "sign test, Holm": bool(comparison.pairwise("sign", "holm").significant(alpha)),
        }
        for name, hit in found.items():
            rejected[name] += bool(hit)
    lines = [f"| procedure ({k} equal models, {n} data sets) | family-wise error at alpha {alpha} |", "|---|---:|"]
    lines += [f"| {name} | {count / simulations:.4f} |" for name, count in rejected.items()]
    return "\n".join(lines)


def partial_null(simulations: int, k: int = 5, n: int = 30, alpha: float = 0.05, shift: float = 0.012) -> str:
    """Models 1-3 equal, 4 and 5 equal and better by ``shift``: the false rejections (pairs
    inside a group) and the power (pairs across) of the adjustments of the rank z tests."""
    rng = np.random.default_rng(2008)
    first, second = np.triu_indices(k, 1)
    group = np.array([0, 0, 0, 1, 1])
    true_null = group[first] == group[second]
    methods = ("bonferroni", "holm", "shaffer", "bergmann-hommel")
    false = dict.fromkeys(methods, 0)
    found = dict.fromkeys(methods, 0)
    for _ in range(simulations):
        table = rng.uniform(0.6, 0.9, (n, 1)) + rng.normal(0.0, 0.02, (n, k)) + shift * group
        ranks = ModelComparison(table).ranks
        z = (ranks[first] - ranks[second]) / np.sqrt(k * (k + 1) / (6 * n))
        raw = 2 * ss.norm.sf(np.abs(z))
        for method in methods:
            rejected = adjust_pairwise(raw, k, method) <= alpha
            false[method] += bool((rejected & true_null).any())
            found[method] += int((rejected & ~true_null).sum())
    lines = [f"| adjustment (rank z tests; models 1-3 equal, 4-5 better by {shift}) | family-wise error | power (share of the 6 true differences found) |",
             "|---|---:|---:|"]  # fmt: skip
    lines += [f"| {method} | {false[method] / simulations:.4f} | {found[method] / (6 * simulations):.4f} |" for method in methods]
    return "\n".join(lines)


def fold_tests(simulations: int, n: int = 200, repeats: int = 10, folds: int = 10, alpha: float = 0.05) -> str:
    """Two equal classifiers (a threshold at the midpoint of the class means, one on each of two
    equally informative features) under ``repeats`` x ``folds``-fold cross-validation."""
    rng = np.random.default_rng(2003)
    naive = corrected = 0
    for _ in range(simulations):
        y = rng.random(n) < 0.5
        x = rng.normal(0.8 * y[:, None], 1.0, (n, 2))
        differences = []
        for _ in range(repeats):
            fold = rng.permutation(n) % folds
            for f in range(folds):
                test, train = fold == f, fold != f
                yt, xt = y[train], x[train]
                cut = (xt[yt].mean(axis=0) + xt[~yt].mean(axis=0)) / 2
                right = (x[test] > cut) == y[test][:, None]
                differences.append(right[:, 0].mean() - right[:, 1].mean())
        d = np.array(differences)
        naive += ss.ttest_1samp(d, 0.0).pvalue <= alpha
        corrected += paired.corrected_resampled_t_test(d, np.zeros_like(d), folds=folds).p_value <= alpha
    return "\n".join([
        f"| test of 2 equal classifiers, {repeats} x {folds}-fold cross-validation of {n} samples | type-I error at alpha {alpha} |",
        "|---|---:|",
        f"| naive paired t-test of the {repeats * folds} fold differences | {naive / simulations:.4f} |",
        f"| corrected resampled t-test (Nadeau & Bengio; Weka's PairedCorrectedTTester) | {corrected / simulations:.4f} |",
    ])  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simulations", type=int, default=10_000, help="simulations per error-rate row (default 10000)")
    parser.add_argument("--output", help="also write the tables to this Markdown file")
    arguments = parser.parse_args()
    started = time.perf_counter()
    parts = [speed()]
    print("done: speed", file=sys.stderr)
    parts.append(family_wise_errors(arguments.simulations))
    print("done: family-wise errors", file=sys.stderr)
    parts.append(partial_null(arguments.simulations))
    parts.append(fold_tests(min(arguments.simulations, 2000)))
    text = "\n\n".join(parts) + (f"\n\n{arguments.simulations:,} simulations per family-wise row, {min(arguments.simulations, 2000):,} per fold-test row; "
                                 f"{time.perf_counter() - started:.0f} s (`python benchmarks/comparisons.py`).")  # fmt: skip
    print(text)
    if arguments.output:
        with open(arguments.output, "w", encoding="utf-8") as handle:
            handle.write("# Comparisons of many models: speed and error rates\n\n" + text + "\n")


if __name__ == "__main__":
    main()
