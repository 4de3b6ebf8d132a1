"""``python -m qgs_worker.cli``: the ``qgs`` command."""

from qgs_worker.cli import main

main()
