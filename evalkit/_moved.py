"""Module paths that moved, kept importable for one release with a ``DeprecationWarning``.

Only the faces have public paths (``FACES``: ``evalkit``, ``evalkit.metrics``, ...); every other
module is private. ``import evalkit.curves`` or ``import evalkit.results.confusion_matrix`` (or
a pickle that names a class there) gives the module that now lives at its private path: the
same module object under its old name, so its classes, functions and module-level state are
the same objects, with a warning naming the face that gives its names (``public_places``).
``evalkit.curves`` and ``evalkit.metrics`` are attributes of ``evalkit``, imported on first use
(``submodule``), and a name a module gave and lost since (a helper it imported) is still found,
with a warning that says where it lives now (``OLD_NAMES``). Nothing here is imported by
evalkit's own code, which uses the new paths.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
import types
import warnings

OLD_PATHS = {
    "evalkit._exact": "evalkit._engine._exact",
    "evalkit._labels": "evalkit._engine._labels",
    "evalkit._validation": "evalkit._engine._validation",
    "evalkit.agreement": "evalkit._groups.agreement",
    "evalkit.averaging": "evalkit.measures._averaging",
    "evalkit.calibration": "evalkit._scores.calibration",
    "evalkit.cells": "evalkit._engine.cells",
    "evalkit.classification_metrics": "evalkit._java.classification_metrics",
    "evalkit.confusion_matrix": "evalkit._results.confusion_matrix",
    "evalkit.costs": "evalkit._scores.costs",
    "evalkit.counting": "evalkit._engine.counting",
    "evalkit.curves": "evalkit._scores.curves",
    "evalkit.evaluation": "evalkit._results.evaluation",
    "evalkit.evaluation_metrics": "evalkit._java.evaluation_metrics",
    "evalkit.gains": "evalkit._scores.gains",
    "evalkit.hierarchy": "evalkit._engine.hierarchy",
    "evalkit.html": "evalkit.io._html",
    "evalkit.intervals": "evalkit._results.intervals",
    "evalkit.neighborhood": "evalkit._groups.neighborhood",
    "evalkit.operating": "evalkit._scores.operating",
    "evalkit.plugins": "evalkit.measures._plugins",
    "evalkit.ranking": "evalkit._scores.ranking",
    "evalkit.readers": "evalkit.io._readers",
    "evalkit.report": "evalkit.io._report",
    "evalkit.scoring": "evalkit._scores.scoring",
    "evalkit.serialization": "evalkit._engine.serialization",
    "evalkit.settings": "evalkit._results.constructors",
    "evalkit.stats": "evalkit._java.stats",
    "evalkit.streaming": "evalkit._scale.streaming",
}
"""The flat module paths of evalkit's first layout -> where each module lives now."""

FOLDER_PATHS = {
    "evalkit.comparisons.bayesian": "evalkit.comparisons._bayesian",
    "evalkit.comparisons.comparison": "evalkit.comparisons._comparison",
    "evalkit.comparisons.paired": "evalkit.comparisons._paired",
    "evalkit.comparisons.ranks": "evalkit.comparisons._ranks",
    "evalkit.engine": "evalkit._engine",
    "evalkit.groups": "evalkit._groups",
    "evalkit.io.comparison_tables": "evalkit.io._comparison_tables",
    "evalkit.io.coverage_report": "evalkit.io._coverage_report",
    "evalkit.io.datasets": "evalkit.io._datasets",
    "evalkit.io.displays": "evalkit.io._displays",
    "evalkit.io.html": "evalkit.io._html",
    "evalkit.io.label_codes": "evalkit.io._label_codes",
    "evalkit.io.over_time": "evalkit.io._over_time",
    "evalkit.io.plots": "evalkit.io._plots",
    "evalkit.io.readers": "evalkit.io._readers",
    "evalkit.io.report": "evalkit.io._report",
    "evalkit.io.report_columns": "evalkit.io._report_columns",
    "evalkit.io.text": "evalkit.io._text",
    "evalkit.java": "evalkit._java",
    "evalkit.measures.arithmetic": "evalkit.measures._arithmetic",
    "evalkit.measures.averaging": "evalkit.measures._averaging",
    "evalkit.measures.formulas": "evalkit.measures._formulas",
    "evalkit.measures.matrix_formulas": "evalkit.measures._matrix_formulas",
    "evalkit.measures.metrics_class": "evalkit.measures._metrics_class",
    "evalkit.measures.plugins": "evalkit.measures._plugins",
    "evalkit.measures.registry": "evalkit.measures._registry",
    "evalkit.measures.regression_formulas": "evalkit.measures._regression_formulas",
    "evalkit.results": "evalkit._results",
    "evalkit.scale": "evalkit._scale",
    "evalkit.scale.dask": "evalkit.dask",
    "evalkit.scale.files": "evalkit.cli._files",
    "evalkit.scale.spark": "evalkit.spark",
    "evalkit.scores": "evalkit._scores",
}
"""The module paths of evalkit 0.1.0's layer folders -> where each module lives now: private,
behind the faces."""

MOVED = {**OLD_PATHS, **FOLDER_PATHS}
"""Every module path that moved -> its module now. Each still imports, as the same module
object, with a ``DeprecationWarning`` naming the public place of its names (for one release)."""

FACES = ("evalkit", "evalkit.metrics", "evalkit.measures", "evalkit.formulas", "evalkit.exceptions", "evalkit.comparisons", "evalkit.io",
         "evalkit.theory", "evalkit.tnorms", "evalkit.plots", "evalkit.displays", "evalkit.datasets", "evalkit.dask", "evalkit.spark",
         "evalkit.cli")
"""The public module paths: every other module of evalkit is private (a ``_`` in its path)."""

WHOLE_FACES = {"evalkit.cli._files": "the command line (evalkit.cli) owns it"}
"""Private modules whose place is said in words."""


def moved_to(path: str) -> str | None:
    """The module path ``path`` names now, if it moved (``evalkit.results.base`` is in the
    moved folder ``evalkit.results``: ``evalkit._results.base``), else ``None``."""
    if path in MOVED:
        return MOVED[path]
    folder = path.rpartition(".")[0]
    while folder:
        if folder in FOLDER_PATHS:
            new = f"{FOLDER_PATHS[folder]}.{path[len(folder) + 1:]}"
            return new if importlib.util.find_spec(new) is not None else None
        folder = folder.rpartition(".")[0]
    return None


def public_places(module: types.ModuleType) -> str:
    """Where the public names of ``module`` are now, by the face each names as its
    ``__module__``: ``"import ConfusionMatrix from evalkit"``."""
    if module.__name__ in WHOLE_FACES:
        return WHOLE_FACES[module.__name__]
    found: dict[str, list[str]] = {}
    for name in getattr(module, "__all__", ()):
        value = getattr(module, name, None)
        if isinstance(value, (type, types.FunctionType)):
            home = getattr(value, "__module__", "")
            if home in FACES:  # (a name its face gives lazily, or a face not imported yet, is named so where it is defined)
                found.setdefault(home, []).append(name)
    if not found:
        return f"its names are private now (import what you need from {', '.join(FACES[:4])})"
    return "; ".join(f"import {', '.join(names)} from {face}" for face, names in found.items())


class OldPaths:
    """Finds a moved module path and loads it as the module at its new path, with a warning (a
    meta path finder and loader by its methods: ``importlib.abc`` would import
    ``importlib.resources`` and ``pathlib``, about 5 ms of ``import evalkit``)."""

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        return importlib.util.spec_from_loader(fullname, self) if moved_to(fullname) else None  # type: ignore[arg-type]  # (no deprecated load_module)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        new = moved_to(spec.name)
        assert new is not None  # (find_spec found it)
        module = importlib.import_module(new)
        where = f": import from {new}" if new in FACES else f" (its module is the private {new} now): {public_places(module)}"
        warnings.warn(f"{spec.name} is deprecated{where}", DeprecationWarning, stacklevel=2)
        spec.loader_state = module.__spec__  # the import system sets __spec__ to the old path's: put it back
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        """The module ran when it was imported at its new path; only its own spec is restored."""
        if module.__spec__ is not None and module.__spec__.loader_state is not None:
            module.__spec__ = module.__spec__.loader_state


def install() -> None:
    """Put the finder of old paths on ``sys.meta_path`` (once) and register the old names."""
    if not any(isinstance(finder, OldPaths) for finder in sys.meta_path):
        sys.meta_path.insert(0, OldPaths())  # first: a moved package path (evalkit.results) would find its files again
    register_old_names()


def submodule(name: str) -> types.ModuleType:
    """``evalkit.<name>`` for a face (``metrics``) or a moved path (``curves``, ``results``):
    imported on first use, as scikit-learn and SciPy give their subpackages, so ``import
    evalkit`` does not load them all (a moved path warns as its import does).

    Raises:
        AttributeError: ``name`` is neither, or its module needs a package that is not
            installed (``evalkit.dask`` without dask), so that ``hasattr`` and ``help(evalkit)``
            work; ``import evalkit.dask`` raises the ``ImportError`` itself.
    """
    path = f"evalkit.{name}"
    if path not in MOVED and path not in FACES:
        raise AttributeError(f"module 'evalkit' has no attribute {name!r}")
    try:
        if path not in MOVED or path in sys.modules:
            return importlib.import_module(path)
        with warnings.catch_warnings(record=True) as caught:  # said again below, at the line that named it
            warnings.simplefilter("always", DeprecationWarning)
            module = importlib.import_module(path)
        try:
            for warning in caught:
                warnings.warn(warning.message, warning.category, stacklevel=3)
        except Warning:  # warnings as errors: not imported, so that the next read warns again
            sys.modules.pop(path, None)
            vars(sys.modules["evalkit"]).pop(name, None)
            raise
        return module
    except ModuleNotFoundError as error:
        if error.name is None or error.name.partition(".")[0] == "evalkit":
            raise
        raise AttributeError(f"evalkit.{name} needs {error.name!r}, which is not installed: {error}") from error


OLD_NAMES = {
    "evalkit.counting": {"evalkit._engine.cells": "Cells", "evalkit._engine._validation": "read_only"},
    "evalkit.agreement": {"evalkit._engine._labels": "same_labels"},
    "evalkit.hierarchy": {"evalkit._engine._validation": "same_fields"},
    "evalkit.html": {"evalkit._engine._validation": "count_text"},
    "evalkit.averaging": {"evalkit._results": "CellsResult"},
    "evalkit.calibration": {"evalkit._engine._exact": "ExactSums add_limbs float_limbs limbs_to_ints", "evalkit.exceptions": "InvalidTypeError LabelMismatchError",
                            "evalkit._engine": "serialization"},
    "evalkit.classification_metrics": {"evalkit.io": "html", "evalkit.measures._registry": "Measure getter_metadata registry_version"},
    "evalkit.cli": {
        "evalkit._engine._exact": "ExactSums limbs_to_floats",
        "evalkit._groups._by_group": "ByGroup",
        "evalkit.io._readers": "Batch Labels header label_number label_text read_batches scores weights",
        "evalkit._results.evaluation": "Evaluation",
        "evalkit._scale.streaming": "CalibrationCounts CurveCounts LabelSetCounts",
        "evalkit._scores.scoring": "class_log_losses",
    },
    "evalkit.confusion_matrix": {
        "evalkit._engine._exact": "check_count_total weighted_bincount",
        "evalkit._engine.counting": "checked_index_counts checked_indexes encode",
        "evalkit.exceptions": "InvalidArgumentError NotBinaryError",
        "evalkit.io": "html",
        "evalkit._java.classification_metrics": "ClassificationMetrics",
        "evalkit.measures": "formulas",
    },
    "evalkit.curves": {
        "evalkit._engine._exact": "weighted_bincount",
        "evalkit._engine._validation": "same_fields",
        "evalkit._java.classification_metrics": "ClassificationMetrics",
        "evalkit.measures._arithmetic": "rescaled",
        "evalkit.measures._averaging": "Averaged average_rows check_undefined mean_of mean_rows support_weights",
        "evalkit.measures._registry": "check_measure_parameters",
        "evalkit._results": "intervals",
        "evalkit._scores": "operating",
    },
    "evalkit.costs": {"evalkit._engine._validation": "same_fields"},
    "evalkit.dask": {"evalkit._engine._labels": "check_same_kind same_labels"},
    "evalkit.evaluation": {
        "evalkit._java.classification_metrics": "ClassificationMetrics",
        "evalkit.exceptions": "InvalidTypeError",
        "evalkit.measures._metrics_class": "merged_metrics_class",
        "evalkit.measures._plugins": "metrics_class_field read_metrics_class",
    },
    "evalkit.formulas": {"evalkit._engine._exact": "exact_row_sums"},
    "evalkit.groups": {
        "evalkit._engine": "serialization",
        "evalkit._engine._exact": "weighted_bincount",
        "evalkit._engine._labels": "identity same_labels sorted_labels",
        "evalkit._engine._validation": "as_array check_choice check_sample_weight show",
        "evalkit._engine.cells": "Cells",
        "evalkit._engine._pair_counts": "PairCounts",
        "evalkit._engine.counting": "encode is_label_set_data",
        "evalkit.exceptions": "EmptyInputError EvalkitError InputLengthError InvalidArgumentError InvalidTypeError LabelMismatchError "
                              "UnknownLabelError UnsupportedSettingError",
        "evalkit.io._report_columns": "column_key",
        "evalkit._java.classification_metrics": "ClassificationMetrics",
        "evalkit.measures._averaging": "average_rows check_undefined ratio",
        "evalkit.measures._matrix_formulas": "margins_cohen_kappa margins_matthews_correlation_coefficient",
        "evalkit.measures._metrics_class": "check_metrics_class",
        "evalkit.measures._registry": "Measure spelling",
        "evalkit._results": "intervals",
        "evalkit._results.confusion_matrix": "ConfusionMatrix",
        "evalkit._results.evaluation": "Evaluation",
        "evalkit._scores.curves": "ThresholdCurve",
    },
    "evalkit.intervals": {
        "evalkit._results.paired": "Comparison compare compare_many compare_results mcnemar",
        "evalkit._engine.counting": "encode",
        "evalkit._engine._labels": "sorted_labels",
        "evalkit._engine._validation": "as_array check_count check_numbers",
        "evalkit._engine.serialization": "json_safe",
        "evalkit.exceptions": "InvalidCountsError",
        "evalkit.measures._matrix_formulas": "margins_cohen_kappa margins_matthews_correlation_coefficient",
    },
    "evalkit.measures": {
        "evalkit._engine._validation": "show",
        "evalkit.exceptions": "InputShapeError InvalidArgumentError InvalidTypeError UnknownMetricError",
    },
    "evalkit.metrics": {
        "evalkit._engine._labels": "check_label_list check_one_label",
        "evalkit._engine._validation": "as_array check_choice check_numbers check_option check_ordered check_sample_weight is_sparse show",
        "evalkit._engine.counting": "encode",
        "evalkit.exceptions": "EmptyInputError InputLengthError InputShapeError InvalidArgumentError InvalidTypeError InvalidValueError "
                              "UnknownLabelError UnsupportedSettingError",
        "evalkit.measures._averaging": "check_undefined fill_undefined mean_of",
        "evalkit.measures._formulas": "check_beta",
        "evalkit.measures._matrix_formulas": "matrix_cohen_kappa",
        "evalkit.measures._registry": "Measure get_measure",
        "evalkit._results.evaluation": "Evaluation",
        "evalkit._scores": "ranking",
        "evalkit._scores.calibration": "BrierDecomposition Calibration error_of_scores",
        "evalkit._scores.curve_points": "exact_scores",
        "evalkit._scores.curves": "ThresholdCurve one_vs_one_roc_auc",
        "evalkit._scores.scoring": "brier_losses log_losses top_k_hits",
    },
    "evalkit.plugins": {"evalkit._java.classification_metrics": "ClassificationMetrics"},
    "evalkit.report": {
        "evalkit._engine._labels": "identity",
        "evalkit.exceptions": "LabelMismatchError",
        "evalkit.measures._averaging": "average_cells fill_undefined mean_of support_weights",
        "evalkit.measures._registry": "spelling",
    },
    "evalkit.results": {
        "evalkit._engine._labels": "check_label_list label_position",
        "evalkit._engine._validation": "check_choice",
        "evalkit._engine.cells": "Cells",
        "evalkit._engine._pair_counts": "PairCounts",
        "evalkit.exceptions": "InvalidArgumentError InvalidTypeError UnsupportedSettingError",
        "evalkit._java.classification_metrics": "ClassificationMetrics",
        "evalkit.measures._averaging": "Averaged average_cells check_undefined fill_undefined ratio",
        "evalkit.measures._matrix_formulas": "margins_cohen_kappa margins_matthews_correlation_coefficient pairs_cohen_kappa",
        "evalkit.measures._metrics_class": "check_metrics_class metrics_class_for",
        "evalkit.measures._registry": "Measure check_measure_parameters get_measure resolve_measure",
    },
    "evalkit.stats": {"evalkit.io": "html"},
    "evalkit._scale.windows": {"evalkit._scale.baselines": "MajorityClass NoChange kappa_m kappa_temporal"},
    "evalkit.streaming": {
        "evalkit._java.classification_metrics": "ClassificationMetrics",
        "evalkit._scale._score_streams": "Scored",
        "evalkit._scores.calibration": "Calibration",
        "evalkit._scores.curves": "ThresholdCurve score_columns",
        "evalkit.exceptions": "EvalkitError LabelMismatchError",
        "evalkit._results.counted": "FEW_SAMPLES",
        "evalkit._engine._types": "ScoresLike",
        "evalkit._engine._validation": "as_array same_value",
        "evalkit._engine._exact": "float_units limbs_to_ints weighted_sum",
        "evalkit._engine._labels": "check_same_family same_labels",
        "evalkit.measures._metrics_class": "merged_metrics_class",
    },
}
"""Names a module of evalkit 0.1.0 gave that it no longer has (helpers it imported, mostly):
old module path -> {home module: the names, space-separated}. A name that is a module is
listed under the folder it lives in (``"evalkit._results": "intervals"``). Each of these modules
ends with ``moved_names.finder``, which gives such a name with a ``DeprecationWarning``."""


def register_old_names() -> None:
    """Give ``evalkit._engine.moved_names`` the homes of the names in ``OLD_NAMES``."""
    from evalkit._engine import moved_names

    for old, homes in OLD_NAMES.items():
        found = {name: moved_to(f"{home}.{name}") or f"{home}.{name}" for home, names in homes.items() for name in names.split()}
        moved_names.register(MOVED.get(old, old), found, known_as=old)
    for old, new in FOLDER_PATHS.items():  # evalkit.io.readers as an attribute of evalkit.io
        parent, _, name = old.rpartition(".")
        if parent in FACES:
            moved_names.register(parent, {name: new})
