"""What the figure modules share (imported once matplotlib may be): titles, saving, and the axis of
sizes in powers of two."""
import math
import os
import sys

import matplotlib.pyplot as plt
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator


def titled(ax, what, gpu):
    ax.set_title(what + (f"\n{gpu}" if gpu else ""), fontsize=10)


def save(fig, out, name):
    path = os.path.join(out, name)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
    print(f"wrote {path}", file=sys.stderr)


def power_of_two(n):
    return n & (n - 1) == 0


def powers_of_two_axis(axis):
    """Ticks at the even powers of two labelled 2^k: sizes from 2^10 to 2^28 stay readable."""
    lo, hi = axis.get_view_interval()
    exponents = range(max(0, math.floor(math.log2(lo))), math.ceil(math.log2(hi)) + 1)
    axis.set_major_locator(FixedLocator([2.0 ** k for k in exponents if k % 2 == 0]))
    axis.set_minor_locator(NullLocator())
    axis.set_major_formatter(FuncFormatter(lambda value, _: f"$2^{{{round(math.log2(value))}}}$"))


def gbps_against_n(ax, xlabel, ylabel):
    """Log-log axes: n in powers of two, GB/s in plain numbers, a grid."""
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    powers_of_two_axis(ax.xaxis)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, which="both", alpha=0.3)
