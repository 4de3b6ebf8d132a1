"""The pure domain of QGS: stdlib and pydantic only.

Nothing here imports celery, redis, sqlmodel or openai (a test keeps it so); the adapters
around it (jobs, store, judges, CLI) depend on it, never the other way round.

Layer: the core, the bottom of QGS (``pyproject.toml``'s import-linter contracts). May import:
``errors`` only, besides the standard library, pydantic and numpy. Imported by: every other
package.
"""
