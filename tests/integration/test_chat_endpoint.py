"""ChatEndpoint.ask on a loopback chat-completions server: any contract, one repair, the log."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError

from qgs_worker.errors import JudgeUnavailableError
from qgs_worker.judges.endpoint import ChatEndpoint, format_validation_error
from tests.fake_openai import Answer, FakeOpenAIServer


class Colour(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    rgb: list[int]


def parse_colour(raw: str) -> tuple[Colour | None, list[str]]:
    try:
        return Colour.model_validate_json(raw), []
    except ValidationError as exc:
        return None, [format_validation_error(e) for e in exc.errors()]


def repair(errors: list[str]) -> str:
    return "fix: " + "; ".join(errors)


MESSAGES = [{"role": "system", "content": "name a colour"}, {"role": "user", "content": "red"}]


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as s:
        yield s


def endpoint_on(server: FakeOpenAIServer, **kwargs: object) -> ChatEndpoint:
    return ChatEndpoint(base_url=server.base_url, api_key="k", timeout_s=5.0, **kwargs)  # type: ignore[arg-type]


def test_a_valid_answer_is_one_call_with_the_contract_as_a_strict_schema(
    server: FakeOpenAIServer,
) -> None:
    server.script(Answer.content('{"name": "red", "rgb": [255, 0, 0]}').with_usage(7, 3))
    with endpoint_on(server) as endpoint:
        answer = endpoint.ask(MESSAGES, Colour, parse_colour, repair)  # type: ignore[arg-type]
    assert Colour(name="red", rgb=[255, 0, 0]) == answer.value
    assert ([], 7, 3) == (answer.errors, answer.usage.prompt_tokens, answer.usage.completion_tokens)
    [request] = server.requests
    assert "json_schema" == request["response_format"]["type"]
    assert "Colour" == request["response_format"]["json_schema"]["name"]


def test_an_invalid_answer_gets_one_repair_carrying_its_errors_then_none(
    server: FakeOpenAIServer,
) -> None:
    server.script(Answer.content('{"name": "red"}'), Answer.content("still not it"))
    log: list[dict[str, str]] = []
    with endpoint_on(server) as endpoint:
        answer = endpoint.ask(MESSAGES, Colour, parse_colour, repair, log=log)  # type: ignore[arg-type]
    assert answer.value is None and "still not it" == answer.raw
    assert answer.errors and 2 == len(server.requests)  # never a third call
    sent = server.requests[1]["messages"]
    assert sent[-1]["content"].startswith("fix: 'rgb': Field required")
    assert ["system", "user", "assistant", "user", "assistant"] == [m["role"] for m in log]


def test_a_refused_schema_is_asked_in_json_mode_and_remembered(server: FakeOpenAIServer) -> None:
    server.reject_json_schema = True
    server.script(
        Answer.content('{"name": "red", "rgb": [255, 0, 0]}'),
        Answer.content('{"name": "blue", "rgb": [0, 0, 255]}'),
    )
    with endpoint_on(server) as endpoint:
        first = endpoint.ask(MESSAGES, Colour, parse_colour, repair)  # type: ignore[arg-type]
        second = endpoint.ask(MESSAGES, Colour, parse_colour, repair)  # type: ignore[arg-type]
        assert not endpoint.json_schema_supported
    assert first.value is not None and second.value is not None
    formats = [r["response_format"]["type"] for r in server.requests]
    assert ["json_schema", "json_object", "json_object"] == formats


def test_every_call_passes_the_gate_and_a_failed_call_leaves_what_was_sent(
    server: FakeOpenAIServer,
) -> None:
    sizes: list[int] = []
    server.script(Answer.content("not json"), Answer.status(503))
    log: list[dict[str, str]] = []
    with (
        endpoint_on(server, call_gate=sizes.append) as endpoint,
        pytest.raises(JudgeUnavailableError, match="HTTP 503"),
    ):
        endpoint.ask(MESSAGES, Colour, parse_colour, repair, log=log)  # type: ignore[arg-type]
    assert 2 == len(sizes) and sizes[1] > sizes[0]  # the repair request is longer
    assert ["system", "user", "assistant", "user"] == [m["role"] for m in log]


def test_a_copy_with_a_lower_timeout_keeps_model_gate_and_schema_memory(
    server: FakeOpenAIServer,
) -> None:
    gate = [].append
    with endpoint_on(server, model="m1", call_gate=gate) as endpoint:
        endpoint.json_schema_supported = False
        limited = endpoint.with_timeout(0.5)
        assert (0.5, "m1", gate, False) == (
            limited.timeout_s,
            limited.model,
            limited.call_gate,
            limited.json_schema_supported,
        )
        assert 5.0 == endpoint.with_timeout(60.0).timeout_s  # never raised above its own
