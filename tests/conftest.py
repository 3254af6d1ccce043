import os

import matplotlib

matplotlib.use("Agg")

from hypothesis import HealthCheck, settings

# Property tests: enough examples to catch real bugs, no per-example deadline (CI machines
# are shared; speed is measured in benchmarks/, never in unit tests).
settings.register_profile(
    "default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else "default")
