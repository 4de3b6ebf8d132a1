"""What a deployment sets: the settings and their groups, the policy file, the tools file.

``settings`` (one ``Settings`` for every edge: ``QGS_*`` variables and ``.env``),
``settings_groups`` (the nested groups; ``GateConfig``, what the tool gate is built from),
``settings_defaults`` and ``short_settings`` (the defaults read without pydantic-settings, for
the short commands), ``webhook_settings`` (``QGS_WEBHOOKS__*``), ``policy_file`` (who may call
which tools) and ``toolgate_io`` (the gate built from the settings, with its I/O ports).

Layer: an adapter; may import the service, the core, ``errors`` and other adapters, with no cycle.
Imports: ``core``, ``errors``, ``limits``, ``roles``. Imported by: ``api``, ``cli``, ``client``,
``queue``, ``reports``, ``store``, ``telemetry``, ``webhooks``.
"""
