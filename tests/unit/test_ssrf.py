"""SSRF targets: addresses, encodings, schemes, and where a URL counts."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qgs_worker.core.detectors import scan_text, scan_tool_call
from qgs_worker.core.models import Severity, ToolCall
from qgs_worker.core.ssrf import find_ssrf

P0, P1, P2 = Severity.P0, Severity.P1, Severity.P2


class TestTargets:
    """Each published SSRF target class, with the severity it gets in an argument."""

    @pytest.mark.parametrize(
        ("url", "severity", "reason"),
        [
            # cloud metadata services
            ("http://169.254.169.254/latest/meta-data/iam/", P0, "cloud metadata"),
            ("http://[fd00:ec2::254]/latest/", P0, "cloud metadata"),
            ("http://metadata.google.internal/computeMetadata/v1/", P0, "cloud metadata"),
            ("http://100.100.100.200/latest/meta-data/", P0, "cloud metadata"),
            ("http://169.254.170.2/v2/credentials", P0, "cloud metadata"),
            ("http://0xa9fea9fe/", P0, "169.254.169.254 written as 0xa9fea9fe"),
            ("http://2852039166/", P0, "169.254.169.254 written as 2852039166"),
            ("http://[::ffff:169.254.169.254]/", P0, "cloud metadata"),
            # the host itself
            ("http://127.0.0.1:6379/", P1, "loopback"),
            ("http://localhost:8080/admin", P1, "loopback"),
            ("http://api.localhost/", P1, "internal host name"),
            ("http://[::1]/", P1, "loopback"),
            ("http://0.0.0.0:8000/", P1, "unspecified"),
            ("http://0/", P1, "0.0.0.0 written as 0"),
            ("http://0:6379/", P1, "unspecified"),
            ("http://[::]/", P1, "unspecified"),
            ("http://localtest.me/", P1, "loopback"),
            ("http://127.0.0.1.nip.io/", P1, "written as 127.0.0.1.nip.io"),
            ("http://app-127-0-0-1.sslip.io/", P1, "loopback"),
            # the encoded forms inet_aton accepts
            ("http://2130706433/", P1, "127.0.0.1 written as 2130706433"),
            ("http://0x7f000001/", P1, "127.0.0.1 written as 0x7f000001"),
            ("http://0177.0.0.1/", P1, "127.0.0.1 written as 0177.0.0.1"),
            ("http://127.1/", P1, "127.0.0.1 written as 127.1"),
            ("http://0x7f.0.0.1/", P1, "loopback"),
            # compatibility characters, read after NFKC as a browser reads them
            ("http://\u2460\u2461\u2466.0.0.1/", P1, "loopback"),  # circled digits
            ("http://\uff11\uff12\uff17.\uff10.\uff10.\uff11/", P1, "loopback"),  # full-width
            ("http://127\u30020\u30020\u30021/", P1, "loopback"),  # ideographic full stops
            ("http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54:8080/", P1, "loopback"),
            (
                "http://\u2460\u2465\u2468.\u2461\u2464\u2463.\u2460\u2465\u2468.\u2461\u2464\u2463/",
                P0,
                "cloud metadata",
            ),
            # private ranges and names
            ("http://10.0.0.5/admin", P1, "private network"),
            ("https://172.16.4.2/", P1, "private network"),
            ("http://192.168.1.1/cgi-bin/", P1, "private network"),
            ("http://100.64.0.1/", P1, "carrier-grade NAT"),
            ("http://169.254.1.1/", P1, "link-local"),
            ("http://[fe80::1%25eth0]/", P1, "link-local"),
            ("http://[fd12:3456::1]/", P1, "unique local"),
            ("http://db.internal:5432/", P1, "internal host name"),
            ("http://printer.local/", P1, "internal host name"),
            ("http://user:pw@127.0.0.1/", P1, "loopback"),
            ("http://example.com@127.0.0.1/", P1, "loopback"),
            # schemes
            ("file:///etc/passwd", P1, "file:// URL"),
            ("file:/etc/shadow", P1, "file:// URL"),
            ("gopher://127.0.0.1:6379/_FLUSHALL", P1, "gopher:// URL"),
            ("dict://localhost:11211/stats", P1, "dict:// URL"),
            ("tftp://10.0.0.1/boot", P1, "tftp:// URL"),
            # evasion without an internal target
            ("http://3627734734/", P2, "encoded form"),
        ],
    )
    def test_target(self, url: str, severity: Severity, reason: str) -> None:
        targets = find_ssrf(f"fetch {url} now")
        assert [severity] == [t.severity for t in targets]
        assert reason in targets[0].reason

    @pytest.mark.parametrize(
        "url",
        [
            "https://example.com/a?b=1",
            "http://8.8.8.8/",
            "https://1e100.net/",
            "https://www.informations.com",
            "postgres://admin@db.internal/app",  # a connection string, not a fetch
            "ldap://x.example.com/a",
            "http://192.0.2.1.example.com/",
            "http://[not-an-ip/",
            "http://\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com/",  # full-width example.com
            "http://" + "9" * 5000 + "/",  # no IPv4 number has that many digits
        ],
    )
    def test_not_a_target(self, url: str) -> None:
        assert [] == find_ssrf(url)

    @pytest.mark.parametrize(
        ("value", "found"),
        [
            ("10.0.0.5:8080/admin", True),
            ("localhost", True),
            ("169.254.169.254", True),
            ("www.informations.com", False),
            ("100", False),  # a bare small number is a port or an id
            ("1 Rue de la Paix", False),
        ],
    )
    def test_whole_values_need_no_scheme(self, value: str, found: bool) -> None:
        assert found == bool(find_ssrf(value, whole=True))
        assert [] == find_ssrf(value)

    @settings(max_examples=300, deadline=None)
    @given(st.integers(0, 2**32 - 1))
    def test_decimal_and_hex_forms_name_the_same_address(self, number: int) -> None:
        address = ipaddress.IPv4Address(number)
        dotted = find_ssrf(f"http://{address}/")
        for encoded in (str(number), hex(number)):
            targets = find_ssrf(f"http://{encoded}/")
            if number < 2**24 and encoded == str(number):
                continue  # small bare numbers are not read as addresses
            if dotted:
                assert [dotted[0].severity] == [t.severity for t in targets]
                assert str(address) in targets[0].reason
            else:
                assert [P2] == [t.severity for t in targets]  # a public address, encoded

    @settings(max_examples=300, deadline=None)
    @given(st.text())
    def test_never_raises(self, text: str) -> None:
        find_ssrf(text)
        find_ssrf(text, whole=True)


class TestWhereAUrlCounts:
    """URL-like arguments and fetching tools count; shell commands only for metadata; prose never."""

    @pytest.mark.parametrize(
        ("call", "severity"),
        [
            (ToolCall(name="fetch", arguments={"url": "http://169.254.169.254/"}), P0),
            (ToolCall(name="get_webpage", arguments={"url": "http://10.0.0.1/admin"}), P1),
            (ToolCall(name="create_webhook", arguments={"callback_url": "http://127.1/"}), P1),
            (ToolCall(name="connect", arguments={"host": "192.168.0.10"}), P1),
            (ToolCall(name="http_request", arguments={"spec": "GET file:///etc/passwd"}), P1),
            (ToolCall(name="bash", arguments={"command": "curl -s 169.254.169.254"}), None),
            (
                ToolCall(
                    name="bash",
                    arguments={"command": "curl http://169.254.169.254/latest/meta-data/"},
                ),
                P0,
            ),
            (ToolCall(name="bash", arguments={"command": "curl http://localhost:8000/"}), None),
            (
                ToolCall(name="send_email", arguments={"body": "dashboard: http://10.0.0.1/"}),
                None,
            ),
        ],
    )
    def test_in_a_tool_call(self, call: ToolCall, severity: Severity | None) -> None:
        found = [f for f in scan_tool_call(call) if f.category == "ssrf"]
        assert ([] if severity is None else [severity]) == [f.severity for f in found]
        if found:
            assert found[0].title.startswith(f"tool call {call.name} fetches ")
            assert found[0].title.endswith("(SSRF)")

    def test_prose_is_quiet(self) -> None:
        text = (
            "Start the server and open http://localhost:8000/ or http://127.0.0.1:8000/. On EC2, "
            "the instance metadata lives at http://169.254.169.254/latest/meta-data/."
        )
        assert [] == [f for f in scan_text(text) if f.category == "ssrf"]
