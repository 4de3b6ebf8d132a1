"""Benign look-alikes of the eighth set (filled below)."""
BENIGN: list = []
