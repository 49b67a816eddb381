"""Tables of comparisons of many models: the values with ranks beside them (the best of each
data set marked, the average ranks last, the tests below) in text, Markdown or LaTeX, and the
matrix of adjusted p-values.

Registers the renderings ``"comparison_table"`` and ``"p_value_matrix"`` that
``ModelComparison.table()`` and ``PairwiseTests.to_text()`` call.

Examples:
    >>> from evalkit import ModelComparison
    >>> comparison = ModelComparison({"a": [0.9, 0.8, 0.7], "b": [0.8, 0.8, 0.6]}, datasets=["x", "y", "z"])
    >>> print(comparison_table(comparison, "text", 2))
    data set  a             b
    x         0.90 (1.0) *  0.80 (2.0)
    y         0.80 (1.5) *  0.80 (1.5) *
    z         0.70 (1.0) *  0.60 (2.0)
    avg rank  1.17          1.83
    <BLANKLINE>
    Friedman chi2_F = 1.333, df 1, p = 0.2482; Iman-Davenport F_F = 1.600, df (1, 2), p = 0.3333
    critical difference at alpha 0.05: Nemenyi 1.132, Bonferroni-Dunn 1.132
"""

from __future__ import annotations

from typing import Any

from evalkit._results.rendering import renders

__all__ = ["comparison_table", "p_value_matrix"]

_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                  "~": r"\textasciitilde{}", "^": r"\^{}"}  # fmt: skip


def _latex(text: object) -> str:
    return "".join(_LATEX_SPECIAL.get(character, character) for character in str(text))


def _markdown(text: object) -> str:
    return str(text).replace("|", r"\|")


def _tests(comparison: Any) -> list[str]:
    chi2, f = comparison.friedman(), comparison.iman_davenport()
    nemenyi, dunn = comparison.critical_difference(0.05, "nemenyi"), comparison.critical_difference(0.05, "bonferroni-dunn")
    return [
        f"Friedman chi2_F = {chi2.statistic:.3f}, df {chi2.df[0]:g}, p = {chi2.p_value:.4g}; "  # noqa: ISC004 (one line of text)
        f"Iman-Davenport F_F = {f.statistic:.3f}, df ({f.df[0]:g}, {f.df[1]:g}), p = {f.p_value:.4g}",
        f"critical difference at alpha 0.05: Nemenyi {nemenyi:.3f}, Bonferroni-Dunn {dunn:.3f}",
    ]


@renders("comparison_table")
def comparison_table(comparison: Any, format: str, digits: int = 3) -> str:
    """The table of a ``ModelComparison`` in ``format`` (``"text"``, ``"markdown"``, ``"latex"``)."""
    ranks, values = comparison.rank_table, comparison.values
    best = ranks == ranks.min(axis=1, keepdims=True)
    escape = {"latex": _latex, "markdown": _markdown}.get(format, str)
    header = ["data set", *(escape(model) for model in comparison.models)]
    body = []
    for i, name in enumerate(comparison.datasets):
        cells = []
        for j in range(len(comparison.models)):
            value = f"{values[i, j]:.{digits}f}"
            if format == "latex":
                cells.append((rf"\textbf{{{value}}}" if best[i, j] else value) + f" ({ranks[i, j]:.1f})")
            elif format == "markdown":
                cells.append((f"**{value}**" if best[i, j] else value) + f" ({ranks[i, j]:.1f})")
            else:
                cells.append(f"{value} ({ranks[i, j]:.1f})" + (" *" if best[i, j] else ""))
        body.append([escape(name), *cells])
    average = ["avg rank", *(f"{rank:.2f}" for rank in comparison.ranks)]
    notes = _tests(comparison)
    if comparison.dropped:
        notes.append(f"left out (a missing cell): {', '.join(str(name) for name in comparison.dropped)}")
    if format == "markdown":
        lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * len(comparison.models)]
        lines += ["| " + " | ".join(row) + " |" for row in [*body, ["**avg rank**", *average[1:]]]]
        return "\n".join([*lines, "", *(f"{note}  " for note in notes)])
    if format == "latex":
        lines = [r"\begin{tabular}{l" + "r" * len(comparison.models) + "}", r"\hline", " & ".join(header) + r" \\", r"\hline"]
        lines += [" & ".join(row) + r" \\" for row in body]
        lines += [r"\hline", " & ".join(["average rank", *average[1:]]) + r" \\", r"\hline", r"\end{tabular}"]
        return "\n".join([*lines, *(f"% {note}" for note in notes)])
    rows = [header, *body, average]
    widths = [max(len(row[k]) for row in rows) for k in range(len(header))]
    lines = ["  ".join(f"{cell:<{width}}" for cell, width in zip(row, widths)).rstrip() for row in rows]
    return "\n".join([*lines, "", *notes])


@renders("p_value_matrix")
def p_value_matrix(tests: Any, format: str, digits: int = 4) -> str:
    """The adjusted p-values of a ``PairwiseTests``, one row and column per model."""
    names = [str(model) for model in tests.models]
    cells = [[("" if i == j else f"{tests.p_values[i, j]:.{digits}f}") for j in range(len(names))] for i in range(len(names))]
    title = f"{tests.test} p-values" + ("" if tests.correction in ("nemenyi", "none") else f" ({tests.correction}-adjusted)")
    if format == "markdown":
        lines = ["| " + " | ".join([_markdown(title), *map(_markdown, names)]) + " |", "|---|" + "---:|" * len(names)]
        return "\n".join(lines + ["| " + " | ".join([_markdown(name), *row]) + " |" for name, row in zip(names, cells)])
    width = max(len(name) for name in names)
    column = max(width, digits + 2)
    lines = [title, " " * width + "  " + "  ".join(f"{name:>{column}}" for name in names)]
    lines += [f"{name:<{width}}  " + "  ".join(f"{cell:>{column}}" for cell in row) for name, row in zip(names, cells)]
    return "\n".join(line.rstrip() for line in lines)
