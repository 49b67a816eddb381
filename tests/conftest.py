"""Shared test settings: Hypothesis profiles sized for a fast suite.

``python -m pytest`` runs everything (60 examples per property; ``HYPOTHESIS_PROFILE=thorough``
for 1,000). ``python -m pytest -m "not slow"`` is the fast inner loop: it leaves out the tests
marked ``slow`` (browser, Dask cluster, documentation build, large data) and draws 10 examples
per property.
"""

import os
import shutil

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.register_profile("quick", max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_configure(config):
    """The inner loop (``-m "not slow"``) also draws fewer examples, unless a profile is named."""
    if "not slow" in (config.option.markexpr or "") and "HYPOTHESIS_PROFILE" not in os.environ:
        settings.load_profile("quick")


@pytest.fixture(scope="module")
def client():
    """A Dask cluster of two worker processes: every partition is counted in another process than the test's."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as connected:
        yield connected


@pytest.fixture(scope="module")
def spark():
    """A local Spark of two cores (pyspark from the test extra; its JVM from the JDK .ci/run installs)."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        pytest.fail('pyspark is not installed: python -m pip install ".[test]"')
    if not shutil.which("java"):
        pytest.fail("Spark needs Java: .ci/run installs it (apt-get install default-jdk-headless)")
    session = (SparkSession.builder.master("local[2]").appName("evalkit-tests").config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "2").config("spark.sql.execution.arrow.pyspark.enabled", "true").getOrCreate())  # fmt: skip
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
