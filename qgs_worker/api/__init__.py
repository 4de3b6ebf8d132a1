"""QGS as a service: transports over one operations layer (``qgs_worker.api.operations``).

``operations`` holds what every transport offers (``Operations``, ``Principal``,
``DecisionResult``); ``http`` is the HTTP API (``qgs serve``: FastAPI, imported only there).
An MCP server is a second thin transport over the same ``Operations``, and the operator
console (``console``, pages under ``/ui`` of ``qgs serve``) a third; its reads are
``operator_views``.

Layer: a face, under ``cli``; may import ``client`` and everything below the faces. Imports:
``client``, ``config``, ``core``, ``encoders``, ``errors``, ``limits``, ``queue``, ``reports``,
``service``, ``store``, ``telemetry``, ``webhooks``. Imported by: ``cli``.
"""

from qgs_worker.api.operations import WAIT_MAX_S, DecisionResult, Operations, Principal

__all__ = ["WAIT_MAX_S", "DecisionResult", "Operations", "Principal"]
