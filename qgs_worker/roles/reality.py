"""The Reality Checker: claims not grounded in fact (DESIGN.md, "Discriminator"; issue 4).

Two passes:

1. Deterministic, over every round of the task up to the audited one. The Python code of each
   round (:func:`~qgs_worker.core.references.python_snippets`) is read with ``ast`` and its
   imports and attribute chains are checked against a real Python environment in a separate,
   isolated interpreter (:func:`~qgs_worker.roles.reality_env.check_references`); the packages of
   its ``pip install`` commands are looked up there too. The code itself is never executed or
   imported. All rounds go to ONE checking process, each distinct reference once. Every round is
   checked because a COMPLEX or REFLECT task is audited only every 10th round and on its final
   round (``core.cadence``): code written in the rounds between would otherwise never be checked.
   A finding about an earlier round carries its ``round_number``; the audited round's have
   none (their location alone says where).
2. An LLM pass, when a judge is online, over the audited round only: one brief to a fresh judge
   session, hunting for invented APIs, packages, citations and numbers without a source. Only
   the audited round, for cost: a brief with every round would grow with the task (tokens and
   judge time on every audit), while the deterministic pass costs one process whatever the
   number of rounds. If the LLM pass fails, the deterministic findings are kept and a
   ``role_failed`` finding reports the failure.

Findings (role ``reality_checker``):

============================  ====  ===========================================================
category                      sev.  when
============================  ====  ===========================================================
``hallucinated_api``          P1    an installed module has no such attribute or submodule
                                    (``json.loads_fast``): code that calls it fails
``unknown_module``            P2    an imported module is not installed in the checking
                                    environment: it may not exist, or it may simply not be
                                    installed there, hence not P1
``code_does_not_parse``       P2    a Python snippet is not valid Python (as the worker's
                                    Python reads it); a finding, not an error: the other
                                    snippets are still checked
``stdlib_package``            P2    ``pip install json``: the name is a standard-library module;
                                    the command fails, or installs an obsolete backport or an
                                    unrelated (possibly typosquatted) package
``unverified_package``        P3    ``pip install X`` of a package not installed in the checking
                                    environment. QGS does not query a package index from the
                                    worker (no network on the hot path, no registry to trust),
                                    so all it can say is "not known here": worth a look, no more
``references_not_checked``    P4    more references than one check takes (``MAX_REFERENCES``;
                                    the audited round's come first, then the earlier rounds',
                                    newest first, so the cap leaves out the oldest)
``role_failed``               P1/P2 the LLM pass failed (:func:`~qgs_worker.core.discriminator.
                                    role_failed`: P1 on a CRITICAL task)
============================  ====  ===========================================================

Not reported, on purpose (a false "this does not exist" costs a revision): imports guarded by
``try: ... except ImportError``; modules the round provides itself (it writes or names
``utils.py``) or that stand for the reader's project (``your_module``, ``myapp``, ``app``,
``config``, ``utils``...); a missing module whose package the round ``pip install``-s; stdlib
names that exist on another platform or Python version (``os.startfile``); anything the checker
could not import. Across rounds, a module or package any round provides counts for all of them,
and a snippet repeated unchanged in a later round (a file rewritten as it was) is checked once,
in its latest round.

The role audits every task type: a QUERY answer ("how do I ... in pandas?") is where an invented
API is most often handed to a person, and the check costs nothing when there is no code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from qgs_worker.core.discriminator import ALL_TASK_TYPES, AuditContext, role_failed
from qgs_worker.core.models import AuditBrief, Deliverable, Finding, Severity, TaskType
from qgs_worker.core.ports import AuditSession
from qgs_worker.core.references import (
    ModuleRef,
    Snippet,
    local_modules,
    normalize_package,
    pip_packages,
    python_snippets,
    references,
)
from qgs_worker.roles.reality_env import (
    MAX_PACKAGES,
    MAX_REFERENCES,
    EnvReport,
    ModuleCheck,
    PackageCheck,
    check_references,
)

ROLE = "reality_checker"
_EVIDENCE_CHARS = 200

INSTRUCTIONS = (
    "You are the Reality Checker. Find claims in the material that are not grounded in fact:\n"
    "- functions, methods, classes, modules, parameters, command-line flags or settings that do "
    "not exist in the library, tool or service named (invented APIs);\n"
    "- packages that do not exist, or whose name looks like a typo or a typosquat of a real one;\n"
    "- citations, papers, standards, URLs, quotations or people that look invented;\n"
    "- numbers, dates, versions, benchmarks and statistics given as fact without a source, or "
    "contradicting the material;\n"
    "- claims that something was done, run or tested with no tool call showing it.\n"
    "Report only these; not style, security, completeness or taste. For each finding quote what "
    "was claimed and say why it is not grounded. P1: the deliverable depends on it (code that "
    "will fail, a fabricated source presented as fact); P2: an unsupported claim that matters; "
    "P3: a minor one. If every claim is grounded, report nothing."
)
"""What the LLM pass hunts for (the brief's ``instructions``)."""

# Import names whose distribution is named differently (``pip install pillow`` gives ``PIL``).
_PROVIDED_BY: dict[str, frozenset[str]] = {
    "attr": frozenset({"attrs"}),
    "bs4": frozenset({"beautifulsoup4"}),
    "crypto": frozenset({"pycryptodome", "pycrypto"}),
    "cv2": frozenset(
        {"opencv-python", "opencv-python-headless", "opencv-contrib-python", "opencv"}
    ),
    "dateutil": frozenset({"python-dateutil"}),
    "docx": frozenset({"python-docx"}),
    "dotenv": frozenset({"python-dotenv"}),
    "fitz": frozenset({"pymupdf"}),
    "git": frozenset({"gitpython"}),
    "jwt": frozenset({"pyjwt"}),
    "magic": frozenset({"python-magic"}),
    "mysqldb": frozenset({"mysqlclient"}),
    "openssl": frozenset({"pyopenssl"}),
    "pil": frozenset({"pillow"}),
    "pptx": frozenset({"python-pptx"}),
    "psycopg2": frozenset({"psycopg2-binary"}),
    "serial": frozenset({"pyserial"}),
    "skimage": frozenset({"scikit-image"}),
    "sklearn": frozenset({"scikit-learn"}),
    "telegram": frozenset({"python-telegram-bot"}),
    "usb": frozenset({"pyusb"}),
    "win32api": frozenset({"pywin32"}),
    "yaml": frozenset({"pyyaml"}),
    "zmq": frozenset({"pyzmq"}),
}


# Top-level names that, in a snippet, stand for the reader's own project, not a PyPI package.
_PROJECT_NAME = re.compile(
    r"^(?:(?:your|my)_?\w*|app|apps|src|project|main|config|settings|utils|helpers|models"
    r"|views|api|core|lib|tests?|example|examples)$"
)


class RealityChecker:
    """The ``reality_checker`` audit role: invented modules, APIs and packages, then an LLM pass.

    Args:
        python: The interpreter of the checking environment (e.g. the agent's project venv);
            the worker's own by default. Its installed packages are what "exists" means.
        memory_mb: Address-space limit of the checking process, in MiB.
        llm_pass: Ask the judge as well, when a session is given.
    """

    name = ROLE
    task_types: frozenset[TaskType] = ALL_TASK_TYPES
    bounded_offline = True  # offline: ast and one subprocess given the remaining time

    def __init__(
        self, python: str | None = None, memory_mb: int = 512, llm_pass: bool = True
    ) -> None:
        self.python = python
        self.memory_mb = memory_mb
        self.llm_pass = llm_pass

    def audit(self, context: AuditContext, session: AuditSession | None) -> list[Finding]:
        """Check every round's Python references and packages, then ask the judge about the current.

        The LLM pass sees only ``context.current`` (cost: see the module docstring). Its failure
        does not lose the deterministic findings: it becomes a ``role_failed`` finding appended
        to them (P1 on a CRITICAL task, so the round is still held).

        Args:
            context: The task; every round of ``context.rounds`` is checked, in one subprocess.
                The subprocess and the judge call each get ``context.remaining_s()``.
            session: A fresh judge session, or None (offline judge): then only the
                deterministic pass runs.

        Returns:
            The deterministic findings (see the module docstring), then the judge's, or a
            ``role_failed`` finding when the judge call raised.

        Raises:
            ReferenceCheckError: The checking interpreter crashed or timed out
                (``ReferenceCheckTimeoutError``); ``run_roles`` makes it a ``role_failed``.
        """
        findings = self.check_rounds(context.rounds, timeout_s=context.remaining_s())
        if session is not None and self.llm_pass:
            brief = AuditBrief(
                role=ROLE,
                instructions=INSTRUCTIONS,
                request=context.request,
                material=context.current.render(),
                max_severity=Severity.P1,
            )
            try:
                judged = session.audit(brief, timeout_s=context.remaining_s())
            except Exception as exc:  # JudgeError or anything else: keep what was found
                reason = f"its LLM pass failed: {type(exc).__name__}: {exc}"
                findings.append(role_failed(self.name, reason, context.task_type))
            else:
                findings.extend(judged)
        return findings

    def check(self, deliverable: Deliverable, *, timeout_s: float) -> list[Finding]:
        """The deterministic pass alone, on one round (its findings carry no ``round_number``).

        Args:
            deliverable: The round to check.
            timeout_s: Wall-time limit of the checking subprocess, in seconds.

        Returns:
            Findings, one per distinct defect (the first place it appears).

        Raises:
            ReferenceCheckError: The checker crashed, or timed out (``ReferenceCheckTimeoutError``).
        """
        return self.check_rounds((deliverable,), timeout_s=timeout_s)

    def check_rounds(self, rounds: Sequence[Deliverable], *, timeout_s: float) -> list[Finding]:
        """The deterministic pass over a task's rounds, the last one being the audited round.

        One checking subprocess for all rounds; a reference (``(module, attributes)``) or package
        found in several rounds is checked once and reported at its latest round. Of an earlier
        round only the code its tool calls ran or wrote counts: its text was a draft that later
        rounds replace (a revised article's code block), but what its tool calls did stays done. References are
        sent the audited round's first, then the earlier rounds', newest first: the reference
        cap (``MAX_REFERENCES``) leaves out the oldest, never the audited round's.

        Args:
            rounds: The rounds, oldest first (round N is ``rounds[N - 1]``).
            timeout_s: Wall-time limit of the checking subprocess, in seconds.

        Returns:
            Findings, one per distinct defect, oldest round first; a finding about an earlier
            round N has ``round_number`` N.

        Raises:
            ReferenceCheckError: The checker crashed, or timed out (``ReferenceCheckTimeoutError``).
        """
        current = len(rounds)
        found: list[tuple[int, Finding]] = []
        refs: dict[tuple[tuple[str, tuple[str, ...]], bool], tuple[ModuleRef, int, Snippet]] = {}
        packages: dict[str, tuple[int, str, str]] = {}
        installed: set[str] = set()
        local: set[str] = set()
        checked_sources: set[str] = set()
        for number in range(current, 0, -1):  # the audited round first, then newest first
            deliverable = rounds[number - 1]
            sources: set[str] = set()
            for snippet in python_snippets(deliverable):
                if number < current and not snippet.location.startswith("tool_call"):
                    continue  # an earlier round's text was superseded; its tool calls ran
                if snippet.source in checked_sources:
                    continue  # the same code in a later round: checked (and reported) there
                sources.add(snippet.source)
                read = references(snippet.source)
                if read.syntax_error is not None:
                    message, line = read.syntax_error
                    found.append((number, _syntax_finding(snippet, message, line)))
                for ref in read.refs:
                    refs.setdefault((ref.key, ref.optional), (ref, number, snippet))
            checked_sources |= sources
            for name, (location, evidence) in _packages(deliverable).items():
                if number < current and not location.startswith("tool_call"):
                    continue
                if normalize_package(name) not in installed:
                    installed.add(normalize_package(name))
                    packages[name] = (number, location, evidence)
            local |= local_modules(deliverable)
        report = check_references(
            [ref for ref, _, _ in refs.values()],
            list(packages),
            python=self.python,
            timeout_s=timeout_s,
            memory_mb=self.memory_mb,
        )
        where = {ref: (number, snippet) for ref, number, snippet in refs.values()}
        provided = frozenset(local)
        for check in report.modules:
            number, snippet = where[check.ref]
            finding = _module_finding(check, snippet, report, provided, installed)
            if finding is not None:
                found.append((number, finding))
        for package in report.packages:
            number, location, evidence = packages[package.name]
            finding = _package_finding(package, (location, evidence))
            if finding is not None:
                found.append((number, finding))
        if report.unchecked:
            found.append(
                (
                    current,
                    Finding(
                        role=ROLE,
                        category="references_not_checked",
                        severity=Severity.P4,
                        title=(
                            f"{report.unchecked} references or packages were not checked (one "
                            f"check takes {MAX_REFERENCES} references and {MAX_PACKAGES} "
                            "packages)"
                        ),
                        location="text",
                    ),
                )
            )
        kept = _distinct(found)
        kept.sort(key=lambda item: item[0])  # stable: oldest round first, in found order
        return [_in_round(finding, number, current) for number, finding in kept]


def _packages(deliverable: Deliverable) -> dict[str, tuple[str, str]]:
    """Package name -> (location, evidence line) of the first ``pip install`` naming it."""
    sources = [("text", deliverable.text)]
    for call in deliverable.tool_calls:
        sources.extend(
            (f"tool_call:{call.name}.{path}", value) for path, value in call.argument_values()
        )
    found: dict[str, tuple[str, str]] = {}
    seen: set[str] = set()
    for location, text in sources:
        for name in pip_packages(text):
            if normalize_package(name) not in seen:
                seen.add(normalize_package(name))
                found[name] = (location, _line_with(text, name))
    return found


def _module_finding(
    check: ModuleCheck,
    snippet: Snippet,
    report: EnvReport,
    local: frozenset[str],
    pip_installed: set[str],
) -> Finding | None:
    ref = check.ref
    location = f"{snippet.location}, line {ref.line}" if ref.line else snippet.location
    evidence = _clip(ref.code)
    if ref.optional or check.status in ("found", "unverifiable"):
        return None
    if check.status == "missing_attribute":
        what = "submodule" if check.submodule else "attribute"
        return Finding(
            role=ROLE,
            category="hallucinated_api",
            severity=Severity.P1,
            title=f"{check.owner} has no {what} '{check.attribute}' ({_against(check, report)})",
            evidence=evidence,
            location=location,
        )
    top = check.name.split(".", 1)[0]
    if top in local or _PROJECT_NAME.match(top) or _provided(top, pip_installed):
        return None
    return Finding(
        role=ROLE,
        category="unknown_module",
        severity=Severity.P2,
        title=(
            f"module '{check.name}' is not installed in the checking environment "
            f"(Python {report.python}); it may not exist"
        ),
        evidence=evidence,
        location=location,
    )


def _package_finding(check: PackageCheck, where: tuple[str, str]) -> Finding | None:
    location, evidence = where
    if check.status == "stdlib":
        return Finding(
            role=ROLE,
            category="stdlib_package",
            severity=Severity.P2,
            title=(
                f"'{check.name}' is part of the Python standard library: installing it with pip "
                "fails, or installs an obsolete backport or an unrelated package"
            ),
            evidence=_clip(evidence),
            location=location,
        )
    if check.status == "not_installed":
        return Finding(
            role=ROLE,
            category="unverified_package",
            severity=Severity.P3,
            title=(
                f"package '{check.name}' is not installed in the checking environment and was "
                "not looked up in a package index: check that it exists and is the one meant"
            ),
            evidence=_clip(evidence),
            location=location,
        )
    return None


def _syntax_finding(snippet: Snippet, message: str, line: int) -> Finding:
    lines = snippet.source.splitlines()
    code = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return Finding(
        role=ROLE,
        category="code_does_not_parse",
        severity=Severity.P2,
        title=f"Python code does not parse: {message}" + (f" (line {line})" if line else ""),
        evidence=_clip(code),
        location=f"{snippet.location}, line {line}" if line else snippet.location,
    )


def _against(check: ModuleCheck, report: EnvReport) -> str:
    top = check.ref.top_level
    if check.version:
        return f"{top} {check.version}, Python {report.python}"
    return f"Python {report.python} on {report.platform}"


def _provided(top: str, pip_installed: set[str]) -> bool:
    """Whether a package the round installs provides the import name ``top``."""
    name = normalize_package(top)
    candidates = {name, f"python-{name}", f"py{name}", *_PROVIDED_BY.get(top.lower(), ())}
    return bool(candidates & pip_installed) or any(
        p.removeprefix("python-").removeprefix("py") == name for p in pip_installed
    )


def _line_with(text: str, needle: str) -> str:
    for line in text.splitlines():
        if needle in line and ("install" in line or " add " in line):
            return line.strip()
    return needle


def _clip(text: str) -> str:
    return text if len(text) <= _EVIDENCE_CHARS else text[: _EVIDENCE_CHARS - 3] + "..."


def _in_round(finding: Finding, number: int, current: int) -> Finding:
    """``finding`` with ``round_number`` N when it is about an earlier round N."""
    if number == current:
        return finding
    return finding.model_copy(update={"round_number": number})


def _distinct(findings: list[tuple[int, Finding]]) -> list[tuple[int, Finding]]:
    """One finding per (category, title): one invented API is one defect, wherever it recurs.

    The first is kept (the latest round's: rounds are read newest first). Parse errors are kept
    per round and place: two broken snippets are two defects.
    """
    seen: set[tuple[str, str, str]] = set()
    kept: list[tuple[int, Finding]] = []
    for number, finding in findings:
        place = f"{number}:{finding.location}" if finding.category == "code_does_not_parse" else ""
        key = (finding.category, finding.title, place)
        if key not in seen:
            seen.add(key)
            kept.append((number, finding))
    return kept
