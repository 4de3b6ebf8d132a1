"""A short command's settings: ``DefaultSettings`` when nothing is set, else ``Settings``.

``settings_defaults`` reads the defaults without pydantic-settings, and ``settings`` builds on
it; the choice between the two, which needs both, is made here (issue 15: ``qgs check-tool``
and ``qgs scan`` start without pydantic-settings when nothing is configured).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from qgs_worker.config.settings_defaults import DefaultSettings, unconfigured

if TYPE_CHECKING:
    from qgs_worker.config.settings import Settings

__all__ = ["full_settings", "short_settings"]


def short_settings() -> DefaultSettings | Settings:
    """The settings of a short command, read without pydantic-settings when nothing is set.

    Returns:
        ``DefaultSettings`` when ``unconfigured()``, else ``Settings()``.

    Raises:
        ConfigurationError: As ``Settings()`` (only when something is configured).
        pydantic.ValidationError: As ``Settings()``.
    """
    if unconfigured():
        return DefaultSettings.read()
    from qgs_worker.config.settings import Settings

    return Settings()


def full_settings(settings: DefaultSettings | Settings) -> Settings:
    """The same settings as a ``Settings`` object (imports pydantic-settings when it must)."""
    if not isinstance(settings, DefaultSettings):
        return settings
    from qgs_worker.config.settings import Settings

    return Settings()
