import math
import sys

Z_GRID = [float(z) for z in range(-800, 801)]
results = {form: [run(form, z) for z in Z_GRID] for form in FORMS}
references = [exact(z) for z in Z_GRID]
value_error = {
    form: [ulps(s, ref[0]) for (s, _), ref in zip(results[form], references)] for form in FORMS
}
grad_error = {
    form: [ulps(g, ref[1]) for (_, g), ref in zip(results[form], references)] for form in FORMS
}

# Where float64 limits bite, in z:
EXP_OVERFLOW = -math.log(sys.float_info.max)  # below: exp(−z) is inf
LAST_SUBNORMAL = math.log(math.ulp(0.0)) - math.log(2)  # below: even exact σ(z) rounds to 0
SAVED_ONE = 53 * math.log(2)  # above: 1 + exp(−z) rounds to 1, so s = 1 exactly

SQUARE_UNDERFLOW = LAST_SUBNORMAL / 2  # below: s·s (the atomic 1/d local is −s²) is 0
SQUARE_SUBNORMAL = math.log(sys.float_info.min) / 2  # below: s·s is subnormal, fewer digits


def verdict(computed, reference, error):
    """One phrase per result: nan, a wrong zero, within 4 ulps, or digits lost."""
    if computed != computed:
        return "nan"
    if computed == 0.0 and float(reference) != 0.0:
        return "0, but the exact answer is not"
    return "within 4 ulps" if error <= 4 else "loses digits"


def regimes(form, which):
    """Runs of consecutive grid points with one verdict: (first z, last z, verdict)."""
    index = 0 if which == "value" else 1
    errors = value_error[form] if which == "value" else grad_error[form]
    runs = []
    for z, result, reference, error in zip(Z_GRID, results[form], references, errors):
        word = verdict(result[index], reference[index], error)
        if runs and runs[-1][2] == word:
            runs[-1][1] = z
        else:
            runs.append([z, z, word])
    return [tuple(run) for run in runs]


def regime_table(which):
    """A Markdown table of every form's runs for the value or the gradient."""
    rows = ["| form | z from | z to | points | result |"]
    rows.append("| --- | ---: | ---: | ---: | --- |")
    for form in FORMS:
        for first, last, word in regimes(form, which):
            count = int(last - first) + 1
            rows.append(f"| {form} | {first:g} | {last:g} | {count} | {word} |")
    return "\n".join(rows)


def tex(number, digits=3):
    """A number for prose (TeX): 7.12\\times10^{-218} if tiny or huge, else 0.25."""
    text = mpmath.nstr(mpmath.mpf(number), digits, min_fixed=-4, max_fixed=6)
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    return f"{mantissa}\\times10^{{{int(exponent)}}}"


def cell(number):
    """A number for a table cell, four significant digits (mpmath or float)."""
    if isinstance(number, float):
        return f"{number:.4g}"
    return f"{float(number):.4g}" if float(number) != 0.0 else mpmath.nstr(number, 4)
