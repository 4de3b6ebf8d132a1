"""tmp"""
CLEAN: list = []
