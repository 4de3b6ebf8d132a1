"""A round's next jobs put on the queue: the chain its plan needs, sent by the jobs' names.

The jobs (``jobs``), the sweeper's re-dispatch and a dead letter's replay all send a round on
through here; jobs are named (``qgs.review.*``), never imported, so this sits below all of them.
"""

from __future__ import annotations

from typing import Any

from celery import Celery, chain, current_app

from qgs_worker.core.models import RoundPlan
from qgs_worker.service import Dispatch
from qgs_worker.store import Repository

__all__ = ["dispatch", "job_chain", "send"]


def job_chain(plan: RoundPlan) -> list[tuple[str, dict[str, Any]]]:
    """The jobs a round's plan needs, in order, as ``(job name, keyword arguments)``.

    A review with no audit due is one job that reviews and decides (``then_decide``); with an
    audit due the critic, the discriminator and the decision are three jobs on their queues
    (the critic and discriminator queues keep slow judge calls and heavy audits apart). A round
    with nothing due needs only the decision (intake decides such a round itself; the sweeper
    may still dispatch one).
    """
    if plan.critic and not plan.discriminate:
        return [("qgs.review.critic", {"then_decide": True})]
    steps: list[tuple[str, dict[str, Any]]] = []
    if plan.critic:
        steps.append(("qgs.review.critic", {}))
    if plan.discriminate:
        steps.append(("qgs.review.discriminate", {}))
    steps.append(("qgs.review.decide", {}))
    return steps


def send(ready: Dispatch, *, app: Celery | None = None, countdown_s: float | None = None) -> None:
    """Enqueue a round's jobs as one chain (``job_chain``), on the current app or ``app``.

    A plan of one job (the common reviewed round) is sent as that job alone: a one-link chain
    costs a canvas freeze and a second serialisation for nothing. ``countdown_s`` holds the
    first job that long (a judge retry or a rate-limit wait).
    """
    steps = job_chain(ready.plan)
    rid = ready.round_id
    if app is None:
        sigs = [
            current_app.signature(name, args=(rid,), kwargs=kw, immutable=True)
            for name, kw in steps
        ]
    else:
        sigs = [app.signature(name, args=(rid,), kwargs=kw, immutable=True) for name, kw in steps]
    options = {} if countdown_s is None else {"countdown": countdown_s}
    if len(sigs) == 1:
        sigs[0].apply_async(**options)
    else:
        (chain(*sigs, app=app) if app is not None else chain(*sigs)).apply_async(**options)


def dispatch(round_id: int, repo: Repository, *, app: Celery | None = None) -> None:
    """Enqueue a stored round's jobs from the plan stored with it (the sweeper's re-dispatch).

    Args:
        round_id: The round.
        repo: The store.
        app: The app to publish with (the current app when None; the sweeper passes its own).
    """
    send(Dispatch(round_id, repo.round_plan(round_id)), app=app)
