"""tmp"""
BENIGN: list = []
