"""Reading Python code and pip commands without running them (qgs_worker.core.references)."""

from __future__ import annotations

import pytest

from qgs_worker.core.models import Deliverable, ToolCall
from qgs_worker.core.references import (
    ModuleRef,
    Snippet,
    SyntaxProblem,
    local_modules,
    normalize_package,
    pip_packages,
    python_snippets,
    references,
)


def keys(source: str) -> list[tuple[str, tuple[str, ...]]]:
    return [ref.key for ref in references(source).refs]


class TestImports:
    """Imports, aliases and from-imports are recorded with their line."""

    def test_plain_and_dotted_imports(self) -> None:
        found = references("import os\nimport xml.etree.ElementTree\n")
        assert ("os", "xml.etree.ElementTree") == found.modules
        assert [1, 2] == [ref.line for ref in found.refs]
        assert "import xml.etree.ElementTree" == found.refs[1].code

    def test_from_imports_record_module_name_pairs(self) -> None:
        found = references("from a.b import c, d as e\n")
        assert (("a.b", "c"), ("a.b", "d")) == found.names
        assert ("a.b",) == found.modules
        assert {"from"} == {ref.kind for ref in found.refs}

    def test_relative_imports_are_ignored(self) -> None:
        assert [] == keys("from . import x\nfrom ..pkg import y\n")

    def test_star_import_checks_the_module_only(self) -> None:
        assert [("os.path", ())] == keys("from os.path import *\n")

    def test_guarded_import_is_optional(self) -> None:
        found = references("try:\n    import ujson\nexcept ImportError:\n    ujson = None\n")
        assert [True] == [ref.optional for ref in found.refs]

    def test_import_outside_a_guard_is_not_optional(self) -> None:
        source = "try:\n    import a\nexcept ValueError:\n    pass\nimport b\n"
        assert [False, False] == [ref.optional for ref in references(source).refs]

    def test_duplicates_keep_the_first_line(self) -> None:
        found = references("import os\nimport os\n")
        assert [1] == [ref.line for ref in found.refs]


class TestAttributeChains:
    """Attribute chains on imported names become references to the module."""

    @pytest.mark.parametrize(
        ("source", "expected"),
        [
            ("import numpy as np\nnp.linalg.foo(x)\n", ("numpy", ("linalg", "foo"))),
            ("import requests\nrequests.fetch_json(u)\n", ("requests", ("fetch_json",))),
            ("import a.b as c\nc.bar\n", ("a.b", ("bar",))),
            ("import a.b\na.b.c()\n", ("a", ("b", "c"))),
            ("from a import b as c\nc.d.e\n", ("a", ("b", "d", "e"))),
            ("import np_x as n\nn.arr(1)[0].T\n", ("np_x", ("arr",))),
        ],
    )
    def test_chains(self, source: str, expected: tuple[str, tuple[str, ...]]) -> None:
        found = references(source)
        chain = next(ref for ref in found.refs if ref.kind == "attribute")
        assert expected == chain.key
        assert 2 == chain.line

    def test_only_the_longest_chain_is_kept(self) -> None:
        assert [("os", ()), ("os", ("path", "join"))] == keys("import os\nos.path.join('a')\n")

    def test_assigned_attribute_is_not_a_reference(self) -> None:
        assert [("m", ()), ("m", ("a",))] == keys("import m\nm.a.b = 1\nm.c = 2\n")

    def test_names_that_are_not_imported_are_ignored(self) -> None:
        assert [] == keys("x = 1\nx.real\nself.np.foo\n")

    def test_chain_inherits_optional_import(self) -> None:
        source = "try:\n    import fastjson\nexcept ImportError:\n    pass\nfastjson.go()\n"
        assert [True, True] == [ref.optional for ref in references(source).refs]


class TestShadowing:
    """A name the snippet binds in another way shadows the import: its chains are not checked."""

    @pytest.mark.parametrize(
        "binding",
        [
            "def json():\n    pass\n",
            "class json:\n    pass\n",
            "json = make()\n",
            "for json in items:\n    pass\n",
            "with open(p) as json:\n    pass\n",
            "def f(json):\n    return json.loads_fast(x)\n",
            "lam = lambda json: json.x\n",
            "try:\n    pass\nexcept Exception as json:\n    pass\n",
            "[json for json in xs]\n",
            "if (json := other()):\n    pass\n",
        ],
    )
    def test_local_binding_shadows(self, binding: str) -> None:
        found = references(f"import json\n{binding}json.loads_fast(x)\n")
        assert [("json", ())] == [ref.key for ref in found.refs]

    def test_two_modules_under_one_name_are_ambiguous(self) -> None:
        source = "try:\n    import ujson as json\nexcept ImportError:\n    import json\njson.x\n"
        assert [("ujson", ()), ("json", ())] == keys(source)


class TestSyntaxErrors:
    """A snippet that does not parse carries the message and line, and no references."""

    def test_syntax_error(self) -> None:
        found = references("import os\ndef f(:\n    pass\n")
        assert () == found.refs
        assert SyntaxProblem("invalid syntax", 2) == found.syntax_error

    def test_python2_print(self) -> None:
        problem = references('print "hi"\n').syntax_error
        assert problem is not None and 1 == problem.line

    def test_null_byte(self) -> None:
        assert references("import os\x00\n").syntax_error is not None

    def test_code_is_never_run(self, tmp_path: object) -> None:
        found = references("import os\nopen('/nonexistent/qgs-marker', 'w')\nos.fake()\n")
        assert found.syntax_error is None


class TestPipPackages:
    """Package names of install commands, without versions, extras, flags, files or URLs."""

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("pip install requests", ["requests"]),
            ("pip3 install numpy==1.26.0 pandas>=2", ["numpy", "pandas"]),
            ("python -m pip install 'requests[socks]>=2.0'", ["requests"]),
            ("python3.11 -m pip install -U pip setuptools", ["pip", "setuptools"]),
            ("uv pip install fastapi~=0.110", ["fastapi"]),
            ("poetry add --group dev pytest@^8.0", ["pytest"]),
            ("uv add 'httpx[http2]'", ["httpx"]),
            ("pip install -r requirements.txt -c constraints.txt", []),
            ("pip install -e . ./libs/x /abs/y ~/z", []),
            ("pip install git+https://github.com/a/b.git https://x/y.whl", []),
            ("pip install --index-url https://pypi.example/simple private-pkg", ["private-pkg"]),
            ("pip install --target=/opt/x six", ["six"]),
            ("pip install mypkg @ https://example.com/mypkg.tar.gz", ["mypkg"]),
            ("pip install \"numpy==1.2;python_version<'3.8'\"", ["numpy"]),
            ("pip install <package>", []),
            ("pip install package-name", []),
            ("pip install $PKG", []),
            ("!pip install transformers", ["transformers"]),
            ("%pip install -q datasets", ["datasets"]),
            ("sudo pip install ansible && pip install boto3; ls", ["ansible", "boto3"]),
            ("pip install flask > /dev/null 2>&1", ["flask"]),
            ("pip install rich # for colours\n", ["rich"]),
            ("pip install \\\n    click \\\n    typer\n", ["click", "typer"]),
        ],
    )
    def test_commands(self, text: str, expected: list[str]) -> None:
        assert expected == pip_packages(text)

    def test_prose_stops_at_words(self) -> None:
        text = "First run pip install rich and then pip install typer. Use `pip install httpx`."
        assert ["rich", "typer", "httpx"] == pip_packages(text)

    def test_prose_without_a_package(self) -> None:
        assert [] == pip_packages("Use pip install to add packages; `pip install` fails offline.")

    def test_each_name_once_by_normal_form(self) -> None:
        assert ["Pydantic_Settings"] == pip_packages(
            "pip install Pydantic_Settings\npip install pydantic-settings"
        )

    def test_not_a_pip_command(self) -> None:
        assert [] == pip_packages("conda install numpy\nmypip install x\nnpm install left-pad")

    def test_normalize(self) -> None:
        assert "foo-bar-baz" == normalize_package("Foo_Bar..baz")


def code_of(snippets: list[Snippet]) -> list[tuple[str, str]]:
    return [(s.location, s.source) for s in snippets]


class TestSnippetsFromText:
    """Fenced blocks of the deliverable's text."""

    def test_tagged_blocks(self) -> None:
        text = "A\n```python\nimport os\n```\n```py\nx = 1\n```\n```Python3 title=a.py\ny\n```\n"
        assert [
            ("text:block 1", "import os"),
            ("text:block 2", "x = 1"),
            ("text:block 3", "y"),
        ] == code_of(python_snippets(Deliverable(text=text)))

    def test_untagged_block_needs_python_and_an_import(self) -> None:
        text = (
            "```\nimport requests\nrequests.get(u)\n```\n"
            "```\nx = 1\n```\n"
            "```\nimport -window root shot.png\n```\n"
        )
        assert [("text:block 1", "import requests\nrequests.get(u)")] == code_of(
            python_snippets(Deliverable(text=text))
        )

    def test_other_languages_are_not_python(self) -> None:
        text = "```js\nimport x from 'y'\n```\n```bash\nls\n```\n"
        assert [] == python_snippets(Deliverable(text=text))

    def test_indented_and_tilde_fences(self) -> None:
        text = "1. step\n\n   ```python\n   import os\n   if os:\n       pass\n   ```\n~~~py\nimport re\n~~~\n"
        assert [
            ("text:block 1", "import os\nif os:\n    pass"),
            ("text:block 2", "import re"),
        ] == code_of(python_snippets(Deliverable(text=text)))

    def test_repl_prompts_are_removed_and_output_blanked(self) -> None:
        text = "```pycon\n>>> import json\n>>> json.dumps(\n...     {})\n'{}'\n```\n"
        (snippet,) = python_snippets(Deliverable(text=text))
        assert "import json\njson.dumps(\n    {})\n" == snippet.source

    def test_ipython_magics_become_blank_lines(self) -> None:
        text = "```python\n%matplotlib inline\n!pip install x\nimport os\n```\n"
        (snippet,) = python_snippets(Deliverable(text=text))
        assert "\n\nimport os" == snippet.source
        assert 3 == references(snippet.source).refs[0].line

    def test_a_percent_continuation_line_is_code(self) -> None:
        text = '```python\nmsg = ("%s"\n       % name)\n```\n'
        (snippet,) = python_snippets(Deliverable(text=text))
        assert references(snippet.source).syntax_error is None

    def test_unclosed_fence_runs_to_the_end(self) -> None:
        (snippet,) = python_snippets(Deliverable(text="```python\nimport os\nos.sep"))
        assert "import os\nos.sep" == snippet.source

    def test_python_c_in_the_text(self) -> None:
        text = "Check with `python3 -c 'import ssl; print(ssl.OPENSSL_VERSION)'`."
        assert [("text", "import ssl; print(ssl.OPENSSL_VERSION)")] == code_of(
            python_snippets(Deliverable(text=text))
        )


class TestSnippetsFromToolCalls:
    """python -c, heredocs, written .py files and Python tools in tool calls."""

    def snippets(self, *calls: ToolCall) -> list[tuple[str, str]]:
        return code_of(python_snippets(Deliverable(tool_calls=calls)))

    @pytest.mark.parametrize(
        ("command", "code"),
        [
            ("python -c 'import json; json.loads(s)'", "import json; json.loads(s)"),
            ('python3 -c "import os; print(\\"a\\")"', 'import os; print("a")'),
            ("cd /x && /usr/bin/python3.12 -I -c 'import sys' | cat", "import sys"),
            ("python -Bc 'import re'", "import re"),
            ("sudo python3 -c 'import ctypes'", "import ctypes"),
        ],
    )
    def test_python_c(self, command: str, code: str) -> None:
        assert [("tool_call:bash.command", code)] == self.snippets(
            ToolCall(name="bash", arguments={"command": command})
        )

    def test_python_running_a_file_is_not_a_snippet(self) -> None:
        assert [] == self.snippets(ToolCall(name="bash", arguments={"command": "python x.py -c 1"}))

    @pytest.mark.parametrize(
        "command",
        [
            "python3 - <<'EOF'\nimport sys\nsys.exit(0)\nEOF\necho done",
            'python <<"EOF"\nimport sys\nsys.exit(0)\nEOF',
            "python3 -u - <<EOF\nimport sys\nsys.exit(0)\nEOF",
            "cat > app/tool.py <<'EOF'\nimport sys\nsys.exit(0)\nEOF",
            "cat <<EOF > tool.py\nimport sys\nsys.exit(0)\nEOF",
            "python3 - <<-EOF\n\timport sys\n\tsys.exit(0)\n\tEOF",
        ],
    )
    def test_heredocs(self, command: str) -> None:
        assert [("tool_call:shell.cmd", "import sys\nsys.exit(0)")] == self.snippets(
            ToolCall(name="shell", arguments={"cmd": command})
        )

    def test_other_heredocs_are_not_python(self) -> None:
        command = "cat > notes.txt <<EOF\nimport this is prose\nEOF\nmysql <<SQL\nSELECT 1;\nSQL"
        assert [] == self.snippets(ToolCall(name="bash", arguments={"command": command}))

    def test_write_file_of_a_py_file(self) -> None:
        call = ToolCall(name="write_file", arguments={"path": "src/x.py", "content": "import os\n"})
        assert [("tool_call:write_file.content", "import os")] == self.snippets(call)

    def test_write_file_of_another_file_is_not_python(self) -> None:
        call = ToolCall(name="write_file", arguments={"path": "README.md", "content": "import x\n"})
        assert [] == self.snippets(call)

    def test_partial_edit_only_when_it_parses(self) -> None:
        good = ToolCall(
            name="str_replace",
            arguments={"path": "a.py", "old_str": "x", "new_str": "    import re\n    re.x"},
        )
        bad = ToolCall(
            name="str_replace", arguments={"path": "a.py", "old_str": "x", "new_str": "else:"}
        )
        assert [("tool_call:str_replace.new_str", "import re\nre.x")] == self.snippets(good, bad)

    def test_python_tool_code(self) -> None:
        call = ToolCall(name="execute_python", arguments={"code": "import math\nmath.tau"})
        assert [("tool_call:execute_python.code", "import math\nmath.tau")] == self.snippets(call)

    def test_unparsed_arguments_are_read_raw(self) -> None:
        call = ToolCall(name="bash", raw_arguments="python -c 'import os'")
        assert [("tool_call:bash.raw_arguments", "import os")] == self.snippets(call)


class TestLocalModules:
    """Modules the round provides itself are known by their file names."""

    def test_written_and_mentioned_files(self) -> None:
        deliverable = Deliverable(
            text="Save this as `helpers.py`.",
            tool_calls=(ToolCall(name="write_file", arguments={"path": "app/db/models.py"}),),
        )
        assert {"helpers", "app", "db", "models"} == local_modules(deliverable)


class TestModuleRef:
    """Derived names of a reference."""

    def test_names(self) -> None:
        ref = ModuleRef("numpy.linalg", ("norm",))
        assert ("numpy", "numpy.linalg.norm") == (ref.top_level, ref.dotted)
