"""Free text with control characters, over HTTP, on SQLite and PostgreSQL (issue 33, second pass).

A NUL in ``POST /v1/shadow``'s note was a 500 ``DataError`` on PostgreSQL, and so was
``/ui/live?agent=%00`` (``/ui/events`` broke on its first batch): the request models refuse a
control character with a 422 naming the field, the console's filter with a 422 page, and the
store cleans a shadow change's text. A note made of zero-width characters is blank.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from qgs_worker.api import Operations
from qgs_worker.api.http import create_app
from qgs_worker.client import Client
from qgs_worker.config.settings import ApiSettings, Settings
from qgs_worker.core.spotcheck import ShadowChange
from qgs_worker.store.keys import NewKey, create_key
from qgs_worker.webhooks.key_secrets import master_secret
from tests.integration.api_server import serving
from tests.integration.console_app import signed_in
from tests.integration.test_api import assert_problem
from tests.integration.test_input_contract import Sent

pytestmark = pytest.mark.integration


@dataclass
class Served:
    url: str
    ops: Operations
    person: NewKey  # operator: view, approve, spot-check; sees all
    viewer: NewKey  # operator: view only; sees all
    agent: NewKey  # alice's, with approve

    def http(self, key: NewKey) -> httpx.Client:
        headers = {"Authorization": f"Bearer {key.key}"}
        return httpx.Client(base_url=self.url, headers=headers, timeout=30)


@pytest.fixture
def served(store_url: str, tmp_path: Path) -> Iterator[Served]:
    settings = Settings(
        data_dir=tmp_path / ".qgs",
        database_url=store_url,
        broker_url="",
        api=ApiSettings(key_cache_s=0),
    )
    ops = Operations(settings, client=Client(settings, app=Sent()))
    master = master_secret(settings)
    agent = create_key(ops.repo, "alice", master=master, scopes=("approve",))
    person = create_key(
        ops.repo, "pat", master=master, operator=True,
        scopes=("view", "approve", "spot-check"), sees=("all",),
    )  # fmt: skip
    viewer = create_key(
        ops.repo, "olivia", master=master, operator=True, scopes=("view",), sees=("all",)
    )
    with serving(create_app(operations=ops)) as url:
        yield Served(url, ops, person, viewer, agent)
    ops.repo.dispose()


def _fields(response: httpx.Response) -> list[str]:
    body = assert_problem(response, 422)
    return [e["field"] for e in body["errors"]]


def test_a_nul_in_a_shadow_note_is_a_422_naming_it(served: Served) -> None:
    with served.http(served.person) as http:
        sent = http.post(
            "/v1/shadow",
            json={"kind": "rule", "name": "sql_drop", "in_shadow": True, "note": "nul\u0000here"},
        )
        fields = _fields(sent)
        assert any("note" in f for f in fields), sent.text
        assert "U+0000" in sent.text
        bell = http.post(
            "/v1/shadow",
            json={"kind": "rule", "name": "sql\u0007drop", "in_shadow": True, "note": "why"},
        )
        assert any("name" in f for f in _fields(bell)), bell.text
        blank = http.post(
            "/v1/shadow",
            json={"kind": "rule", "name": "sql_drop", "in_shadow": True, "note": "\u200b \u2060"},
        )
        assert 422 == blank.status_code and "note" in blank.text, blank.text
        # tab and newline are text
        fine = http.post(
            "/v1/shadow",
            json={"kind": "rule", "name": "sql_drop", "in_shadow": True, "note": "a\tb\nc"},
        )
        assert 200 == fine.status_code, fine.text


def test_a_nul_in_other_notes_is_a_422_naming_it(served: Served) -> None:
    with served.http(served.person) as http:
        asked = http.post("/v1/spot-checks", json={"submission_id": "s-1", "note": "a\u0000"})
        assert any("note" in f for f in _fields(asked)), asked.text
        label = {"decision_correct": True, "verdict": "PASS", "note": "a\u0000"}
        labelled = http.post("/v1/spot-checks/s-1/labels", json=label)
        assert any("note" in f for f in _fields(labelled)), labelled.text
    with served.http(served.agent) as http:
        for body in (
            {"decision": "reject", "note": "no\u0000"},
            {"decision": "approve", "by": "al\u0000ice"},
        ):
            approved = http.post("/v1/tasks/t-1/approval", json=body)
            named = "note" if "note" in body else "by"
            assert any(named in f for f in _fields(approved)), approved.text


def test_the_store_keeps_a_shadow_change_with_a_nul(served: Served) -> None:
    served.ops.repo.add_shadow_change(
        ShadowChange(kind="rule", name="sql_drop", in_shadow=True, by="pat", reason="a\u0000b")
    )
    kept = served.ops.repo.shadow_changes()["rule", "sql_drop"]
    assert "a\ufffdb" == kept.reason


def test_the_spot_check_scope_fix_is_a_command_that_works(served: Served) -> None:
    with served.http(served.viewer) as http:
        refused = http.post(
            "/v1/shadow", json={"kind": "rule", "name": "sql_drop", "in_shadow": True, "note": "x"}
        )
    assert 403 == refused.status_code, refused.text
    assert "qgs keys create --operator olivia --scope spot-check --sees all" in refused.text


@pytest.mark.parametrize("agent", ["\u0000", "bot\u0000", "bot\u001b[2J"])
def test_a_console_filter_with_a_nul_is_a_422_page(served: Served, agent: str) -> None:
    with signed_in(served.url, served.viewer.key) as http:
        page = http.get("/ui/live", params={"agent": agent})
        assert 422 == page.status_code, page.text
        assert "agent" in page.text and "control character" in page.text
        stream = http.get("/ui/events", params={"agent": agent})
        assert 422 == stream.status_code, stream.text
        # a zero-width agent filter is no filter
        assert 200 == http.get("/ui/live", params={"agent": "\u200b"}).status_code
