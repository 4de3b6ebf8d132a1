"""Spot-checks and shadow mode: the part of ``Operations`` a person uses to measure the judge.

    ops.request_spot_check(me, "s-42", note="looks off")    # queue a decided round (asked)
    ops.spot_checks(me, status="open")                       # the queue, oldest first
    ops.label_spot_check(me, "s-42", decision_correct=False, verdict="fail",
                         severities={"sql_drop": "none"})
    ops.agreement(me)                                         # kappa, alpha, FP/FN, the rounds
    ops.set_shadow(me, "rule", "sql_drop", in_shadow=True, note="too many FPs")

The person is the calling principal (its name; the key's id is stored beside the label, and
whether a person or an agent recorded it). A principal sees the spot-checks of the tasks it
sees (an agent's key its own, an operator's key those of the principals it ``sees``: the
console's spot-checks page and the HTTP API's spot-check routes, which take operator keys).
Shadow states are the deployment's: only people's labels (operator keys', ``qgs``'s own) move
them, and their figures are shown only to an operator who sees every task; an agent's
self-labels count in its own figures. Writes need the ``spot-check`` scope (``qgs keys create
--scope spot-check``); a shadow change, an operator key that sees all.

Errors: ``PermissionDeniedError`` (no ``spot-check`` scope), ``SubmissionNotFoundError`` (not the
principal's, or unknown), ``NotSampledError``, ``LabelExistsError``, ``RoundRedecidedError``
(each a 409 naming ``submission_id`` and the fix; nothing is lost), ``InputError`` (a verdict,
severity or subject that is not one).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from qgs_worker.api.spot_check_rules import (
    NOTE_MAX_CHARS,
    RULE_MAX_CHARS,
    SEVERITIES,
    STATUSES,
    check_note,
    needs_scope,
    one_of,
    owners_of,
    without_figures,
)
from qgs_worker.core.free_text import bad_control, is_blank
from qgs_worker.core.models import DecisionKind, TaskType, Verdict
from qgs_worker.core.spot_names import check_name, judge_names, rule_names
from qgs_worker.core.spotcheck import (
    Figure,
    ShadowChange,
    ShadowState,
    agreement_figures,
    automatic_changes,
    shadow_states,
)
from qgs_worker.errors import InputError, PermissionDeniedError

if TYPE_CHECKING:
    from qgs_worker.api.access import Principal
    from qgs_worker.config.settings import Settings
    from qgs_worker.store import Repository

__all__ = ["NOTE_MAX_CHARS", "RULE_MAX_CHARS", "SpotChecks"]


class SpotChecks:
    """The spot-check operations (a part of ``Operations``)."""

    settings: Settings
    repo: Repository

    _own_submission: Callable[[Principal, str], str]
    """``Operations``' own check that the principal may see it (this part only calls it)."""

    # -- the queue ------------------------------------------------------------------------

    def request_spot_check(
        self, principal: Principal, submission_id: str, *, note: str = ""
    ) -> tuple[dict[str, Any], bool]:
        """Queue a decided round of the principal's for a spot-check (every round asked for is).

        Returns:
            ``(item, created)``: created False when its decision was queued already.

        Raises:
            PermissionDeniedError: no ``spot-check`` scope.
            SubmissionNotFoundError: not a submission of this principal.
            TaskNotFoundError: its round is not decided yet.
            InputError: ``note`` too long.
        """
        needs_scope(principal, "ask for a spot-check")
        self._own_submission(principal, submission_id)
        check_note(note)
        item, created = self.repo.ask_spot_check(submission_id, by=principal.name, note=note)
        return item.to_dict(), created

    def spot_checks(
        self,
        principal: Principal,
        *,
        status: str = "open",
        task_type: str | None = None,
        decision: str | None = None,
        limit: int = 100,
    ) -> list[dict[str, Any]]:
        """The principal's spot-check queue, oldest first (``open``: not labelled, standing).

        An empty ``task_type`` or ``decision`` is no filter, as None is.

        Raises:
            InputError: a status, task type or decision kind that is not one.
        """
        task_type, decision = task_type or None, decision or None
        one_of("status", status, STATUSES)
        if task_type is not None:
            one_of("task_type", task_type, [t.value for t in TaskType])
        if decision is not None:
            one_of("decision", decision, [k.value for k in DecisionKind])
        items = self.repo.spot_checks(
            owners_of(principal), status=status, task_type=task_type, decision=decision, limit=limit
        )
        return [i.to_dict() for i in items]

    def spot_check(self, principal: Principal, submission_id: str) -> dict[str, Any]:
        """One round to check: its queue items (with labels) and the round as the report has it.

        Returns:
            ``{"submission_id", "task_id", "request", "task_type", "round", "findings",
            "items"}``: ``round`` the report's detailed round (deliverable, review, decision),
            ``findings`` the report's findings of that round.

        Raises:
            SubmissionNotFoundError: not a submission of this principal.
        """
        from qgs_worker.reports.report import build_report

        task_id = self._own_submission(principal, submission_id)
        items = self.repo.spot_checks(None, status="all", submission_id=submission_id)
        report = build_report(self.repo, [task_id], details=True)
        task = report["tasks"][0] if report["tasks"] else {}
        decided = self.repo.decided_round_of(submission_id)
        number = decided.number if decided is not None else None
        if number is None and items:
            number = items[0].round_number
        found = next((r for r in task.get("rounds", []) if r.get("number") == number), None)
        findings = [f for f in task.get("findings", []) if f.get("round") == number]
        return {
            "submission_id": submission_id,
            "task_id": task_id,
            "request": task.get("request"),
            "task_type": task.get("task_type"),
            "round": found,
            "findings": findings,
            "items": [i.to_dict() for i in items],
        }

    def label_spot_check(
        self,
        principal: Principal,
        submission_id: str,
        *,
        decision_correct: bool,
        verdict: str,
        severities: Mapping[str, str] | None = None,
        note: str = "",
    ) -> dict[str, Any]:
        """Record the principal's label of a queued round: right or not, verdict, severities.

        Args:
            principal: The person (needs the ``spot-check`` scope).
            submission_id: The round.
            decision_correct: Whether the gate's decision was right.
            verdict: The verdict the person would give (``PASS``, ``PASS_WITH_SUGGESTIONS``,
                ``FAIL``).
            severities: The person's severity per rule id (``P0``-``P4``, or ``none``: it should
                not have fired); a rule that fired and is not named keeps the gate's severity.
            note: Why (at most ``NOTE_MAX_CHARS``).

        Returns:
            The queue item with every label.

        Raises:
            PermissionDeniedError: no ``spot-check`` scope.
            SubmissionNotFoundError: not a submission of this principal.
            NotSampledError, LabelExistsError, RoundRedecidedError: see ``store.spotchecks``.
            InputError: a verdict or severity that is not one, a rule id QGS does not have
                (``check_name``) or too long, a long note.
        """
        needs_scope(principal, "label a spot-check")
        self._own_submission(principal, submission_id)
        one_of("verdict", verdict, [v.value for v in Verdict])
        given = dict(severities or {})
        fired = self.repo.round_rule_keys(submission_id) if given else set()
        for rule, severity in given.items():
            if not rule or len(rule) > RULE_MAX_CHARS:
                raise InputError(
                    f"'severities' keys are rule ids of 1-{RULE_MAX_CHARS} characters (got "
                    f"{rule[:40]!r}): name the finding's rule as the round shows it"
                )
            self.check_name("rule", rule, field=f"severities.{rule}", also=fired)
            one_of(f"severities.{rule}", severity, SEVERITIES)
        check_note(note)
        item = self.repo.add_label(
            submission_id,
            person=principal.name,
            key_id=principal.key_id,
            by_person=principal.operator,
            decision_correct=decision_correct,
            verdict=verdict,
            severities=given,
            note=note,
        )
        self._settle_shadow()
        return item.to_dict()

    # -- agreement and shadow -------------------------------------------------------------

    def agreement(self, principal: Principal, *, scope: str | None = None) -> dict[str, Any]:
        """Agreement with people over the principal's labelled rounds, and the shadow states.

        Args:
            principal: Whose tasks' labels count: an agent's key, every label of its own tasks
                (its own labels included); an operator's key, people's labels of the tasks of
                the principals it sees.
            scope: Only ``gate``, ``judge``, ``task_type`` or ``rule`` figures (None or empty:
                all).

        Returns:
            ``{"labels", "figures": [Figure.to_dict()...], "shadow": [...]}``: ``shadow`` as
            ``shadow_states`` gives it to the principal.

        Raises:
            InputError: ``scope`` is not one.
        """
        scope = scope or None
        if scope is not None:
            one_of("scope", scope, ("gate", "judge", "task_type", "rule"))
        records = self.repo.label_records(owners_of(principal), people_only=principal.operator)
        figures = [
            f.to_dict() for f in agreement_figures(records) if scope is None or f.scope == scope
        ]
        return {
            "labels": len(records),
            "figures": figures,
            "shadow": self.shadow_states(principal),
        }

    def shadow_states(self, principal: Principal) -> list[dict[str, Any]]:
        """Every judge and rule the settings or a person put in shadow, and where it stands.

        Returns:
            ``[ShadowState.to_dict()...]``: ``kind``, ``name``, ``in_shadow``, ``p0``,
            ``changed_by`` for every key; ``labels``, ``kappa`` and the figures in ``why``
            only for a principal that sees every task (an operator's ``--sees all``): they
            stand on people's labels of every principal's rounds. For any other key
            ``labels`` and ``kappa`` are None and ``why`` says where the state stands without
            figures (``figures_shown`` False).
        """
        policy = self.settings.spotcheck.shadow_policy()
        states = self._shadow_states()[1]
        if principal.sees_all:
            return [{**s.to_dict(), "figures_shown": True} for s in states]
        return [without_figures(s, policy) for s in states]

    def set_shadow(
        self, principal: Principal, kind: str, name: str, *, in_shadow: bool, note: str = ""
    ) -> dict[str, Any]:
        """A person's decision: put a judge or rule in shadow, or take it out.

        The only way for a rule that can raise P0; stored with the person, it holds until the
        next one. Workers see it within ``QGS_SPOTCHECK__SHADOW_REFRESH_S``.

        A shadow state changes every principal's gate, so only a person who sees every task may
        change it (an operator key with ``--sees all``, or ``qgs shadow`` on the server): an
        agent's key, which sees its own tasks, could otherwise switch off a P0 rule for all.

        Raises:
            PermissionDeniedError: no ``spot-check`` scope, or a key that does not see every task.
            InputError: ``kind`` is not ``judge`` or ``rule``, ``name`` is empty, too long or
                not a judge or rule QGS has (``check_name``), ``note`` is empty (a person says
                why) or too long.
        """
        needs_scope(principal, "move a judge or rule in or out of shadow")
        if not principal.sees_all:
            who = "an agent's key" if not principal.operator else "an operator key that sees some"
            raise PermissionDeniedError(
                f"key {principal.key_id} of {principal.name!r} ({who}) may not move a judge or "
                "rule in or out of shadow: that changes every principal's gate, so a person who "
                "sees every task decides it: an operator key with the spot-check scope and "
                "--sees all (`qgs keys create --operator NAME --scope spot-check --sees all`), "
                "or `qgs shadow KIND NAME --on|--off --note WHY --by PERSON` on the server"
            )
        one_of("kind", kind, ("judge", "rule"))
        if is_blank(name) or len(name) > RULE_MAX_CHARS or bad_control(name) is not None:
            raise InputError(
                f"'name' must be a {kind} {'name' if kind == 'judge' else 'id'} of 1-"
                f"{RULE_MAX_CHARS} characters (got {name[:40]!r})"
            )
        self.check_name(kind, name)
        if is_blank(note):
            raise InputError("'note' is required: say why the state changes (kept with it)")
        check_note(note)
        self.repo.add_shadow_change(
            ShadowChange(kind=kind, name=name, in_shadow=in_shadow, by=principal.name, reason=note)
        )
        states = {(s.kind, s.name): s for s in self._shadow_states()[1]}
        return {**states[kind, name].to_dict(), "figures_shown": True}

    # -- names --------------------------------------------------------------------------

    def check_name(
        self, kind: str, name: str, *, field: str = "name", also: Iterable[str] = ()
    ) -> None:
        """Refuse a judge or rule name QGS does not have: the one check of every face.

        A label's ``severities`` keys and a shadow decision (``POST /v1/shadow``, the MCP
        tools, ``qgs shadow``) pass here, so a typo is refused instead of stored as a phantom.

        Args:
            kind: ``rule`` or ``judge``.
            name: The name given.
            field: The request field it came in (``name``, ``severities.sql_drop``).
            also: More names to accept (a round's own finding keys, for a label).

        Raises:
            InputError: not a name QGS has; the message names ``field``, the value and the
                close names (HTTP 422, an MCP tool error, ``qgs`` exit 2).
        """
        check_name(field, name, self.known_names(kind) | set(also), kind)

    def known_names(self, kind: str) -> set[str]:
        """The names a ``kind`` (``rule`` or ``judge``) may have here.

        Rules: every rule id a finding of QGS can carry (``core.spot_names.rule_names``).
        Judges: the configured judge's names and those of the judges whose reviews are stored.
        """
        if kind == "rule":
            return set(rule_names())
        judge = self.settings.judge
        return set(judge_names(judge.kind, judge.model, judge.panel_models)) | (
            self.repo.review_judges()
        )

    def agreement_snapshot(self) -> tuple[list[Figure], list[ShadowState], tuple[int, int]]:
        """What ``/metrics`` shows: the deployment's own gauges, over people's labels.

        Returns:
            Every figure, the shadow states, and the queue's ``(open, labelled)`` counts.
        """
        figures, states = self._shadow_states()
        return figures, states, self.repo.spot_check_counts()

    def _shadow_states(self) -> tuple[list[Figure], list[ShadowState]]:
        figures = agreement_figures(self.repo.label_records(None, people_only=True))
        policy = self.settings.spotcheck.shadow_policy()
        return figures, shadow_states(policy, self.repo.shadow_changes(), figures)

    def _settle_shadow(self) -> None:
        """Store the automatic leaves the new figures allow (subjects whose agreement passed).

        Over people's labels only: an agent's key labelling its own rounds never moves a
        shadow state that holds for every principal.
        """
        policy = self.settings.spotcheck.shadow_policy()
        if not (policy.judges or policy.rules):
            return
        figures = agreement_figures(self.repo.label_records(None, people_only=True))
        for change in automatic_changes(policy, self.repo.shadow_changes(), figures):
            self.repo.add_shadow_change(change)
