"""The HTTP client refuses what the in-process client refuses, before anything is sent (issue 31)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from qgs_worker.client.remote import ApiClient
from qgs_worker.config.settings import Settings
from qgs_worker.errors import InputError
from qgs_worker.service.inputs import read_text_file


def refusing_transport() -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        raise AssertionError(f"nothing may be sent: {request.method} {request.url}")

    return httpx.MockTransport(handler)


@pytest.fixture
def remote() -> ApiClient:
    return ApiClient(
        base_url="http://127.0.0.1:9", api_key="qgs_k1_secret", transport=refusing_transport()
    )


class TestApiClientInputs:
    """Requirements as a lone string and a deliverable that is not text are refused at once."""

    @pytest.mark.parametrize("field", ["requirements", "criteria"])
    def test_a_lone_string_is_not_a_list(self, remote: ApiClient, field: str) -> None:
        with pytest.raises(InputError, match=f"'{field}' must be a list of strings"):
            remote.start_task("write an article", **{field: "cite"})  # type: ignore[arg-type]

    @pytest.mark.parametrize("deliverable", [None, 5, b"x"])
    def test_a_deliverable_that_is_not_text(self, remote: ApiClient, deliverable: object) -> None:
        with pytest.raises(InputError, match="'deliverable' must be a string"):
            remote.submit("t-1", deliverable)  # type: ignore[arg-type]


class TestFilesAndFolders:
    """A device is named as such; a data folder still works."""

    def test_a_device_is_not_a_regular_file(self) -> None:
        with pytest.raises(InputError, match="not a regular file"):
            read_text_file("/dev/null", what="a deliverable file", limit_bytes=10, setting="X")

    def test_a_data_dir_still_works(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
        monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path))
        assert tmp_path == Settings().data_dir
