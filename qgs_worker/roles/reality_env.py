"""Check module and package names against a Python environment, in a separate interpreter.

The Reality Checker asks "does ``numpy.fast_sort`` exist?" of a real environment (the worker's
own interpreter, or the one named by ``python``, e.g. the agent's project venv). The question is
answered by a fixed script (:data:`SCRIPT`) in a child process, never in the worker:

- the deliverable's code is never executed, imported or compiled anywhere; only the *names* it
  uses are sent, as JSON on stdin;
- to look up an attribute, the child imports the installed module that provides it (a module of
  the checking environment, not the deliverable's), after ``importlib.util.find_spec`` has shown
  it is installed; a few stdlib modules with import-time effects (``antigravity`` opens a
  browser) are never imported;
- the child runs isolated (``python -I``: no ``PYTHONPATH``, no user site-packages, no current
  folder on ``sys.path``), in a fresh temporary folder with a minimal environment, with its
  address space capped at ``memory_mb`` (``RLIMIT_AS``, set by the script itself as its first
  step: ``preexec_fn`` is unsafe in the worker's thread pool), in its own process group, killed
  with the whole group when ``timeout_s`` runs out.

Errors::

    QGSError
    └── ReferenceCheckError            the checker gave no usable answer (crash, bad output)
        └── ReferenceCheckTimeoutError (TimeoutError)   it did not answer within timeout_s
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from qgs_worker.core.references import ModuleRef, normalize_package
from qgs_worker.errors import QGSError
from qgs_worker.roles.reality_cache import ANSWERS

MAX_REFERENCES = 200
"""Distinct ``(module, attributes)`` references checked per call; the rest are counted, not checked."""
MAX_PACKAGES = 100
"""Distinct package names checked per call; the rest are counted, not checked."""

ModuleStatus = Literal["found", "missing_module", "missing_attribute", "unverifiable"]
PackageStatus = Literal["installed", "not_installed", "stdlib"]


class ReferenceCheckError(QGSError):
    """Raised when the checking interpreter gave no usable answer (it crashed, or printed no JSON)."""


class ReferenceCheckTimeoutError(ReferenceCheckError, TimeoutError):
    """Raised when the checking interpreter did not answer within ``timeout_s`` (it was killed)."""


ReferenceCheckTimeout = ReferenceCheckTimeoutError
"""The name issue 4 uses for :class:`ReferenceCheckTimeoutError`."""


@dataclass(frozen=True)
class ModuleCheck:
    """The checking environment's answer about one :class:`ModuleRef`.

    Attributes:
        ref: The reference asked about.
        status: ``found``; ``missing_module`` (``name`` is not installed); ``missing_attribute``
            (``owner`` has no ``attribute``); ``unverifiable`` (installed but could not be
            imported, a stdlib module of another platform, or a name that exists on another
            platform or Python version; ``detail`` says which).
        name: For ``missing_module``: the module that was not found (``numpyy``, ``google.foo``).
        owner: For ``missing_attribute``: the dotted object lacking it (``numpy.linalg``).
        attribute: For ``missing_attribute``: the missing name.
        submodule: For ``missing_attribute``: it was imported as a submodule (``import os.x``).
        version: The installed distribution's version providing the top-level module, if known.
        detail: Why it is unverifiable.
    """

    ref: ModuleRef
    status: ModuleStatus
    name: str = ""
    owner: str = ""
    attribute: str = ""
    submodule: bool = False
    version: str = ""
    detail: str = ""


@dataclass(frozen=True)
class PackageCheck:
    """The checking environment's answer about one package name.

    Attributes:
        name: The name as asked.
        status: ``installed`` (a distribution of that PEP 503 name is installed), ``stdlib``
            (the name is a standard-library module) or ``not_installed``.
        version: The installed version.
    """

    name: str
    status: PackageStatus
    version: str = ""


@dataclass(frozen=True)
class EnvReport:
    """What the checking environment said.

    Attributes:
        python: The checking interpreter's version (``3.11.7``); empty when nothing was asked.
        platform: Its ``sys.platform`` (``linux``).
        modules: One answer per checked reference, in the order given.
        packages: One answer per checked package, in the order given.
        unchecked: References and packages left out over :data:`MAX_REFERENCES` /
            :data:`MAX_PACKAGES`.
    """

    python: str = ""
    platform: str = ""
    modules: tuple[ModuleCheck, ...] = ()
    packages: tuple[PackageCheck, ...] = ()
    unchecked: int = 0


def check_references(
    refs: Sequence[ModuleRef],
    packages: Sequence[str],
    *,
    python: str | None = None,
    timeout_s: float = 10.0,
    memory_mb: int = 512,
) -> EnvReport:
    """Ask a separate interpreter whether modules, attributes and packages exist in it.

    Per reference: ``find_spec`` of the top-level module (a standard-library name always
    counts as present, per ``sys.stdlib_module_names`` of that interpreter), then each
    submodule; when attributes are referenced, the installed module is imported and each
    attribute looked up in turn (a missing one may be a submodule: it is then found and
    imported). Per package: the installed distributions, compared by PEP 503 name.

    Args:
        refs: What to check; equal ``(module, attributes)`` are checked once. Only the first
            :data:`MAX_REFERENCES` distinct ones are checked.
        packages: Package names (``pip install`` arguments); the first :data:`MAX_PACKAGES`.
        python: The interpreter of the checking environment; the worker's own by default.
        timeout_s: Wall-time limit of the check, in seconds.
        memory_mb: Address-space limit of the checking process, in MiB (POSIX only).

    Returns:
        The answers; an empty report, without starting a process, when there is nothing to ask.

    Raises:
        ReferenceCheckTimeoutError: The check ran longer than ``timeout_s`` (it was killed).
        ReferenceCheckError: The interpreter could not be started, crashed or printed no valid
            answer (the message carries the end of its stderr).
    """
    keys = list(dict.fromkeys(ref.key for ref in refs))
    first: dict[str, str] = {}
    for package in packages:
        first.setdefault(normalize_package(package), package)
    names = list(first.values())
    checked_keys, checked_names = keys[:MAX_REFERENCES], names[:MAX_PACKAGES]
    unchecked = len(keys) - len(checked_keys) + len(names) - len(checked_names)
    if not checked_keys and not checked_names:
        return EnvReport(unchecked=unchecked)
    python = python or sys.executable
    # The answers of an interpreter run under one memory limit (a low one can make it fail).
    where = f"{python}\x1f{memory_mb}"
    known = ANSWERS.known(where, checked_keys, checked_names)
    ask_keys = [k for k in checked_keys if k not in known.modules]
    ask_names = [n for n in checked_names if n not in known.packages]
    try:
        if ask_keys or ask_names or known.interpreter is None:
            request = {
                "modules": [{"module": m, "attributes": list(a)} for m, a in ask_keys],
                "packages": ask_names,
            }
            answer = _run(json.dumps(request), python, timeout_s=timeout_s, memory_mb=memory_mb)
            known = ANSWERS.learn(
                where,
                (str(answer["python"]), str(answer["platform"])),
                dict(zip(ask_keys, answer["modules"], strict=True)),
                dict(zip(ask_names, answer["packages"], strict=True)),
                known,
            )
        by_key = known.modules
        modules = tuple(_module_check(ref, by_key[ref.key]) for ref in refs if ref.key in by_key)
        found = tuple(
            PackageCheck(
                name, known.packages[name]["status"], str(known.packages[name].get("version", ""))
            )
            for name in checked_names
        )
        if known.interpreter is None:  # learn() always sets it: a defect, said plainly
            raise ReferenceCheckError("the reference checker gave no interpreter version")
        version, platform = known.interpreter
        return EnvReport(version, platform, modules, found, unchecked)
    except (KeyError, TypeError, ValueError) as exc:
        raise ReferenceCheckError(
            f"the reference checker's answer has the wrong shape: {exc!r}"
        ) from exc


def _module_check(ref: ModuleRef, item: dict[str, Any]) -> ModuleCheck:
    return ModuleCheck(
        ref=ref,
        status=item["status"],
        name=str(item.get("name", "")),
        owner=str(item.get("owner", "")),
        attribute=str(item.get("attribute", "")),
        submodule=bool(item.get("submodule", False)),
        version=str(item.get("version", "")),
        detail=str(item.get("detail", "")),
    )


def _run(payload: str, python: str, *, timeout_s: float, memory_mb: int) -> dict[str, Any]:
    posix = os.name == "posix"
    argv = [python, "-I", "-c", SCRIPT, str(max(0, memory_mb) * 1024 * 1024)]
    with tempfile.TemporaryDirectory(prefix="qgs-refcheck-") as workdir:
        env = {
            "PATH": os.defpath,
            "HOME": workdir,
            "TMPDIR": workdir,
            "LANG": "C.UTF-8",
            "PYTHONIOENCODING": "utf-8",
            "PYTHONDONTWRITEBYTECODE": "1",
            "OPENBLAS_NUM_THREADS": "1",  # numerical libraries reserve memory per thread
            "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
        }
        if not posix:
            env["SYSTEMROOT"] = os.environ.get("SYSTEMROOT", "")
        try:
            process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=workdir,
                env=env,
                start_new_session=posix,
            )
        except OSError as exc:
            raise ReferenceCheckError(
                f"could not start the checking interpreter {python!r}: {exc}"
            ) from exc
        try:
            out, err = process.communicate(payload.encode("utf-8"), timeout=timeout_s)
        except subprocess.TimeoutExpired:
            _kill(process, posix=posix)
            raise ReferenceCheckTimeoutError(
                f"the reference check did not finish within timeout_s={timeout_s:g} s "
                f"(interpreter {python!r}); it was killed"
            ) from None
    tail = _tail(err)
    if process.returncode != 0:
        raise ReferenceCheckError(
            f"the reference checker exited with status {process.returncode}: {tail}"
        )
    try:
        answer = json.loads(out.decode("utf-8", errors="replace"))
    except ValueError as exc:
        raise ReferenceCheckError(
            f"the reference checker printed no JSON ({exc}); stderr: {tail}"
        ) from exc
    if not isinstance(answer, dict):
        raise ReferenceCheckError(f"the reference checker printed {type(answer).__name__}")
    return answer


def _kill(process: subprocess.Popen[bytes], *, posix: bool) -> None:
    with contextlib.suppress(OSError):
        if posix:
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.communicate(timeout=5.0)


def _tail(err: bytes, chars: int = 800) -> str:
    text = err.decode("utf-8", errors="replace").strip()
    return ("..." + text[-chars:]) if len(text) > chars else (text or "(no stderr)")


SCRIPT = r"""
import sys


def _limit_memory():
    try:
        import resource
    except ImportError:  # not POSIX
        return
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if limit > 0:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


_limit_memory()

import importlib
import importlib.util
import inspect
import json
import os
import platform
import re

ANSWER = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(2, 1)  # whatever an imported module prints goes to stderr, not into the answer
sys.stdout = sys.stderr

STDLIB = frozenset(getattr(sys, "stdlib_module_names", ()))
NEVER_IMPORT = frozenset({"antigravity", "this", "__hello__", "__phello__", "idlelib", "turtledemo"})
# Names that exist only on another platform or in another Python version than this one may be.
ELSEWHERE = {
    "os": {"startfile", "add_dll_directory", "O_BINARY", "O_NOINHERIT", "O_SHORT_LIVED",
           "O_TEMPORARY", "O_RANDOM", "O_SEQUENTIAL", "O_TEXT", "get_handle_inheritable",
           "set_handle_inheritable", "process_cpu_count", "listdrives", "listmounts",
           "listvolumes", "unshare", "setns", "grantpt", "unlockpt", "ptsname", "posix_openpt"},
    "sys": {"getwindowsversion", "winver", "dllhandle", "monitoring",
            "activate_stack_trampoline", "deactivate_stack_trampoline",
            "is_stack_trampoline_active", "_is_gil_enabled", "last_exc", "is_finalizing"},
    "signal": {"CTRL_C_EVENT", "CTRL_BREAK_EVENT", "SIGBREAK"},
    "itertools": {"batched"},
    "typing": {"override", "TypeIs", "ReadOnly", "NoDefault", "TypeAliasType",
               "get_protocol_members", "is_protocol", "evaluate_forward_ref"},
    "warnings": {"deprecated"},
    "copy": {"replace"},
    "math": {"fma", "sumprod"},
    "random": {"binomialvariate"},
    "statistics": {"kde", "kde_random"},
    "calendar": {"Month", "Day", "JANUARY", "MONDAY"},
    "time": {"tzset"},
    "socket": {"AF_UNIX", "SIO_RCVALL", "SIO_KEEPALIVE_VALS", "SIO_LOOPBACK_FAST_PATH"},
    "subprocess": {"STARTUPINFO", "CREATE_NEW_CONSOLE", "CREATE_NEW_PROCESS_GROUP",
                   "CREATE_NO_WINDOW", "DETACHED_PROCESS", "STARTF_USESHOWWINDOW"},
    "asyncio": {"WindowsSelectorEventLoopPolicy", "WindowsProactorEventLoopPolicy",
                "ProactorEventLoop", "TaskGroup", "timeout", "Runner", "EventLoop"},
    "ctypes": {"windll", "WinDLL", "oledll", "OleDLL", "WinError", "FormatError", "HRESULT"},
}


def normalize(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def unverifiable(detail):
    return {"status": "unverifiable", "detail": str(detail)[:300]}


def failed(exc):
    return unverifiable(f"importing it failed: {type(exc).__name__}: {exc}")


_DISTRIBUTIONS = None


def version_of(top):
    global _DISTRIBUTIONS
    try:
        import importlib.metadata

        if _DISTRIBUTIONS is None:
            _DISTRIBUTIONS = importlib.metadata.packages_distributions()
        names = _DISTRIBUTIONS.get(top) or []
        return importlib.metadata.version(names[0]) if names else ""
    except Exception:
        return ""


def defined_elsewhere(obj, top, attr):
    module = getattr(obj, "__name__", top) if inspect.ismodule(obj) else top
    if attr in ELSEWHERE.get(module, ()) or attr in ELSEWHERE.get(top, ()):
        return True
    try:  # named in the module's own source: defined under a platform or version condition
        path = inspect.getsourcefile(obj if inspect.ismodule(obj) else inspect.getmodule(obj))
        with open(path, encoding="utf-8") as source:
            return re.search(r"\b" + re.escape(attr) + r"\b", source.read()) is not None
    except Exception:
        return False


def is_namespace(spec):
    return spec is not None and spec.origin in (None, "namespace") and not spec.has_location


def check_module(module, attributes):
    parts = module.split(".")
    top = parts[0]
    stdlib = top in STDLIB
    if top in NEVER_IMPORT and (attributes or len(parts) > 1):
        return unverifiable("not imported: it has effects on import")
    try:
        spec = importlib.util.find_spec(top)
    except BaseException as exc:
        return failed(exc)
    if spec is None:
        if stdlib:
            return unverifiable("a standard-library module not available on this platform or build")
        return {"status": "missing_module", "name": top}
    for i in range(1, len(parts)):
        parent, name = ".".join(parts[:i]), ".".join(parts[: i + 1])
        try:
            found = importlib.util.find_spec(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                return failed(exc)
            found = None
        except BaseException as exc:
            return failed(exc)
        if found is None:
            if is_namespace(importlib.util.find_spec(parent)):
                return {"status": "missing_module", "name": name}
            return {"status": "missing_attribute", "owner": parent, "attribute": parts[i],
                    "submodule": True, "version": version_of(top)}
    if not attributes:
        return {"status": "found"}
    try:
        obj = importlib.import_module(module)
    except BaseException as exc:
        return failed(exc)
    owner = module
    for attr in attributes:
        try:
            obj = getattr(obj, attr)
            owner = f"{owner}.{attr}"
            continue
        except AttributeError:
            pass  # not an attribute: it may still be a submodule, looked up below
        except BaseException as exc:
            return unverifiable(f"looking up {attr!r} raised {type(exc).__name__}")
        if inspect.ismodule(obj):
            name = f"{obj.__name__}.{attr}"
            try:
                found = importlib.util.find_spec(name)
            except BaseException:
                found = None
            if found is not None:
                try:
                    obj = importlib.import_module(name)
                except BaseException as exc:
                    return failed(exc)
                owner = f"{owner}.{attr}"
                continue
        if stdlib and defined_elsewhere(obj, top, attr):
            return unverifiable("it may exist on another platform or Python version")
        return {"status": "missing_attribute", "owner": owner, "attribute": attr,
                "version": version_of(top)}
    return {"status": "found"}


_INSTALLED = None


def check_package(name):
    global _INSTALLED
    wanted = normalize(name)
    if wanted in {normalize(m) for m in STDLIB}:
        return {"status": "stdlib"}
    if _INSTALLED is None:
        import importlib.metadata

        _INSTALLED = {}
        for dist in importlib.metadata.distributions():
            dist_name = dist.metadata["Name"]
            if dist_name:
                _INSTALLED.setdefault(normalize(dist_name), dist.version)
    if wanted in _INSTALLED:
        return {"status": "installed", "version": _INSTALLED[wanted]}
    return {"status": "not_installed"}


def main():
    request = json.load(sys.stdin)
    answer = {
        "python": platform.python_version(),
        "platform": sys.platform,
        "modules": [check_module(m["module"], m["attributes"]) for m in request["modules"]],
        "packages": [check_package(p) for p in request["packages"]],
    }
    ANSWER.write(json.dumps(answer))
    ANSWER.flush()


main()
os._exit(0)  # threads an imported module started must not keep the checker alive
"""
"""The checking script, run as ``python -I -c SCRIPT MEMORY_BYTES`` (stdlib only, Python 3.10+)."""
