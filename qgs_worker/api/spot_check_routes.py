"""The spot-check routes of the HTTP API (``api.spot_checks``' operations; docs/spot-checks.md).

Routes (each needs a key: an agent's, over its own tasks, or an operator's, a person's, over the
principals it ``sees``, the only ``/v1`` routes that take one; the writes need the
``spot-check`` scope)::

    POST /v1/spot-checks                          ask for a round   201 new / 200 queued before
    GET  /v1/spot-checks?status=open              the queue         200 {"items": [...]}
    GET  /v1/spot-checks/{submission_id}          a round to check  200 (its round, its labels)
    POST /v1/spot-checks/{submission_id}/labels   a person's label  201 (scope spot-check)
    GET  /v1/agreement?scope=                     kappa, alpha, FP/FN per judge, type, rule
    GET  /v1/shadow                               the shadow states
    POST /v1/shadow                               a person's shadow decision (scope spot-check,
                                                  an operator key with --sees all)
"""

# No `from __future__ import annotations`: FastAPI reads the routes' annotations, built here.

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query
from fastapi.responses import JSONResponse

from qgs_worker.api.access import Principal
from qgs_worker.api.operations import Operations
from qgs_worker.api.spot_check_schemas import Blank, LabelIn, Scope, ShadowIn, SpotCheckIn, Status

__all__ = ["install"]


def install(app: FastAPI, ops: Operations, principal: Callable[..., Principal]) -> None:
    """Add the spot-check routes to ``app``; ``principal`` is the app's key dependency."""
    me_type = Annotated[Principal, Depends(principal)]
    tags: list[str | Any] = ["spot-checks"]

    @app.post("/v1/spot-checks", status_code=201, tags=tags)
    def request_spot_check(body: SpotCheckIn, me: me_type) -> JSONResponse:
        """Queue a decided round for a person's spot-check (scope ``spot-check``).

        An agent's key asks for its own rounds; an operator's key for those of the principals
        it sees.
        """
        item, created = ops.request_spot_check(me, body.submission_id, note=body.note)
        return JSONResponse(item, status_code=201 if created else 200)

    @app.get("/v1/spot-checks", tags=tags)
    def spot_checks(
        me: me_type,
        status: Annotated[Status, Query(), Blank.default("open")] = "open",
        task_type: Annotated[str | None, Query(max_length=32), Blank.unset] = None,
        decision: Annotated[str | None, Query(max_length=32), Blank.unset] = None,
        limit: Annotated[int, Query(ge=1, le=1000), Blank.default(100)] = 100,
    ) -> dict[str, Any]:
        """The spot-check queue, oldest first (an empty filter: none).

        An agent's key sees its own tasks' rounds; an operator's key those of the principals it
        sees. ``task_type`` and ``decision`` take the values the 422 problem lists.
        """
        items = ops.spot_checks(
            me, status=status, task_type=task_type, decision=decision, limit=limit
        )
        return {"items": items}

    @app.get("/v1/spot-checks/{submission_id}", tags=tags)
    def spot_check(submission_id: str, me: me_type) -> dict[str, Any]:
        """One round to check: the round as the report shows it, its queue items and labels."""
        return ops.spot_check(me, submission_id)

    @app.post("/v1/spot-checks/{submission_id}/labels", status_code=201, tags=tags)
    def label(submission_id: str, body: LabelIn, me: me_type) -> dict[str, Any]:
        """Record the key's label of a queued round (scope ``spot-check``).

        An operator key's label is a person's: it counts in the figures that move shadow
        states. An agent key's label counts in its own figures only.
        """
        return ops.label_spot_check(
            me,
            submission_id,
            decision_correct=body.decision_correct,
            verdict=body.verdict,
            severities=body.severities,
            note=body.note,
        )

    @app.get("/v1/agreement", tags=tags)
    def agreement(
        me: me_type,
        scope: Annotated[Scope | None, Query(), Blank.unset] = None,
    ) -> dict[str, Any]:
        """Agreement with people per judge, task type and rule (``scope=`` empty: every one).

        Over the labels the key may see; the ``shadow`` block's label counts and kappa only for
        an operator key that sees every task (null otherwise).
        """
        return ops.agreement(me, scope=scope)

    @app.get("/v1/shadow", tags=tags)
    def shadow(me: me_type) -> dict[str, Any]:
        """The judges and rules in (or out of) shadow, and why.

        Every key sees the states; their label counts, kappa and the figures in ``why`` only an
        operator key that sees every task (the figures stand on every principal's labels).
        """
        return {"shadow": ops.shadow_states(me)}

    @app.post("/v1/shadow", tags=tags)
    def set_shadow(body: ShadowIn, me: me_type) -> dict[str, Any]:
        """A person's decision on a judge's or rule's shadow state.

        Needs an operator key with the ``spot-check`` scope that sees every task (``qgs keys
        create --operator NAME --scope spot-check --sees all``): it changes every principal's
        gate. Any other key is a 403 (``qgs shadow`` on the server does the same).
        """
        return ops.set_shadow(me, body.kind, body.name, in_shadow=body.in_shadow, note=body.note)
