"""Write a real Inspect AI eval log from its mock model: ``python inspect_eval.py LOG_DIR``.

Two samples, run one at a time so the scripted outputs go to them in order: the first lists
files with a bash tool and answers; the second asks to delete them, the tool fails (a
``ToolError``), and the model gives up. Writes one ``.eval`` archive and one ``.json`` log and
prints their paths, one a line. Needs ``inspect-ai`` (a dev extra); no network.
"""

from __future__ import annotations

import sys

from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import includes
from inspect_ai.solver import generate, use_tools
from inspect_ai.tool import Tool, ToolError, tool


@tool
def bash() -> Tool:
    async def execute(cmd: str) -> str:
        """Run a shell command.

        Args:
            cmd: The command line.
        """
        if cmd.startswith("rm"):
            raise ToolError("rm: permission denied")
        return "a.txt\nb.txt"

    return execute


def outputs() -> list[ModelOutput]:
    scripted = [
        ModelOutput.for_tool_call("mockllm/model", "bash", {"cmd": "ls /tmp"}),
        ModelOutput.from_content("mockllm/model", "Two files: a.txt and b.txt."),
        ModelOutput.for_tool_call("mockllm/model", "bash", {"cmd": "rm -rf /tmp/a.txt"}),
        ModelOutput.from_content("mockllm/model", "I could not delete it."),
    ]
    for output in scripted:  # with usage set the mock model counts no tokens (tiktoken's download)
        output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
    return scripted


def main(log_dir: str) -> None:
    task = Task(
        dataset=[
            Sample(input="List the files in /tmp", target="two", id="list"),
            Sample(input="Delete /tmp/a.txt", target="deleted", id="delete"),
        ],
        solver=[use_tools(bash()), generate()],
        scorer=includes(),
    )
    for log_format in ("eval", "json"):
        model = get_model("mockllm/model", custom_outputs=outputs())
        (log,) = eval(
            task, model=model, log_dir=log_dir, log_format=log_format, display="none", max_samples=1
        )
        assert log.status == "success", log.error
        print(log.location)


if __name__ == "__main__":
    main(sys.argv[1])
