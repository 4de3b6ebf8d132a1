"""What a deployment sets: the settings and their groups, the policy file, the tools file.

``settings`` (one ``Settings`` for every edge: ``QGS_*`` variables and ``.env``),
``settings_groups`` (the nested groups; ``GateConfig``, what the tool gate is built from),
``settings_defaults`` and ``short_settings`` (the defaults read without pydantic-settings, for
the short commands), ``webhook_settings`` (``QGS_WEBHOOKS__*``), ``policy_file`` (who may call
which tools) and ``toolgate_io`` (the gate built from the settings, with its I/O ports).

Layer: an adapter. May import: ``service``, ``core``, ``errors`` and another adapter where no
cycle forms (today ``limits``: the gate's limiter; ``roles``: the registered audit roles).
Imported by: the faces and every adapter that reads settings (``queue``, ``store``,
``telemetry``, ``webhooks``, ``reports``).
"""
