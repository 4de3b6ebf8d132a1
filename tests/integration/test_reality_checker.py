"""The Reality Checker against a real interpreter: this venv's (issue 4).

Every check here starts a real child interpreter; nothing is mocked but the judge session.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from qgs_worker.core.discriminator import ROLE_FAILED, AuditContext, run_roles
from qgs_worker.core.models import (
    AuditBrief,
    Complexity,
    Deliverable,
    Finding,
    Severity,
    TaskType,
    ToolCall,
)
from qgs_worker.core.ports import AuditSession
from qgs_worker.core.references import ModuleRef
from qgs_worker.errors import JudgeResponseError, JudgeUnavailableError
from qgs_worker.roles.reality import ROLE, RealityChecker
from qgs_worker.roles.reality_env import (
    MAX_REFERENCES,
    ReferenceCheckError,
    ReferenceCheckTimeoutError,
    check_references,
)

pytestmark = pytest.mark.integration

OFFLINE = RealityChecker(llm_pass=False)


def findings_for(
    text: str = "", *calls: ToolCall, checker: RealityChecker = OFFLINE
) -> list[Finding]:
    return checker.check(Deliverable(text=text, tool_calls=calls), timeout_s=30.0)


def python_block(code: str) -> str:
    return f"Here is the code:\n\n```python\n{code}\n```\n"


def summary(findings: list[Finding]) -> list[tuple[str, Severity]]:
    return [(f.category, f.severity) for f in findings]


def executable(path: Path, text: str) -> str:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


class TestHallucinatedApis:
    """Attributes and submodules missing from installed modules are P1."""

    def test_missing_function_on_a_stdlib_module(self) -> None:
        (finding,) = findings_for(python_block("import json\n\ndata = json.loads_fast(raw)"))
        assert ("hallucinated_api", Severity.P1) == (finding.category, finding.severity)
        assert finding.title.startswith("json has no attribute 'loads_fast'")
        assert "data = json.loads_fast(raw)" == finding.evidence
        assert "text:block 1, line 3" == finding.location
        assert ROLE == finding.role

    def test_missing_name_from_an_installed_package_names_its_version(self) -> None:
        import pydantic

        (finding,) = findings_for(python_block("from pydantic import BaseModel, FastModel"))
        assert "hallucinated_api" == finding.category
        assert f"pydantic {pydantic.VERSION}" in finding.title

    def test_missing_submodule(self) -> None:
        (finding,) = findings_for(python_block("import os.fastpath"))
        assert "os has no submodule 'fastpath'" in finding.title

    def test_chain_through_a_submodule(self) -> None:
        assert [] == findings_for(python_block("import xml\nxml.etree.ElementTree.fromstring(s)"))
        (finding,) = findings_for(python_block("import xml\nxml.etree.ElementTree.fromjson(s)"))
        assert finding.title.startswith("xml.etree.ElementTree has no attribute 'fromjson'")

    def test_alias_is_resolved(self) -> None:
        (finding,) = findings_for(python_block("import os.path as p\np.joinall('a')"))
        assert finding.title.startswith("os.path has no attribute 'joinall'")

    def test_one_finding_per_invented_name(self) -> None:
        code = "import json\njson.loads_fast(a)\n\ndef f():\n    json.loads_fast(b)"
        call = ToolCall(name="write_file", arguments={"path": "a.py", "content": code})
        assert 1 == len(findings_for(python_block(code), call))


class TestNothingToReport:
    """Real names, platform- and version-specific names, and guarded imports are quiet."""

    @pytest.mark.parametrize(
        "code",
        [
            "import os\nos.path.join('a', 'b')",
            "from pydantic import BaseModel\nclass M(BaseModel):\n    x: int",
            "import pydantic\npydantic.BaseModel.model_validate",
            "import os\nos.startfile('x')",  # Windows only
            "import json\ndef json(): ...\njson.loads_fast()",  # shadowed
            "try:\n    import numpyy\nexcept ImportError:\n    numpyy = None",
            "from collections import abc\nabc.Mapping",  # a submodule, imported by name
            "import antigravity",  # never imported by the checker
        ],
    )
    def test_quiet(self, code: str) -> None:
        assert [] == findings_for(python_block(code))

    def test_no_code_starts_no_process(self) -> None:
        assert [] == findings_for("Paris is the capital of France.")


class TestUnknownModules:
    """Modules not installed in the checking environment are P2, unless the round explains them."""

    def test_unknown_module(self) -> None:
        (finding,) = findings_for(python_block("import numpyy\nnumpyy.array([1])"))
        assert ("unknown_module", Severity.P2) == (finding.category, finding.severity)
        assert "module 'numpyy' is not installed in the checking environment" in finding.title
        assert "it may not exist" in finding.title

    def test_the_rounds_own_module(self) -> None:
        call = ToolCall(name="write_file", arguments={"path": "qgs_helpers_x.py", "content": "X=1"})
        assert [] == findings_for(python_block("from qgs_helpers_x import X"), call)

    @pytest.mark.parametrize(
        "code", ["from your_module import thing", "from app.models import User", "import myproj"]
    )
    def test_the_readers_own_project(self, code: str) -> None:
        assert [] == findings_for(python_block(code))

    @pytest.mark.parametrize(
        ("package", "module"),
        [("qgs-fake-lib", "qgs_fake_lib"), ("python-qgsfake", "qgsfake"), ("pyqgsfake", "qgsfake")],
    )
    def test_module_of_a_package_the_round_installs(self, package: str, module: str) -> None:
        text = f"```bash\npip install {package}\n```\n" + python_block(f"import {module}")
        assert [("unverified_package", Severity.P3)] == summary(findings_for(text))


class TestPackages:
    """pip install of packages: installed, unknown here, or a standard-library name."""

    def test_installed_package_is_quiet(self) -> None:
        call = ToolCall(
            name="bash", arguments={"command": "pip install -U 'pydantic>=2' Pydantic_Settings"}
        )
        assert [] == findings_for("", call)

    def test_unknown_package_is_p3(self) -> None:
        call = ToolCall(
            name="bash", arguments={"command": "pip install qgs-no-such-package-x==1.0"}
        )
        (finding,) = findings_for("", call)
        assert ("unverified_package", Severity.P3) == (finding.category, finding.severity)
        assert "'qgs-no-such-package-x'" in finding.title
        assert "not looked up in a package index" in finding.title
        assert "tool_call:bash.command" == finding.location
        assert "pip install qgs-no-such-package-x==1.0" == finding.evidence

    def test_stdlib_name_is_p2(self) -> None:
        (finding,) = findings_for("Install it first: `pip install json`.")
        assert ("stdlib_package", Severity.P2) == (finding.category, finding.severity)


class TestSyntaxErrors:
    """A snippet that does not parse is a finding; the other snippets are still checked."""

    def test_bad_snippet_does_not_stop_the_others(self) -> None:
        text = python_block("def f(:\n    pass") + python_block("import json\njson.loads_fast(x)")
        found = findings_for(text)
        assert [
            ("code_does_not_parse", Severity.P2),
            ("hallucinated_api", Severity.P1),
        ] == summary(found)
        assert "text:block 1, line 1" == found[0].location
        assert "def f(:" == found[0].evidence


class TestIsolation:
    """The deliverable's code is never run, and the checker never imports from the worker's folder."""

    def test_untrusted_code_and_modules_are_never_executed(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        marker = tmp_path / "marker"
        module_marker = tmp_path / "module-marker"
        # A module that would run on import, placed in the worker's folder and on PYTHONPATH.
        (tmp_path / "qgs_evil_mod.py").write_text(
            f"open({str(module_marker)!r}, 'w').write('imported')\nrun = print\n"
        )
        monkeypatch.chdir(tmp_path)
        monkeypatch.setenv("PYTHONPATH", str(tmp_path))
        code = f"import qgs_evil_mod\nqgs_evil_mod.run()\nopen({str(marker)!r}, 'w').write('ran')"
        calls = (
            ToolCall(name="bash", arguments={"command": f"python3 - <<'EOF'\n{code}\nEOF"}),
            ToolCall(name="execute_python", arguments={"code": code}),
        )
        found = findings_for(python_block(code), *calls)
        assert [("unknown_module", Severity.P2)] == summary(found)
        assert not marker.exists()
        assert not module_marker.exists()

    def test_names_only_cross_the_process_boundary(self, tmp_path: Path) -> None:
        # A fake interpreter that records its stdin: the request holds names, never code.
        log = tmp_path / "stdin.json"
        answer = {"python": "0", "platform": "x", "modules": [{"status": "found"}] * 2}
        fake = executable(
            tmp_path / "fake-python",
            f"#!/bin/sh\ncat > {log}\necho '{json.dumps({**answer, 'packages': []})}'\n",
        )
        checker = RealityChecker(python=fake, llm_pass=False)
        code = "import os\nos.system('rm -rf /tmp/x')"
        assert [] == findings_for(python_block(code), checker=checker)
        expected = {
            "modules": [
                {"module": "os", "attributes": []},
                {"module": "os", "attributes": ["system"]},
            ],
            "packages": [],
        }
        assert expected == json.loads(log.read_text())


class TestCheckerProcess:
    """Time limit, memory limit, crashes and the reference cap of the checking process."""

    def test_hanging_checker_times_out(self, tmp_path: Path) -> None:
        sleeper = executable(tmp_path / "sleeper", "#!/bin/sh\nsleep 30\n")
        with pytest.raises(ReferenceCheckTimeoutError, match=r"timeout_s=0\.5 s"):
            check_references([ModuleRef("os")], [], python=sleeper, timeout_s=0.5)

    def test_timeout_is_a_reference_check_error_and_a_timeout_error(self) -> None:
        assert issubclass(ReferenceCheckTimeoutError, ReferenceCheckError)
        assert issubclass(ReferenceCheckTimeoutError, TimeoutError)

    def test_crash_carries_the_stderr_tail(self, tmp_path: Path) -> None:
        crasher = executable(
            tmp_path / "crasher", "#!/bin/sh\necho 'boom: broken env' >&2\nexit 3\n"
        )
        with pytest.raises(ReferenceCheckError, match="status 3: boom: broken env"):
            check_references([ModuleRef("os")], [], python=crasher)

    def test_output_that_is_not_json(self, tmp_path: Path) -> None:
        chatty = executable(tmp_path / "chatty", "#!/bin/sh\necho hello\n")
        with pytest.raises(ReferenceCheckError, match="printed no JSON"):
            check_references([ModuleRef("os")], [], python=chatty)

    def test_missing_interpreter(self, tmp_path: Path) -> None:
        with pytest.raises(ReferenceCheckError, match="could not start"):
            check_references([ModuleRef("os")], [], python=str(tmp_path / "nope"))

    @pytest.mark.skipif(os.name != "posix", reason="RLIMIT_AS is POSIX")
    def test_memory_limit_applies(self) -> None:
        with pytest.raises(ReferenceCheckError, match="exited with status"):
            check_references([ModuleRef("pydantic", ("BaseModel",))], [], memory_mb=8)

    def test_printing_modules_cannot_corrupt_the_answer(self) -> None:
        report = check_references([ModuleRef("this", ())], ["pydantic"])
        assert "installed" == report.packages[0].status

    def test_references_are_capped(self) -> None:
        refs = [ModuleRef("os", (f"name_{i}",)) for i in range(MAX_REFERENCES + 50)]
        report = check_references(refs, [], timeout_s=60.0)
        assert (MAX_REFERENCES, 50) == (len(report.modules), report.unchecked)

    def test_report_names_the_interpreter(self) -> None:
        report = check_references([ModuleRef("os")], [], python=sys.executable)
        assert (sys.version.split()[0], sys.platform) == (report.python, report.platform)


# --- the role through the session manager ---------------------------------------------------------
class RecordingSession:
    def __init__(
        self, calls: list[tuple[str, AuditBrief, float]], role: str, error: Exception | None
    ) -> None:
        self.calls = calls
        self.role = role
        self.error = error
        self.closed = False

    @property
    def history(self) -> Sequence[Mapping[str, str]]:
        return ()

    def audit(self, brief: AuditBrief, *, timeout_s: float) -> list[Finding]:
        self.calls.append((self.role, brief, timeout_s))
        if self.error is not None:
            raise self.error
        return [
            Finding(
                role=brief.role,
                category="ungrounded_claim",
                severity=Severity.P2,
                title="cites a paper that does not exist",
            )
        ]

    def close(self) -> None:
        self.closed = True


class RecordingSessions:
    def __init__(self, *, fail: bool = False, error: Exception | None = None) -> None:
        self.calls: list[tuple[str, AuditBrief, float]] = []
        self.opened: list[RecordingSession] = []
        self.error = JudgeUnavailableError("judge down (HTTP 503)") if fail else error

    def open(self, role: str) -> AuditSession:
        session = RecordingSession(self.calls, role, self.error)
        self.opened.append(session)
        return session


def context(text: str, task_type: TaskType = TaskType.GENERATE) -> AuditContext:
    return AuditContext(
        task_type=task_type,
        complexity=Complexity.REFLECT,
        request="Sort a list quickly in Python.",
        rounds=(Deliverable(text="an earlier round: import numpyy"), Deliverable(text=text)),
        timeout_s=30.0,
    )


class TestRole:
    """The role through run_roles: one LLM pass on a fresh session, errors become role_failed."""

    def test_llm_pass_once_with_a_fresh_session(self) -> None:
        sessions = RecordingSessions()
        text = python_block("import json\njson.loads_fast(x)")
        (run,) = run_roles([RealityChecker()], context(text), sessions)
        assert None is run.error
        assert [
            ("hallucinated_api", Severity.P1),
            ("ungrounded_claim", Severity.P2),
        ] == summary(list(run.findings))
        ((role, brief, timeout_s),) = sessions.calls
        assert (ROLE, ROLE) == (role, brief.role)
        assert Severity.P1 == brief.max_severity
        assert "Sort a list quickly in Python." == brief.request
        assert context(text).current.render() == brief.material
        assert "not grounded in fact" in brief.instructions
        assert 0 < timeout_s <= 30.0
        assert [True] == [s.closed for s in sessions.opened]

    def test_prose_of_an_earlier_round_is_not_code(self) -> None:
        (run,) = run_roles([RealityChecker(llm_pass=False)], context("no code"), None)
        assert () == run.findings

    def test_offline_judge_runs_the_deterministic_pass_only(self) -> None:
        text = python_block("import numpyy")
        (run,) = run_roles([RealityChecker()], context(text), None)
        assert [("unknown_module", Severity.P2)] == summary(list(run.findings))

    def test_llm_pass_can_be_turned_off(self) -> None:
        sessions = RecordingSessions()
        run_roles([RealityChecker(llm_pass=False)], context("text"), sessions)
        assert [] == sessions.calls

    def test_failing_session_gives_role_failed(self) -> None:
        sessions = RecordingSessions(fail=True)
        (run,) = run_roles([RealityChecker()], context("text", TaskType.CRITICAL), sessions)
        (finding,) = run.findings
        assert (ROLE_FAILED, Severity.P1) == (finding.category, finding.severity)
        assert (
            "role failed: reality_checker: its LLM pass failed: JudgeUnavailableError: "
            "judge down (HTTP 503)"
        ) == finding.title
        assert None is run.error  # the role itself returned: its findings are kept
        assert [True] == [s.closed for s in sessions.opened]

    @pytest.mark.parametrize(
        ("task_type", "severity"),
        [(TaskType.CRITICAL, Severity.P1), (TaskType.GENERATE, Severity.P2)],
    )
    @pytest.mark.parametrize(
        "error",
        [
            JudgeUnavailableError("judge down (HTTP 503)"),
            JudgeResponseError("the judge answered no JSON"),
            RuntimeError("a bug in the session"),
        ],
    )
    def test_failing_llm_pass_keeps_the_deterministic_findings(
        self, error: Exception, task_type: TaskType, severity: Severity
    ) -> None:
        sessions = RecordingSessions(error=error)
        text = python_block("import json\njson.loads_fast(x)")
        (run,) = run_roles([RealityChecker()], context(text, task_type), sessions)
        assert None is run.error
        api, failed = run.findings
        assert ("hallucinated_api", Severity.P1, ROLE) == (api.category, api.severity, api.role)
        assert (ROLE_FAILED, severity, ROLE) == (failed.category, failed.severity, failed.role)
        assert f"its LLM pass failed: {type(error).__name__}: {error}" in failed.title
        assert 1 == len(sessions.calls)

    def test_hanging_checker_gives_role_failed(self, tmp_path: Path) -> None:
        sleeper = executable(tmp_path / "sleeper", "#!/bin/sh\nsleep 30\n")
        ctx = AuditContext(
            task_type=TaskType.ACTION,
            complexity=Complexity.COMPLEX,
            request="r",
            rounds=(Deliverable(text=python_block("import os")),),
            timeout_s=1.0,
        )
        (run,) = run_roles([RealityChecker(python=sleeper)], ctx, RecordingSessions())
        (finding,) = run.findings
        assert ROLE_FAILED == finding.category
        assert "ReferenceCheckTimeoutError" in finding.title

    def test_audits_every_task_type(self) -> None:
        assert set(TaskType) == RealityChecker().task_types


def rounds_context(*texts: str, calls: Sequence[Sequence[ToolCall]] = ()) -> AuditContext:
    """A task whose rounds have ``texts`` (and ``calls``, per round); the last is audited."""
    per_round = [tuple(c) for c in calls] + [()] * (len(texts) - len(calls))
    return AuditContext(
        task_type=TaskType.GENERATE,
        complexity=Complexity.COMPLEX,
        request="Parse the config file.",
        rounds=tuple(
            Deliverable(text=t, tool_calls=c) for t, c in zip(texts, per_round, strict=True)
        ),
        timeout_s=30.0,
    )


def written(code: str, path: str = "app.py") -> list[ToolCall]:
    """A round's tool call that writes ``code`` to a file (its effect outlives the round)."""
    return [ToolCall(name="write_file", arguments={"path": path, "content": code})]


def recording_python(tmp_path: Path, modules: int, packages: int = 0) -> tuple[str, Path]:
    """A fake interpreter that appends each request to a log (one line each) and finds all."""
    log = tmp_path / "requests.jsonl"
    answer = {
        "python": "0",
        "platform": "x",
        "modules": [{"status": "found"}] * modules,
        "packages": [{"status": "installed"}] * packages,
    }
    script = f"#!/bin/sh\ncat >> {log}\necho >> {log}\necho '{json.dumps(answer)}'\n"
    return executable(tmp_path / "fake-python", script), log


class TestEveryRound:
    """The deterministic pass checks every round (COMPLEX/REFLECT tasks are audited only now and
    then), in one process; the LLM pass sees the audited round only."""

    def test_bad_reference_an_earlier_round_wrote_is_found(self) -> None:
        ctx = rounds_context(
            "writing", "Done.", calls=[written("import json\ndata = json.loads_fast(raw)")]
        )
        (run,) = run_roles([RealityChecker(llm_pass=False)], ctx, None)
        (finding,) = run.findings
        assert ("hallucinated_api", Severity.P1) == (finding.category, finding.severity)
        assert finding.where.startswith("round 1: tool_call:write_file.content")
        assert (1, "tool_call:write_file.content") == (
            finding.round_number,
            finding.location.split(",")[0],
        )
        assert finding.title.startswith("json has no attribute 'loads_fast'")

    def test_an_earlier_rounds_text_is_superseded(self) -> None:
        ctx = rounds_context(python_block("import json\ndata = json.loads_fast(raw)"), "Done.")
        assert [] == RealityChecker(llm_pass=False).audit(ctx, None)

    def test_the_audited_rounds_findings_keep_their_plain_location(self) -> None:
        ctx = rounds_context(
            "writing",
            "",
            python_block("import os\nos.joinall('a')"),
            calls=[written("import json\njson.loads_fast(a)")],
        )
        found = RealityChecker(llm_pass=False).audit(ctx, None)
        locations = [f.where for f in found]
        assert locations[0].startswith("round 1: tool_call:write_file.content")
        assert [1, None] == [f.round_number for f in found]
        assert "text:block 1, line 2" == locations[1]

    def test_a_defect_repeated_in_the_audited_round_is_reported_there_once(self) -> None:
        code = python_block("import json\njson.loads_fast(a)")
        (finding,) = RealityChecker(llm_pass=False).audit(rounds_context(code, code), None)
        assert "text:block 1, line 2" == finding.location

    def test_a_parse_error_repeated_unchanged_is_reported_once(self) -> None:
        broken = python_block("def f(:\n    pass")
        found = RealityChecker(llm_pass=False).audit(rounds_context(broken, "ok", broken), None)
        assert [("code_does_not_parse", "text:block 1, line 1")] == [
            (f.category, f.location) for f in found
        ]

    def test_packages_of_earlier_rounds(self) -> None:
        install = ToolCall(name="bash", arguments={"command": "pip install qgs-no-such-pkg-y"})
        ctx = rounds_context("installing", "", "Done.", calls=[[install]])
        (finding,) = RealityChecker(llm_pass=False).audit(ctx, None)
        assert ("unverified_package", "round 1: tool_call:bash.command") == (
            finding.category,
            finding.where,
        )

    def test_a_package_an_earlier_round_installs_explains_a_later_import(self) -> None:
        install = ToolCall(name="bash", arguments={"command": "pip install qgs-fake-lib"})
        ctx = rounds_context("installing", python_block("import qgs_fake_lib"), calls=[[install]])
        found = RealityChecker(llm_pass=False).audit(ctx, None)
        assert [("unverified_package", "round 1: tool_call:bash.command")] == [
            (f.category, f.where) for f in found
        ]

    def test_one_process_each_reference_once(self, tmp_path: Path) -> None:
        fake, log = recording_python(tmp_path, modules=3, packages=1)
        code = "import os\nos.system('ls')"
        pip = ToolCall(name="bash", arguments={"command": "pip install pydantic"})
        ctx = rounds_context(
            "one",
            "two",
            python_block(code) + "`pip install Pydantic`",
            calls=[[*written(code), pip], written("import json", "b.py")],
        )
        assert [] == RealityChecker(python=fake, llm_pass=False).audit(ctx, None)
        (request,) = [json.loads(line) for line in log.read_text().splitlines()]
        assert {
            "modules": [
                {"module": "os", "attributes": []},
                {"module": "os", "attributes": ["system"]},
                {"module": "json", "attributes": []},
            ],
            "packages": ["Pydantic"],
        } == request

    def test_the_cap_leaves_out_the_oldest_references(self, tmp_path: Path) -> None:
        fake, log = recording_python(tmp_path, modules=MAX_REFERENCES)
        many = "import os\n" + "\n".join(f"os.name_{i}" for i in range(MAX_REFERENCES))
        ctx = rounds_context(
            "writing", python_block("import json\njson.loads_fast(x)"), calls=[written(many)]
        )
        (finding,) = RealityChecker(python=fake, llm_pass=False).audit(ctx, None)
        assert ("references_not_checked", Severity.P4) == (finding.category, finding.severity)
        assert finding.title.startswith("3 references or packages were not checked")
        (request,) = [json.loads(line) for line in log.read_text().splitlines()]
        assert [
            {"module": "json", "attributes": []},
            {"module": "json", "attributes": ["loads_fast"]},
            {"module": "os", "attributes": []},
        ] == request["modules"][:3]

    def test_the_llm_pass_sees_the_audited_round_only(self) -> None:
        sessions = RecordingSessions()
        ctx = rounds_context(
            "writing", "Final answer.", calls=[written("import json\njson.loads_fast(a)")]
        )
        (run,) = run_roles([RealityChecker()], ctx, sessions)
        ((_, brief, _),) = sessions.calls
        assert ctx.current.render() == brief.material
        assert "loads_fast" not in brief.material
        assert [
            ("hallucinated_api", Severity.P1),
            ("ungrounded_claim", Severity.P2),
        ] == summary(list(run.findings))


class TestCorpus:
    """Real coding-agent files from the shared corpus (inspect-evals ipi_coding_agent)."""

    @staticmethod
    def record(corpus: Path, name: str, record_id: str) -> dict[str, str]:
        for line in (corpus / name).read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            if item["id"] == record_id:
                return item  # type: ignore[no-any-return]
        pytest.fail(f"{record_id} is not in {name}")

    def test_benign_repo_file_is_grounded(self, corpus: Path) -> None:
        item = self.record(corpus, "c_benign_scary_texts.jsonl", "n048")
        call = ToolCall(
            name="write_file", arguments={"path": "src/query_runner.py", "content": item["text"]}
        )
        assert [] == findings_for("", call)

    def test_injected_install_instruction_is_an_unverified_package(self, corpus: Path) -> None:
        item = self.record(corpus, "b_injection_payloads.jsonl", "p046")
        call = ToolCall(
            name="write_file", arguments={"path": "src/paths.py", "content": item["text"]}
        )
        (finding,) = findings_for("", call)
        assert ("unverified_package", Severity.P3) == (finding.category, finding.severity)
        assert "'path-audit-helper'" in finding.title
