"""The pure domain of QGS: the standard library and a few pure libraries (the Layer line).

Nothing here imports celery, redis, sqlmodel or openai (a test keeps it so); the adapters
around it (jobs, store, judges, CLI) depend on it, never the other way round.

Layer: the core, at the bottom; may import ``errors`` only (besides the standard library, pydantic,
numpy, jsonschema, fastjsonschema and re2). Imports: ``errors``. Imported by: ``api``, ``cli``,
``client``, ``config``, ``encoders``, ``judges``, ``limits``, ``qgs_worker``, ``queue``,
``reports``, ``roles``, ``service``, ``store``, ``telemetry``, ``transcripts``, ``webhooks``.
"""
