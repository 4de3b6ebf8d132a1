"""Reports over the results store: the JSON document, the terminal table, Markdown and HTML.

``report`` builds the JSON document through the store's report port
(``qgs_worker.service.report_model``); ``report_filter`` keeps the tasks asked for;
``report_tally`` counts the summary as tasks go by; ``report_render`` (table, Markdown),
``report_html`` and ``report_plots`` (one self-contained page with Plotly figures, from
``templates/``); ``runs`` (an audit run's settings fingerprint) and ``run_diff`` (``qgs diff``).

Layer: an adapter. May import: ``service``, ``core``, ``errors`` and another adapter where no
cycle forms (today ``config``, ``judges``, ``queue``). Imported by: the faces (``cli``,
``api``).
"""
