"""scikit-learn's own regression tests (``sklearn/metrics/tests/test_regression.py``, from the
installed scikit-learn), run with its metric names rebound to ``evalkit.metrics``.

The file's import lines are the only change: ``from sklearn.metrics import (...)`` imports the
same names from ``evalkit.metrics`` (``make_scorer`` stays scikit-learn's: a scorer of an
evalkit function tunes a scikit-learn estimator), ``_check_reg_targets`` is evalkit's
``check_regression_targets`` and ``UndefinedMetricWarning`` evalkit's. Every test of the file
passes, its expected error messages included.
"""

import pytest
from scikit_learn_suites import rebound_source

_REBOUND = [
    ("from sklearn.metrics import (", "from sklearn.metrics import make_scorer\nfrom evalkit.metrics import ("),
    ("    make_scorer,\n", ""),
    ("from sklearn.metrics._regression import _check_reg_targets", "from evalkit.metrics._regression import check_regression_targets as _check_reg_targets"),
    ("from sklearn.exceptions import UndefinedMetricWarning", "from evalkit.exceptions import UndefinedMetricWarning"),
]


_PATH, _SOURCE = rebound_source("test_regression.py", _REBOUND)
exec(compile(_SOURCE, _PATH, "exec"))  # noqa: S102 (scikit-learn's test functions, defined here with evalkit's names)

pytestmark = pytest.mark.filterwarnings("ignore:invalid value encountered in scalar divide:RuntimeWarning")  # its own test divides 0 by 0


@pytest.fixture(params=[0, 1, 42])
def global_random_seed(request):
    """scikit-learn's fixture of the same name: a few seeds."""
    return request.param


def test_the_suite_runs_evalkits_functions():
    import evalkit.metrics

    assert mean_squared_error is evalkit.metrics.mean_squared_error  # noqa: F821 (defined by the suite's rebound imports)
    assert d2_pinball_score is evalkit.metrics.d2_pinball_score  # noqa: F821
    assert len([name for name in globals() if name.startswith("test_")]) >= 14
