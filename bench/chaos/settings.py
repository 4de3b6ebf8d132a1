"""The ``QGS_*`` environment of the run's workers, fitted to the checkout under test.

Small limits keep the run short: a 2 s judge timeout, a 60 s visibility timeout and sweeps
every 10 s (defaults of ``python -m bench.chaos``), audit roles' budgets that fit the
visibility timeout. Settings that only some checkouts have
(a sweeper's interval, added by issue 11) are found by name in that checkout's ``Settings``
and set when present; what was set is reported in the summary.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .run import RunConfig


def checkout_root() -> Path:
    """The folder whose ``qgs_worker`` this process imports (``PYTHONPATH`` decides)."""
    import qgs_worker

    return Path(qgs_worker.__file__).resolve().parents[1]


def _setting_paths(model: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every field path of a settings model, nested models walked (``("worker", "x_s")``)."""
    from pydantic import BaseModel

    paths = []
    for name, info in getattr(model, "model_fields", {}).items():
        annotation = info.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            paths += _setting_paths(annotation, (*prefix, name))
        else:
            paths.append((*prefix, name))
    return paths


def variable(path: tuple[str, ...]) -> str:
    """``("worker", "visibility_timeout_s")`` -> ``QGS_WORKER__VISIBILITY_TIMEOUT_S``."""
    return "QGS_" + "__".join(path).upper()


def sweep_variables() -> list[str]:
    """The checkout's sweeper interval settings (a name with ``sweep`` and ``interval``)."""
    from qgs_worker.config.settings import Settings

    return [
        variable(p) for p in _setting_paths(Settings)
        if "sweep" in "_".join(p) and "interval" in p[-1]
    ]  # fmt: skip


def worker_env(
    cfg: RunConfig, broker_url: str, store_url: str, judge_url: str
) -> tuple[dict[str, str], dict[str, str]]:
    """The workers' environment, and the ``QGS_*`` part of it (for the summary).

    Every ``QGS_*`` variable of the caller's environment is dropped (the run never touches
    the user's store or broker); ``PYTHONPATH`` points at the checkout under test.
    """
    vt = cfg.visibility_timeout_s
    qgs = {
        "QGS_BROKER_URL": broker_url,
        "QGS_DATABASE_URL": store_url,
        "QGS_DATA_DIR": str(cfg.folder),
        "QGS_JUDGE__KIND": "openai",
        "QGS_JUDGE__BASE_URL": judge_url,
        "QGS_JUDGE__API_KEY": "chaos",
        "QGS_JUDGE__TIMEOUT_S": f"{cfg.judge_timeout_s:g}",
        "QGS_WORKER__SOFT_TIME_LIMIT_S": f"{vt * 0.6:g}",
        "QGS_WORKER__TIME_LIMIT_S": f"{vt * 0.75:g}",
        "QGS_WORKER__VISIBILITY_TIMEOUT_S": f"{vt:g}",
        "QGS_WORKER__RESTORE_INTERVAL_S": f"{cfg.sweep_interval_s:g}",
        "QGS_WORKER__RETRY_BACKOFF_MAX_S": "4",
        # Three audit roles, each with its budget and 5 s of grace, must end within 80% of the
        # visibility timeout (a checkout with issue 11's start-up check refuses more).
        "QGS_DISCRIMINATOR__ROLE_TIMEOUT_S": f"{max(1.0, round(0.8 * vt / 3 - 5, 1)):g}",
    }
    for name in sweep_variables():
        qgs[name] = f"{cfg.sweep_interval_s:g}"
    qgs.update(cfg.extra_env)
    env = {k: v for k, v in os.environ.items() if not k.startswith("QGS_")}
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(checkout_root()), env.get("PYTHONPATH", "")) if p
    )
    env.update(qgs)
    return env, {k: v for k, v in qgs.items() if k not in ("QGS_JUDGE__API_KEY",)}
