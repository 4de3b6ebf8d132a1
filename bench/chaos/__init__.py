"""`make chaos`: the harness that proves nothing is lost (see ``__main__``)."""
