"""Scripts that make transcript files with the real producing libraries (run in subprocesses)."""
