"""QGS: a quality gate for autonomous AI agents.

What agents import lives in :mod:`qgs_worker.client`; the pure domain in :mod:`qgs_worker.core`.
"""

__version__ = "0.1.0"
