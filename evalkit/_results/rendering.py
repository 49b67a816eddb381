"""Renderings of results, found at run time: the report layer registers them, results call them.

Results sit below the report layer (``evalkit.io``) and never import it. What a result shows
(``report()``, ``to_flat_dict()``, the HTML of ``_repr_html_()``) is a rendering that
``evalkit.io`` registers here under a name when it is imported (``import evalkit`` imports
it); a result calls it by that name.

| name | registered by | renders |
|---|---|---|
| ``"report"`` | ``evalkit.io._report.build_report`` | a result's ``Report`` |
| ``"group_report"`` | ``evalkit.io._report.group_report`` | a ``ByGroup``'s ``GroupReport`` |
| ``"page"`` | ``evalkit.io._html.page`` | a self-contained HTML page of sections (a report's ``to_html``) |
| ``"html_fragment"`` | ``evalkit.io._html.fragment`` | HTML as a notebook shows it (a report's ``_repr_html_``) |
| ``"html_table"`` | ``evalkit.io._html.table_fragment`` | a titled table of rows |
| ``"html_matrix"`` | ``evalkit.io._html.matrix_fragment`` | a confusion matrix as a heat map |
| ``"critical_difference_figure"`` | ``evalkit.io._html.critical_difference_figure`` | a ``ModelComparison``'s diagram |
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["ReportFace", "render", "renders"]

_RENDERINGS: dict[str, Callable[..., Any]] = {}

F = TypeVar("F", bound=Callable[..., Any])


def renders(name: str) -> Callable[[F], F]:
    """Register the decorated function as the rendering ``name`` (used by ``evalkit.io``)."""

    def register(function: F) -> F:
        _RENDERINGS[name] = function
        return function

    return register


def render(name: str, *args: Any, **options: Any) -> Any:
    """Call the rendering ``name`` with ``args`` and ``options``."""
    try:
        rendering = _RENDERINGS[name]
    except KeyError:
        raise RuntimeError(f"no rendering {name!r} is registered: evalkit.io registers them when evalkit is imported") from None
    return rendering(*args, **options)


class ReportFace:
    """What a result gives through its report: ``report(...)`` and ``to_flat_dict(...)``
    (``ConfusionMatrix``, ``Evaluation`` and the cells of a curve at a threshold have them)."""

    __slots__ = ()

    def report(self, **options: Any) -> Any:
        """The report of this result (``evalkit.io._report.build_report(self, **options)``)."""
        return render("report", self, **options)

    def to_flat_dict(self, **options: Any) -> dict[str, float]:
        """Every number of this result's report under a stable flat key, for experiment
        trackers (see ``Report.to_flat_dict``; ``options`` as for ``build_report``:
        ``measures=``, ``confidence=``, ...).

        Examples:
            >>> from evalkit import Evaluation
            >>> flat = Evaluation.from_labels(["cat", "dog", "dog"], ["cat", "cat", "dog"]).to_flat_dict(measures=["recall"])
            >>> flat["recall/macro"], flat["recall/class/dog"], flat["accuracy"]
            (0.75, 0.5, 0.6666666666666666)
        """
        return self.report(**options).to_flat_dict()
