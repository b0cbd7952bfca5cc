"""Figures and table for this part of sc_bench's CSV (called by plot.py)."""


def plot(rows, gpu, out):
    pass


def markdown(rows):
    pass
