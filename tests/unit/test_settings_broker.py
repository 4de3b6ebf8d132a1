"""Issue 11 settings: bounded broker clients, the worst-case check, one data folder per user."""

from __future__ import annotations

from pathlib import Path

import pytest

from qgs_worker.config.settings import JudgeSettings, Settings, WorkerSettings
from qgs_worker.errors import ConfigurationError


def _llm(**judge: object) -> JudgeSettings:
    return JudgeSettings.model_validate({"kind": "openai", "api_key": "k", **judge})


class TestWorstCase:
    """A job's worst case must fit inside the visibility timeout (issue 11, item 4)."""

    def test_the_issue_s_settings_are_refused(self) -> None:
        """A judge answering in 8 s with a 15 s visibility timeout gave 4 calls for one review."""
        with pytest.raises(ConfigurationError) as caught:
            Settings(
                judge=_llm(timeout_s=8),
                worker=WorkerSettings(
                    visibility_timeout_s=15, soft_time_limit_s=10, time_limit_s=12
                ),
            )
        message = str(caught.value)
        for name in (
            "QGS_WORKER__VISIBILITY_TIMEOUT_S",
            "QGS_JUDGE__TIMEOUT_S",
            "QGS_WORKER__RETRY_HOLD_MAX_S",  # a longer backoff is parked, not held
        ):
            assert name in message

    def test_defaults_fit(self) -> None:
        worst = Settings(judge=_llm()).worst_case_job_s()
        # three calls of 30 s, and a retry held at most QGS_WORKER__RETRY_HOLD_MAX_S (10 s):
        # the backoff's 90 s (60 s cap, +50% jitter) is parked in the store, not held
        assert (3 * 30 + 10.0) == worst["critic"][0]
        assert all(seconds < 3600 for seconds, _ in worst.values())

    def test_panel_and_rate_wait_count(self) -> None:
        settings = Settings(
            judge=_llm(
                kind="panel", panel_models=("a", "b"), requests_per_minute=20, rate_max_wait_s=5
            ),
            worker=WorkerSettings(judge_max_retries=0),
        )
        seconds, how = settings.worst_case_job_s()["critic"]
        # a rate-limit wait is held as a retry, up to the hold cap (longer ones are parked)
        assert 2 * 3 * (30 + 5) + 10.0 == seconds
        assert "QGS_JUDGE__RATE_MAX_WAIT_S" in how and "panel" in how
        assert "QGS_WORKER__RETRY_HOLD_MAX_S" in how

    def test_a_short_rate_window_is_held_whole(self) -> None:
        settings = Settings(
            judge=_llm(requests_per_minute=20, rate_window_s=5.0, rate_max_wait_s=2.0),
            worker=WorkerSettings(judge_max_retries=0),
        )
        seconds, how = settings.worst_case_job_s()["critic"]
        assert 3 * (30 + 2.0) + 5.0 * 1.2 == seconds
        assert "QGS_JUDGE__RATE_WINDOW_S" in how

    def test_audit_roles_count(self) -> None:
        settings = Settings(judge=_llm())
        seconds, how = settings.worst_case_job_s()["discriminate"]
        assert seconds >= 60 + 5
        assert "QGS_DISCRIMINATOR__ROLE_TIMEOUT_S" in how

    def test_the_rules_judge_waits_on_nothing(self) -> None:
        assert {} == Settings().worst_case_job_s()


class TestReviewLease:
    """A judge call's deadline < the review lease it holds < the visibility timeout (issue 31)."""

    def test_a_lease_longer_than_the_visibility_timeout_is_refused(self) -> None:
        """The critic's worst case (30 s) fits in 31 s, but its lease (30 s + 2 s) does not."""
        with pytest.raises(ConfigurationError) as caught:
            Settings(
                judge=_llm(timeout_s=10),
                worker=WorkerSettings(
                    judge_max_retries=0,
                    visibility_timeout_s=31,
                    soft_time_limit_s=11,
                    time_limit_s=12,
                ),
            )
        message = str(caught.value)
        assert "review lease (32 s" in message
        for name in ("QGS_JUDGE__TIMEOUT_S", "QGS_WORKER__VISIBILITY_TIMEOUT_S"):
            assert name in message

    def test_the_lease_covers_the_rate_limit_s_holds(self) -> None:
        """Each call may wait for the shared rate limit first: the lease covers those waits."""
        settings = Settings(
            judge=_llm(kind="panel", panel_models=("a", "b"), requests_per_minute=20,
                       rate_max_wait_s=5),
        )  # fmt: skip
        assert 2 * 3 * (30 + 5) + 2.0 == settings.review_lease_s()

    def test_the_attempt_s_calls_end_before_its_lease(self) -> None:
        from qgs_worker.queue.worker_runtime import review_limits

        limits = review_limits(Settings(judge=_llm(timeout_s=5)))
        assert 3 * 5 + 2.0 == limits.lease_s
        assert limits.judge_deadline_s is not None
        assert 3 * 5 <= limits.judge_deadline_s < limits.lease_s


class TestBrokerTimeouts:
    """Every broker connection is bounded by QGS_BROKER_TIMEOUT_S (issue 11, item 6)."""

    def test_celery_config(self) -> None:
        from qgs_worker.queue.celery_app import celery_config

        config = celery_config(Settings(broker_url="redis://127.0.0.1:6379/8", broker_timeout_s=4))
        options = config["broker_transport_options"]
        assert (2.0, 2.0) == (options["socket_timeout"], options["socket_connect_timeout"])
        assert 1 == config["task_publish_retry_policy"]["max_retries"]

    def test_default_is_at_most_ten_seconds(self) -> None:
        assert Settings().broker_timeout_s <= 10

    def test_the_guard_is_installed_once(self) -> None:
        from kombu.transport import redis as kombu_redis

        from qgs_worker.queue.celery_app import guard_redis_channel_close

        guarded = kombu_redis.Channel.close
        guard_redis_channel_close()
        assert guarded is kombu_redis.Channel.close
        assert getattr(guarded, "_qgs_guarded", False)


class TestDataFolder:
    """One store by default for every process of a user (issue 11, item 8)."""

    def test_default_is_absolute_and_the_same_from_any_folder(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
        seen = set()
        for folder in ("a", "b"):
            (tmp_path / folder).mkdir()
            monkeypatch.chdir(tmp_path / folder)
            seen.add(Settings().resolved_database_url)
        assert {f"sqlite:///{tmp_path / 'xdg' / 'qgs' / 'qgs.db'}"} == seen

    def test_a_relative_setting_is_made_absolute(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.chdir(tmp_path)
        monkeypatch.setenv("QGS_DATA_DIR", "here")
        assert tmp_path / "here" == Settings().data_dir

    def test_store_line_hides_the_password(self) -> None:
        line = Settings(database_url="postgresql+psycopg://qgs:s3cret@db:5432/qgs").store_line()
        assert "s3cret" not in line
        assert "postgresql+psycopg://qgs:***@db:5432/qgs" in line


class TestStoreTimeouts:
    """A store that accepts connections but never answers fails the connection (issue 11, item 6)."""

    def test_postgresql_gets_a_connect_timeout(self) -> None:
        url = Settings(database_url="postgresql+psycopg://u@db/qgs").resolved_database_url
        assert url.endswith("?connect_timeout=10")

    def test_an_explicit_one_is_kept(self) -> None:
        given = "postgresql+psycopg://u@db/qgs?sslmode=require&connect_timeout=3"
        assert given == Settings(database_url=given).resolved_database_url


class TestRelativeSqliteUrl:
    """A relative SQLite URL names the real file (issue 11, item 8: two folders, two stores)."""

    def test_made_absolute_from_the_current_folder(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.chdir(tmp_path)
        url = Settings(database_url="sqlite:///stores/qgs.db").resolved_database_url
        assert url == f"sqlite:///{tmp_path.resolve() / 'stores' / 'qgs.db'}"

    @pytest.mark.parametrize(
        "url", ["sqlite://", "sqlite:////tmp/qgs.db", "sqlite:///rel.db?mode=ro"]
    )
    def test_other_urls_are_kept(self, url: str) -> None:
        assert Settings(database_url=url).resolved_database_url == url
