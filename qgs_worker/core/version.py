"""QGS's version, in one place.

The package (``qgs_worker.__version__``) and every adapter that stamps it (the audit run's
fingerprint, telemetry's tracer) read it here.
"""

QGS_VERSION = "0.1.0"
"""The release, as ``pyproject.toml``'s ``version`` says."""
