"""The module paths of evalkit 0.1.0's flat layout, kept importable after the layers got folders.

``import evalkit.curves`` (or a pickle that names ``evalkit.curves.ThresholdCurve``) gives the
module that now lives at ``evalkit.scores.curves``: the same module object under its old name,
so its classes, functions and module-level state are the same objects. ``evalkit.curves``
and ``evalkit.metrics`` are attributes of ``evalkit`` as in 0.1.0, imported on first use
(``submodule``), and a name a module gave in 0.1.0 and lost since (a helper it imported) is
still found, with a warning that says where it lives now (``OLD_NAMES``). Nothing here is
imported by evalkit's own code, which uses the new paths.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
import types
import warnings

OLD_PATHS = {
    "evalkit._exact": "evalkit.engine._exact",
    "evalkit._labels": "evalkit.engine._labels",
    "evalkit._validation": "evalkit.engine._validation",
    "evalkit.agreement": "evalkit.groups.agreement",
    "evalkit.averaging": "evalkit.measures.averaging",
    "evalkit.calibration": "evalkit.scores.calibration",
    "evalkit.cells": "evalkit.engine.cells",
    "evalkit.classification_metrics": "evalkit.java.classification_metrics",
    "evalkit.confusion_matrix": "evalkit.results.confusion_matrix",
    "evalkit.costs": "evalkit.scores.costs",
    "evalkit.counting": "evalkit.engine.counting",
    "evalkit.curves": "evalkit.scores.curves",
    "evalkit.dask": "evalkit.scale.dask",
    "evalkit.spark": "evalkit.scale.spark",
    "evalkit.datasets": "evalkit.io.datasets",
    "evalkit.displays": "evalkit.io.displays",
    "evalkit.evaluation": "evalkit.results.evaluation",
    "evalkit.evaluation_metrics": "evalkit.java.evaluation_metrics",
    "evalkit.formulas": "evalkit.measures.formulas",
    "evalkit.gains": "evalkit.scores.gains",
    "evalkit.hierarchy": "evalkit.engine.hierarchy",
    "evalkit.html": "evalkit.io.html",
    "evalkit.intervals": "evalkit.results.intervals",
    "evalkit.neighborhood": "evalkit.groups.neighborhood",
    "evalkit.operating": "evalkit.scores.operating",
    "evalkit.plots": "evalkit.io.plots",
    "evalkit.plugins": "evalkit.measures.plugins",
    "evalkit.ranking": "evalkit.scores.ranking",
    "evalkit.readers": "evalkit.io.readers",
    "evalkit.report": "evalkit.io.report",
    "evalkit.scoring": "evalkit.scores.scoring",
    "evalkit.serialization": "evalkit.engine.serialization",
    "evalkit.settings": "evalkit.results.constructors",
    "evalkit.stats": "evalkit.java.stats",
    "evalkit.streaming": "evalkit.scale.streaming",
    "evalkit.theory": "evalkit.results.theory",
    "evalkit.tnorms": "evalkit.engine.tnorms",
}
"""Old module path -> where that module lives now. ``evalkit.measures``, ``evalkit.results``,
``evalkit.groups`` and ``evalkit.metrics`` kept their paths: they are packages now, whose
``__init__`` gives the names the old module gave."""


DEPRECATED_PATHS = {"evalkit.scale.files": "evalkit.cli._files"}
"""Module paths of this release line that moved since: found as the old paths are, with a
``DeprecationWarning`` naming the new place (for one release, then gone)."""


class OldPaths:
    """Finds an old module path and loads it as the module at its new path (a meta path finder
    and loader by its methods: ``importlib.abc`` would import ``importlib.resources`` and
    ``pathlib``, about 5 ms of ``import evalkit``)."""

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        return importlib.util.spec_from_loader(fullname, self) if fullname in OLD_PATHS or fullname in DEPRECATED_PATHS else None  # type: ignore[arg-type]  # (no deprecated load_module)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        if spec.name in DEPRECATED_PATHS:
            warnings.warn(f"{spec.name} is deprecated: its module is {DEPRECATED_PATHS[spec.name]} now", DeprecationWarning, stacklevel=2)
        module = importlib.import_module(OLD_PATHS.get(spec.name) or DEPRECATED_PATHS[spec.name])
        spec.loader_state = module.__spec__  # the import system sets __spec__ to the old path's: put it back
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        """The module ran when it was imported at its new path; only its own spec is restored."""
        if module.__spec__ is not None and module.__spec__.loader_state is not None:
            module.__spec__ = module.__spec__.loader_state


def install() -> None:
    """Put the finder of old paths on ``sys.meta_path`` (once) and register the old names."""
    if not any(isinstance(finder, OldPaths) for finder in sys.meta_path):
        sys.meta_path.append(OldPaths())
    register_old_names()


LAYERS = ("cli", "comparisons", "engine", "exceptions", "groups", "io", "java", "measures", "metrics", "results", "scale", "scores")
"""The folders (and the command line's module) of today's layout: attributes of ``evalkit`` too."""


def submodule(name: str) -> types.ModuleType:
    """``evalkit.<name>`` for an old module path (``curves``) or a layer (``metrics``): imported
    on first use, as scikit-learn and SciPy give their subpackages, so ``import evalkit`` does
    not load them all.

    Raises:
        AttributeError: ``name`` is neither, or its module needs a package that is not
            installed (``evalkit.dask`` without dask), so that ``hasattr`` and ``help(evalkit)``
            work; ``import evalkit.dask`` raises the ``ImportError`` itself.
    """
    path = f"evalkit.{name}"
    if path not in OLD_PATHS and name not in LAYERS:
        raise AttributeError(f"module 'evalkit' has no attribute {name!r}")
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError as error:
        if error.name is None or error.name.partition(".")[0] == "evalkit":
            raise
        raise AttributeError(f"evalkit.{name} needs {error.name!r}, which is not installed: {error}") from error


OLD_NAMES = {
    "evalkit.averaging": {"evalkit.results": "CellsResult"},
    "evalkit.calibration": {"evalkit.engine._exact": "ExactSums"},
    "evalkit.classification_metrics": {"evalkit.io": "html", "evalkit.measures.registry": "Measure getter_metadata registry_version"},
    "evalkit.cli": {
        "evalkit.engine._exact": "ExactSums limbs_to_floats",
        "evalkit.groups._by_group": "ByGroup",
        "evalkit.io.readers": "Batch Labels header label_number label_text read_batches scores weights",
        "evalkit.results.evaluation": "Evaluation",
        "evalkit.scale.streaming": "CalibrationCounts CurveCounts LabelSetCounts",
        "evalkit.scores.scoring": "class_log_losses",
    },
    "evalkit.confusion_matrix": {
        "evalkit.engine._exact": "check_count_total weighted_bincount",
        "evalkit.engine.counting": "checked_index_counts checked_indexes encode",
        "evalkit.exceptions": "InvalidArgumentError NotBinaryError",
        "evalkit.io": "html",
        "evalkit.java.classification_metrics": "ClassificationMetrics",
        "evalkit.measures": "formulas",
    },
    "evalkit.curves": {
        "evalkit.engine._exact": "weighted_bincount",
        "evalkit.java.classification_metrics": "ClassificationMetrics",
        "evalkit.measures.arithmetic": "rescaled",
        "evalkit.measures.averaging": "Averaged average_rows check_undefined mean_of mean_rows support_weights",
        "evalkit.measures.registry": "check_measure_parameters",
        "evalkit.results": "intervals",
        "evalkit.scores": "operating",
    },
    "evalkit.dask": {"evalkit.engine._labels": "check_same_kind same_labels"},
    "evalkit.evaluation": {"evalkit.java.classification_metrics": "ClassificationMetrics"},
    "evalkit.formulas": {"evalkit.engine._exact": "exact_row_sums"},
    "evalkit.groups": {
        "evalkit.engine": "serialization",
        "evalkit.engine._exact": "weighted_bincount",
        "evalkit.engine._labels": "identity same_labels sorted_labels",
        "evalkit.engine._validation": "as_array check_choice check_sample_weight show",
        "evalkit.engine.cells": "Cells",
        "evalkit.engine.counting": "PairCounts encode is_label_set_data",
        "evalkit.exceptions": "EmptyInputError EvalkitError InputLengthError InvalidArgumentError InvalidTypeError LabelMismatchError "
                              "UnknownLabelError UnsupportedSettingError",
        "evalkit.io.report_columns": "column_key",
        "evalkit.java.classification_metrics": "ClassificationMetrics",
        "evalkit.measures.averaging": "average_rows check_undefined ratio",
        "evalkit.measures.matrix_formulas": "margins_cohen_kappa margins_matthews_correlation_coefficient",
        "evalkit.measures.metrics_class": "check_metrics_class",
        "evalkit.measures.registry": "Measure spelling",
        "evalkit.results": "intervals",
        "evalkit.results.confusion_matrix": "ConfusionMatrix",
        "evalkit.results.evaluation": "Evaluation",
        "evalkit.scores.curves": "ThresholdCurve",
    },
    "evalkit.intervals": {
        "evalkit.engine._validation": "as_array check_count check_numbers",
        "evalkit.engine.serialization": "json_safe",
        "evalkit.exceptions": "InvalidCountsError",
        "evalkit.measures.matrix_formulas": "margins_cohen_kappa margins_matthews_correlation_coefficient",
    },
    "evalkit.measures": {
        "evalkit.engine._validation": "show",
        "evalkit.exceptions": "InputShapeError InvalidArgumentError InvalidTypeError UnknownMetricError",
    },
    "evalkit.metrics": {
        "evalkit.engine._labels": "check_label_list check_one_label",
        "evalkit.engine._validation": "as_array check_choice check_numbers check_option check_ordered check_sample_weight is_sparse show",
        "evalkit.engine.counting": "encode",
        "evalkit.exceptions": "EmptyInputError InputLengthError InputShapeError InvalidArgumentError InvalidTypeError InvalidValueError "
                              "UnknownLabelError UnsupportedSettingError",
        "evalkit.measures.averaging": "check_undefined fill_undefined mean_of",
        "evalkit.measures.formulas": "check_beta",
        "evalkit.measures.matrix_formulas": "matrix_cohen_kappa",
        "evalkit.measures.registry": "Measure get_measure",
        "evalkit.results.evaluation": "Evaluation",
        "evalkit.scores": "ranking",
        "evalkit.scores.calibration": "BrierDecomposition Calibration error_of_scores",
        "evalkit.scores.curve_points": "exact_scores",
        "evalkit.scores.curves": "ThresholdCurve one_vs_one_roc_auc",
        "evalkit.scores.scoring": "brier_losses log_losses top_k_hits",
    },
    "evalkit.plugins": {"evalkit.java.classification_metrics": "ClassificationMetrics"},
    "evalkit.report": {
        "evalkit.engine._labels": "identity",
        "evalkit.exceptions": "LabelMismatchError",
        "evalkit.measures.averaging": "average_cells fill_undefined mean_of support_weights",
        "evalkit.measures.registry": "spelling",
    },
    "evalkit.results": {
        "evalkit.engine._labels": "check_label_list label_position",
        "evalkit.engine._validation": "check_choice",
        "evalkit.engine.cells": "Cells",
        "evalkit.engine.counting": "PairCounts",
        "evalkit.exceptions": "InvalidArgumentError InvalidTypeError UnsupportedSettingError",
        "evalkit.java.classification_metrics": "ClassificationMetrics",
        "evalkit.measures.averaging": "Averaged average_cells check_undefined fill_undefined ratio",
        "evalkit.measures.matrix_formulas": "margins_cohen_kappa margins_matthews_correlation_coefficient pairs_cohen_kappa",
        "evalkit.measures.metrics_class": "check_metrics_class metrics_class_for",
        "evalkit.measures.registry": "Measure check_measure_parameters get_measure resolve_measure",
    },
    "evalkit.stats": {"evalkit.io": "html"},
    "evalkit.streaming": {
        "evalkit.java.classification_metrics": "ClassificationMetrics",
        "evalkit.scale._score_streams": "Scored",
        "evalkit.scores.calibration": "Calibration",
        "evalkit.scores.curves": "ThresholdCurve score_columns",
        "evalkit.exceptions": "EvalkitError",
        "evalkit.results.counted": "FEW_SAMPLES",
        "evalkit.engine._types": "ScoresLike",
        "evalkit.engine._validation": "as_array",
        "evalkit.engine._exact": "float_units limbs_to_ints",
    },
}
"""Names a module of evalkit 0.1.0 gave that it no longer has (helpers it imported, mostly):
old module path -> {home module: the names, space-separated}. A name that is a module is
listed under the folder it lives in (``"evalkit.results": "intervals"``). Each of these modules
ends with ``moved_names.finder``, which gives such a name with a ``DeprecationWarning``."""


def register_old_names() -> None:
    """Give ``evalkit.engine.moved_names`` the homes of the names in ``OLD_NAMES``."""
    from evalkit.engine import moved_names

    for old, homes in OLD_NAMES.items():
        found = {name: f"{home}.{name}" for home, names in homes.items() for name in names.split()}
        moved_names.register(OLD_PATHS.get(old, old), found, known_as=old)
