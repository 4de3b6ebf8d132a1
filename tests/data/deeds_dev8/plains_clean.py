"""Clean records of the eighth set (filled below)."""
CLEAN: list = []
