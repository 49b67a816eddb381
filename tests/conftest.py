"""Shared test settings: Hypothesis profiles sized for a fast suite.

``python -m pytest`` runs everything (60 examples per property; ``HYPOTHESIS_PROFILE=thorough``
for 1,000). ``python -m pytest -m "not slow"`` is the fast inner loop: it leaves out the tests
marked ``slow`` (browser, Dask cluster, documentation build, large data) and draws 10 examples
per property.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.register_profile("quick", max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_configure(config):
    """The inner loop (``-m "not slow"``) also draws fewer examples, unless a profile is named."""
    if "not slow" in (config.option.markexpr or "") and "HYPOTHESIS_PROFILE" not in os.environ:
        settings.load_profile("quick")
