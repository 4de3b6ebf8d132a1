"""Callback URLs: refused when they point inside (SSRF), in every spelling; checked at the edge."""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

import pytest

from qgs_worker.client import Client
from qgs_worker.config.settings import Settings
from qgs_worker.config.webhook_settings import WebhookSettings
from qgs_worker.core.callback_url import Address, address_refusal, parse_callback_url
from qgs_worker.errors import CallbackUrlError, WebhookSecretMissingError
from qgs_worker.store import OutboxRow, TaskRow
from qgs_worker.webhooks import CallbackUnresolvedError, check_callback, resolve_callback

# Every spelling of an inside address an attacker has tried (PayloadsAllTheThings' SSRF page,
# the OWASP cheat sheet): refused without QGS_WEBHOOKS__ALLOW_PRIVATE.
INSIDE = [
    ("http://127.0.0.1/hook", "loopback"),
    ("http://127.8.9.10:8080/hook", "loopback"),
    ("http://2130706433/", "loopback"),  # decimal
    ("http://0x7f000001/", "loopback"),  # hex
    ("http://0x7f.0x0.0x0.0x1/", "loopback"),  # hex per part
    ("http://0177.0.0.1/", "loopback"),  # octal
    ("http://017700000001/", "loopback"),  # octal, one part
    ("http://127.1/", "loopback"),  # short
    ("http://127.0.1/", "loopback"),
    ("http://①②⑦.0.0.1/", "loopback"),  # circled digits (NFKC)
    ("http://１２７.０.０.１/", "loopback"),  # full-width digits
    ("http://127。0。0。1/", "loopback"),  # ideographic full stops
    ("http://[::1]/", "loopback"),
    ("http://[0:0:0:0:0:0:0:1]/", "loopback"),
    ("http://[::ffff:127.0.0.1]/", "loopback"),  # IPv4-mapped
    ("http://[::ffff:7f00:1]/", "loopback"),  # IPv4-mapped, hex
    ("http://[2002:7f00:1::]/", "loopback"),  # 6to4 of 127.0.0.1
    ("http://localhost/", "loopback"),
    ("http://LOCALHOST.:9000/", "loopback"),
    ("http://app.localhost/", "loopback"),
    ("http://localtest.me/", "loopback"),
    ("http://127.0.0.1.nip.io/", "loopback"),  # wildcard DNS
    ("http://10.0.0.5/", "private"),
    ("http://172.16.3.4/", "private"),
    ("http://172.31.255.255/", "private"),
    ("http://192.168.1.1/", "private"),
    ("http://167772165/", "private"),  # 10.0.0.5, decimal
    ("http://0xc0a80101/", "private"),  # 192.168.1.1, hex
    ("http://[::ffff:10.0.0.5]/", "private"),
    ("http://[fd12:3456::1]/", "private"),  # ULA
    ("http://[fc00::1]/", "private"),
    ("http://100.64.0.1/", "shared"),  # carrier-grade NAT
    ("http://169.254.1.1/", "link-local"),
    ("http://[fe80::1]/", "link-local"),
    ("http://[fe80::1%25eth0]/", "link-local"),  # with a zone id
    ("http://printer.local/", "internal host name"),
    ("http://db.internal/", "internal host name"),
    ("http://192.0.2.10/", "private"),  # documentation range: not globally reachable
    ("http://198.18.0.1/", "private"),  # benchmarking range
]
# Refused even with QGS_WEBHOOKS__ALLOW_PRIVATE: never a receiver.
NEVER = [
    ("http://169.254.169.254/latest/meta-data/", "metadata"),
    ("http://2852039166/", "metadata"),  # 169.254.169.254, decimal
    ("http://0xa9fea9fe/", "metadata"),  # hex
    ("http://0251.0376.0251.0376/", "metadata"),  # octal
    ("http://[::ffff:169.254.169.254]/", "metadata"),
    ("http://[::ffff:a9fe:a9fe]/", "metadata"),
    ("http://[fd00:ec2::254]/", "metadata"),  # AWS IPv6
    ("http://169.254.170.2/v2/credentials", "metadata"),  # ECS task credentials
    ("http://100.100.100.200/", "metadata"),  # Alibaba Cloud
    ("http://192.0.0.192/", "metadata"),  # Oracle Cloud
    ("http://168.63.129.16/machine?comp=goalstate", "metadata"),  # Azure WireServer
    ("http://2822734096/", "metadata"),  # 168.63.129.16, decimal
    ("http://[::ffff:168.63.129.16]:32526/", "metadata"),  # Azure host agent, mapped
    ("http://metadata.google.internal/computeMetadata/v1/", "metadata"),
    ("http://metadata/", "metadata"),
    ("http://instance-data/", "metadata"),
    ("http://0.0.0.0:8000/", "unspecified"),
    ("http://0/", "unspecified"),
    ("http://[::]/", "unspecified"),
    ("http://224.0.0.1/", "multicast"),
    ("http://239.255.255.250:1900/", "multicast"),
    ("http://[ff02::1]/", "multicast"),
    ("http://240.0.0.1/", "reserved"),
    ("http://255.255.255.255/", "broadcast"),
    ("http://[::127.0.0.1]/", "(::7f00:1)"),  # IPv4-compatible (deprecated): reserved ::/8
    ("http://[64:ff9b::7f00:1]/", "(64:ff9b::7f00:1)"),  # NAT64 of 127.0.0.1: reserved
]
MALFORMED = [
    ("ftp://example.com/hook", "http:// or https://"),
    ("file:///etc/passwd", "http:// or https://"),
    ("gopher://example.com:70/_x", "http:// or https://"),
    ("javascript:alert(1)", "http:// or https://"),
    ("example.com/hook", "http:// or https://"),
    ("https://user:pw@example.com/hook", "user name or password"),
    ("https://token@example.com/hook", "user name or password"),
    ("https://example.com@127.0.0.1/", "user name or password"),
    ("https:///hook", "no host"),
    ("https://exa mple.com/", "whitespace"),
    ("https://example.com/\nX-Injected: 1", "whitespace"),
    ("https://example.com:99999/", "not a valid URL"),
    ("https://example.com:0/", "port 0"),
    ("https://example.com/" + "a" * 3000, "over the limit"),
]
PUBLIC = [
    "https://agent.example.com/qgs-hook",
    "http://example.com:8080/hook?task=1",
    "https://8.8.8.8/hook",
    "https://[2606:4700:4700::1111]/hook",
    "http://[::ffff:8.8.8.8]/hook",  # a mapped public address is that address
    "https://134744072/hook",  # 8.8.8.8 in decimal: public, so allowed
]


class TestRefusedAddresses:
    """Inside addresses are refused in every spelling, naming the field and the fix."""

    @pytest.mark.parametrize(("url", "what"), INSIDE)
    def test_inside_is_refused_without_the_setting(self, url: str, what: str) -> None:
        with pytest.raises(CallbackUrlError) as raised:
            parse_callback_url(url)
        message = str(raised.value)
        assert "'callback_url'" in message and what in message
        assert "QGS_WEBHOOKS__ALLOW_PRIVATE=true" in message

    @pytest.mark.parametrize(("url", "what"), INSIDE)
    def test_inside_is_allowed_with_the_setting(self, url: str, what: str) -> None:
        # Names pass the form check here; their addresses are checked when they resolve.
        assert url == parse_callback_url(url, allow_private=True).url

    @pytest.mark.parametrize(("url", "what"), NEVER)
    def test_never_receivers_are_refused_even_with_the_setting(self, url: str, what: str) -> None:
        for allow in (False, True):
            with pytest.raises(CallbackUrlError) as raised:
                parse_callback_url(url, allow_private=allow)
            assert what in str(raised.value) and "never sent there" in str(raised.value)

    @pytest.mark.parametrize("url", [u for u, what in NEVER if what == "metadata"])
    def test_a_metadata_refusal_says_why(self, url: str) -> None:
        """The fix explains (break test, finding 11): not only "refused (SSRF protection)"."""
        for allow in (False, True):
            with pytest.raises(CallbackUrlError) as raised:
                parse_callback_url(url, allow_private=allow)
            message = str(raised.value)
            assert "whatever the settings" in message and "credentials" in message
            assert "ALLOW_PRIVATE" not in message  # no setting allows it: none is offered

    @pytest.mark.parametrize(("url", "what"), MALFORMED)
    def test_malformed_urls_are_refused(self, url: str, what: str) -> None:
        with pytest.raises(CallbackUrlError, match=what) as raised:
            parse_callback_url(url, allow_private=True)
        assert str(raised.value).startswith("'callback_url'")

    def test_a_url_that_is_no_string_is_refused(self) -> None:
        with pytest.raises(CallbackUrlError, match=r"must be a URL string.*got int"):
            parse_callback_url(42)

    @pytest.mark.parametrize("url", PUBLIC)
    def test_public_receivers_pass(self, url: str) -> None:
        target = parse_callback_url(url)
        assert target.scheme in {"http", "https"} and target.port > 0

    def test_the_field_name_is_the_callers(self) -> None:
        with pytest.raises(CallbackUrlError, match=r"^'task\.callback_url'"):
            parse_callback_url("http://10.0.0.1/", field="task.callback_url")


class TestAddressClasses:
    """``address_refusal`` on addresses as a resolver returns them."""

    @pytest.mark.parametrize(
        ("address", "allowed_with_setting"),
        [
            ("127.0.0.1", True),
            ("10.1.2.3", True),
            ("fe80::abcd", True),
            ("169.254.169.254", False),
            ("168.63.129.16", False),  # Azure WireServer: public-looking, the host's own
            ("0.0.0.0", False),
            ("ff05::2", False),
            ("2001:0:4136:e378:8000:63bf:3fff:fdd2", True),  # Teredo: not globally reachable
        ],
    )
    def test_classes(self, address: str, allowed_with_setting: bool) -> None:
        ip = ipaddress.ip_address(address)
        assert address_refusal(ip) is not None
        assert (address_refusal(ip, allow_private=True) is None) == allowed_with_setting

    @pytest.mark.parametrize("address", ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"])
    def test_public(self, address: str) -> None:
        assert address_refusal(ipaddress.ip_address(address)) is None


def table(mapping: dict[str, Sequence[str]]) -> object:
    """A resolver over a fixed table (no DNS): unknown names do not resolve."""

    def resolve(host: str, port: int) -> list[Address]:
        if host not in mapping:
            raise OSError(f"[Errno -2] Name or service not known: {host!r}")
        return [ipaddress.ip_address(a) for a in mapping[host]]

    return resolve


class TestResolution:
    """Every address a name resolves to is checked (DNS can hand out an inside one)."""

    RESOLVER = staticmethod(
        table(
            {
                "hooks.example.com": ["93.184.215.14"],
                "rebind.example.com": ["127.0.0.1"],
                "both.example.com": ["93.184.215.14", "10.0.0.7"],
                "meta.example.com": ["169.254.169.254"],
                "azure.example.com": ["168.63.129.16"],
                "v6.example.com": ["::ffff:192.168.0.1"],
            }
        )
    )

    def test_a_public_name_resolves_to_its_addresses(self) -> None:
        found = resolve_callback(
            "https://hooks.example.com/h", allow_private=False, resolve=self.RESOLVER
        )
        assert (ipaddress.ip_address("93.184.215.14"),) == found.addresses

    @pytest.mark.parametrize(
        ("host", "what"),
        [
            ("rebind.example.com", "loopback"),
            ("both.example.com", "private"),
            ("meta.example.com", "metadata"),
            ("azure.example.com", "metadata"),
            ("v6.example.com", "private"),
        ],
    )
    def test_a_name_resolving_inside_is_refused(self, host: str, what: str) -> None:
        with pytest.raises(CallbackUrlError, match=rf"{what}.*resolves to it") as raised:
            resolve_callback(f"https://{host}/h", allow_private=False, resolve=self.RESOLVER)
        assert not isinstance(raised.value, CallbackUnresolvedError)

    def test_a_name_that_does_not_resolve_is_refused(self) -> None:
        with pytest.raises(CallbackUnresolvedError, match="does not resolve"):
            resolve_callback("https://nope.example/h", allow_private=False, resolve=self.RESOLVER)

    def test_a_literal_is_not_resolved(self) -> None:
        def never(host: str, port: int) -> list[Address]:
            raise AssertionError("a literal address must not be resolved")

        found = resolve_callback("http://127.0.0.1:9/h", allow_private=True, resolve=never)
        assert (ipaddress.ip_address("127.0.0.1"),) == found.addresses


def settings_with(tmp_path: object, **webhooks: object) -> Settings:
    return Settings(
        data_dir=f"{tmp_path}/.qgs",
        database_url="sqlite://",
        broker_url="redis://127.0.0.1:1/0",
        webhooks=WebhookSettings(**webhooks),
    )


class TestAtTheEdge:
    """The client refuses a bad callback before it stores or sends anything."""

    def test_no_secret_refuses_the_callback(self, tmp_path: object) -> None:
        settings = settings_with(tmp_path, allow_private=True)
        with pytest.raises(WebhookSecretMissingError, match="QGS_WEBHOOKS__SECRET"):
            check_callback("http://127.0.0.1:9/h", settings)

    def test_start_task_with_an_inside_url_stores_nothing(self, tmp_path: object) -> None:
        client = Client(settings_with(tmp_path, secret="s"))
        with pytest.raises(CallbackUrlError, match=r"'callback_url'.*loopback"):
            client.start_task("write an article about AI", callback_url="http://127.0.0.1/h")
        assert 0 == client.repo.count_rows(TaskRow)

    def test_start_task_without_a_secret_stores_nothing(self, tmp_path: object) -> None:
        client = Client(settings_with(tmp_path, allow_private=True))
        with pytest.raises(WebhookSecretMissingError):
            client.start_task("write an article about AI", callback_url="http://127.0.0.1/h")
        assert 0 == client.repo.count_rows(TaskRow)

    def test_submit_with_a_metadata_url_queues_nothing(self, tmp_path: object) -> None:
        client = Client(settings_with(tmp_path, secret="s", allow_private=True))
        task = client.start_task("write an article about AI")
        with pytest.raises(CallbackUrlError, match="metadata"):
            client.submit(task.id, "text", callback_url="http://169.254.169.254/latest")
        assert 0 == client.repo.count_rows(OutboxRow)

    def test_start_task_stores_a_good_callback(self, tmp_path: object) -> None:
        client = Client(settings_with(tmp_path, secret="s", allow_private=True))
        task = client.start_task("write an article", callback_url="http://127.0.0.1:9/h")
        assert "http://127.0.0.1:9/h" == client.repo.get_task(task.id).callback_url
