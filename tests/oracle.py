"""scikit-learn as the oracle: call a function of both libraries, compare values, return types and warnings."""

import math
import warnings

import numpy as np
from hypothesis import settings
from sklearn import metrics as sk

from evalkit import metrics as ek
from evalkit.exceptions import UndefinedMetricWarning

oracle = settings(max_examples=int(settings().max_examples // 3) or 1)  # scikit-learn's checks cost milliseconds per call


def call(function, *args, **kwargs):
    """(result or the exception, the warning categories raised)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = function(*args, **kwargs)
        except (ValueError, TypeError) as error:
            result = error
    return result, {type(warning.message) if not issubclass(warning.category, UndefinedMetricWarning) else "undefined" for warning in caught}


def same(ours, theirs):
    if isinstance(theirs, Exception):
        return isinstance(ours, (ValueError, TypeError))
    if isinstance(theirs, tuple):
        return isinstance(ours, tuple) and len(ours) == len(theirs) and all(same(a, b) for a, b in zip(ours, theirs))
    if theirs is None:
        return ours is None
    if isinstance(theirs, dict):
        return isinstance(ours, dict) and list(ours) == list(theirs) and all(same(ours[k], theirs[k]) for k in theirs)
    if isinstance(theirs, str):  # scikit-learn prints supports as floats ("1.0") when no sample is right: a quirk not copied
        return ours == theirs or _same_lines([line.rsplit(None, 1)[0] for line in ours.splitlines() if line.strip()],
                                             [line.rsplit(None, 1)[0] for line in theirs.splitlines() if line.strip()])  # fmt: skip
    if isinstance(theirs, np.ndarray):
        ours = np.asarray(ours)
        return ours.shape == theirs.shape and np.allclose(ours, theirs, rtol=1e-12, atol=1e-13, equal_nan=True)
    return isinstance(ours, float) and (math.isnan(theirs) and math.isnan(ours) or math.isclose(ours, theirs, rel_tol=1e-12, abs_tol=1e-13))


def _same_lines(ours, theirs):
    """Report lines alike, a printed number allowed one unit apart in its last digit: evalkit's
    means are sums correctly rounded, scikit-learn's ``np.mean`` may land a bit below an exact
    tie (0.225 as 0.22499999999999998, printed 0.22 where evalkit prints 0.23); the values
    themselves are compared to 1e-12 in the report's dict."""
    if len(ours) != len(theirs):
        return False
    for mine, other in zip(ours, theirs):
        a, b = mine.split(), other.split()
        if len(a) != len(b):
            return False
        for x, y in zip(a, b):
            if x != y and not (x.replace(".", "").isdigit() and "." in x and len(x) == len(y)
                               and abs(float(x) - float(y)) <= 1.5 * 10.0 ** -len(x.split(".")[1])):  # fmt: skip
                return False
    return True


def compare(name, *args, **kwargs):
    theirs, their_warnings = call(getattr(sk, name), *args, **kwargs)
    ours, our_warnings = call(getattr(ek, name), *args, **kwargs)
    assert same(ours, theirs), (name, kwargs, ours, theirs)
    if not isinstance(theirs, Exception):
        sk_undefined = any(category is not UserWarning and category.__name__ == "UndefinedMetricWarning" for category in their_warnings if category != "undefined")
        assert sk_undefined == ("undefined" in our_warnings), (name, kwargs, their_warnings, our_warnings)
    return ours
