import math

import mpmath

mpmath.mp.dps = 50  # 50 significant digits: far beyond float64's 16


def exact(z):
    """σ(z) and σ′(z) = σ(z)·σ(−z), to 50 digits (not rounded to float64)."""
    s = 1 / (1 + mpmath.exp(-mpmath.mpf(z)))
    s_mirror = 1 / (1 + mpmath.exp(mpmath.mpf(z)))
    return s, s * s_mirror


def ulps(computed, reference):
    """Error of a float64 result, in ulps of the correctly rounded answer."""
    if computed != computed:
        return math.nan  # a nan result has no error size: it is plotted apart
    return float(abs(mpmath.mpf(computed) - reference) / math.ulp(float(reference)))
