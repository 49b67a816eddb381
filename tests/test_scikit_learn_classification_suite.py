"""scikit-learn's own classification tests (``sklearn/metrics/tests/test_classification.py``,
from the installed scikit-learn), run with its metric names rebound to ``evalkit.metrics``.

The file's import lines are the main change: ``from sklearn.metrics import (...)`` imports the
same names from ``evalkit.metrics`` (``make_scorer`` stays scikit-learn's), and
``d2_brier_score``, ``d2_log_loss_score`` and ``UndefinedMetricWarning`` are evalkit's. Its
expected error messages and warnings are matched: evalkit's messages give scikit-learn's
sentence, then name the argument and show the value.

What differs on purpose, each replaced below by a test of what evalkit does instead:

* ``test_confusion_matrix_dtype`` expects integer weights of ``2**63 - 1`` to wrap around to
  ``-2`` in a cell; evalkit counts exactly or refuses (``CountOverflowError``).
* ``test_confusion_matrix_pandas_nullable[boolean]`` merges ``True`` with ``1``; evalkit never
  merges booleans with numbers (``MixedLabelTypesError``), as ``1`` is not merged with ``"1"``.
* ``test_confusion_matrix_array_api`` checks scikit-learn's array-API dispatch (torch, CuPy,
  array-api-strict namespaces); evalkit takes numpy and what converts to it.
* One message of ``test_hinge_loss_multiclass_no_consistent_pred_decision_shape`` runs two words
  together ("1d arraywith"); the rebinding puts the space back in the expected text.
"""

import numpy as np
import pandas as pd
import pytest
from scikit_learn_suites import rebound_source

from evalkit.exceptions import CountOverflowError, MixedLabelTypesError

_REBOUND = [
    ("from sklearn.metrics import (", "from sklearn.metrics import make_scorer\nfrom evalkit.metrics import ("),
    ("    make_scorer,\n", ""),
    ("from sklearn.metrics._classification import (\n    _check_targets,\n    d2_brier_score,\n    d2_log_loss_score,\n)",
     "from sklearn.metrics._classification import _check_targets\nfrom evalkit.metrics import d2_brier_score, d2_log_loss_score"),
    ("from sklearn.exceptions import UndefinedMetricWarning", "from evalkit.metrics import UndefinedMetricWarning"),
    ('"The shape of pred_decision cannot be 1d array"\n        "with a multiclass target.', '"The shape of pred_decision cannot be 1d array"\n        " with a multiclass target.'),
]  # fmt: skip
_DIFFERENT = ("test_confusion_matrix_dtype", "test_confusion_matrix_pandas_nullable", "test_confusion_matrix_array_api")


_PATH, _SOURCE = rebound_source("test_classification.py", _REBOUND)
exec(compile(_SOURCE, _PATH, "exec"))  # noqa: S102 (scikit-learn's test functions, defined here with evalkit's names)
for _name in _DIFFERENT:
    assert _name in globals(), f"scikit-learn's test file no longer has {_name}: update the list of differences"
    del globals()[_name]

pytestmark = pytest.mark.filterwarnings(
    "ignore:invalid value encountered:RuntimeWarning",  # its own tests divide 0 by 0
    "ignore::sklearn.exceptions.ConvergenceWarning",  # its fits on small data
    "ignore::UserWarning",  # scikit-learn runs these tests with its warnings shown, not raised (UndefinedMetricWarning is one)
)


@pytest.fixture(params=[0, 1, 42])
def global_random_seed(request):
    """scikit-learn's fixture of the same name: a few seeds."""
    return request.param


@pytest.fixture
def global_dtype():
    """scikit-learn's fixture of the same name, at float64."""
    return np.float64


def test_the_suite_runs_evalkits_functions():
    import evalkit.metrics

    assert f1_score is evalkit.metrics.f1_score  # noqa: F821 (defined by the suite's rebound imports)
    assert d2_brier_score is evalkit.metrics.d2_brier_score  # noqa: F821
    assert UndefinedMetricWarning is evalkit.metrics.UndefinedMetricWarning  # noqa: F821
    assert len([name for name in globals() if name.startswith("test_")]) >= 110


def test_weights_summing_past_int64_are_refused_not_wrapped():
    # scikit-learn: cm[1, 1] == -2, two weights of 2**63 - 1 wrapped around
    from evalkit.metrics import confusion_matrix

    y = [0, 0, 1, 1]
    counts = confusion_matrix(y, y, sample_weight=np.full(4, 4294967295, dtype=np.uint32))
    assert counts.tolist() == [[8589934590, 0], [0, 8589934590]]
    with pytest.raises(CountOverflowError, match=r"2\*\*63 - 1"):
        confusion_matrix(y, y, sample_weight=np.full(4, 9223372036854775807, dtype=np.int64))


@pytest.mark.parametrize("dtype", ["Int64", "Float64"])
def test_pandas_nullable_numbers_count_as_numbers_and_booleans_are_not_merged_with_them(dtype):
    from evalkit.metrics import confusion_matrix

    y = np.array([1, 0, 0, 1, 0, 1, 1, 0, 1])
    predicted = pd.Series([0, 0, 1, 1, 0, 1, 1, 1, 1], dtype="int64")
    assert np.array_equal(confusion_matrix(pd.Series(y, dtype=dtype), predicted), confusion_matrix(y, predicted))
    with pytest.raises(MixedLabelTypesError, match="booleans"):  # scikit-learn merges True with 1
        confusion_matrix(pd.Series(y, dtype="boolean"), predicted)
    booleans = pd.Series(y.astype(bool), dtype="boolean")
    assert np.array_equal(confusion_matrix(booleans, predicted.astype(bool)), confusion_matrix(y, predicted))
