"""Reports over the results store: the JSON document, the terminal table, Markdown and HTML.

``report`` builds the JSON document through the store's report port
(``qgs_worker.service.report_model``); ``report_filter`` keeps the tasks asked for;
``report_tally`` counts the summary as tasks go by; ``report_render`` (table, Markdown),
``report_html`` and ``report_plots`` (one self-contained page with Plotly figures, from
``templates/``); ``runs`` (an audit run's settings fingerprint) and ``run_diff`` (``qgs diff``).

Layer: an adapter; may import the service, the core, ``errors`` and other adapters, with no cycle.
Imports: ``config``, ``core``, ``errors``, ``judges``, ``queue``, ``service``. Imported by:
``api``, ``cli``.
"""
