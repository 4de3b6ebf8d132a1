"""Benign and clean records of the tenth set (filled below)."""

from __future__ import annotations

from kit10 import Plain

BENIGN: list[Plain] = []
CLEAN: list[Plain] = []
