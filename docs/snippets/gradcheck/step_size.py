import math

from glassgrad import Value, backward
from glassgrad.examples import SIGMOID_INPUTS

UNIT_ROUNDOFF = 2.0**-53  # the relative error of one correctly rounded float64 operation
STEPS = [10 ** (-k / 4) for k in range(4, 53)]  # 1e-1 down to 1e-13, four per decade


def neuron_loss(w):
    """The chapter 3 neuron's loss (σ(w·x + b) − y)² as a function of its weight."""
    x, b, y = (SIGMOID_INPUTS[name] for name in ("x", "b", "y"))
    return ((w * x + b).sigmoid() - y) ** 2


# name: (function of one Value, the point where it is differentiated)
FUNCTIONS = {
    "exp(x) at x = 1": (lambda v: v.exp(), 1.0),
    "tanh(x) at x = 0.5": (lambda v: v.tanh(), 0.5),
    "neuron L(w) at w = 0.5": (neuron_loss, SIGMOID_INPUTS["w"]),
}


def engine_slope(fn, x):
    """df/dx from one backward pass."""
    leaf = Value(x)
    backward(fn(leaf), record=False)
    return leaf.grad


def difference_error(fn, x, eps, central=True):
    """gradcheck's error measure at one step size, for a central or forward difference."""
    exact = engine_slope(fn, x)
    f = lambda t: fn(Value(t)).data  # noqa: E731
    if central:
        numerical = (f(x + eps) - f(x - eps)) / (2 * eps)
    else:
        numerical = (f(x + eps) - f(x)) / eps
    return abs(exact - numerical) / max(1.0, abs(exact), abs(numerical))


curves = {name: [difference_error(fn, x, eps) for eps in STEPS] for name, (fn, x) in FUNCTIONS.items()}
exp_fn, exp_x = FUNCTIONS["exp(x) at x = 1"]
forward_exp = [difference_error(exp_fn, exp_x, eps, central=False) for eps in STEPS]


def central_model(eps):
    """Predicted error for exp at 1: truncation eps²·e/6 plus rounding u·e/eps, over e."""
    # Every derivative of exp is exp, so |f| = |f'''| = |f'| = e at x = 1.
    return (eps**2 * math.e / 6 + UNIT_ROUNDOFF * math.e / eps) / math.e


def loglog_slope(xs, ys):
    """Least-squares slope of log10(y) against log10(x)."""
    lx = [math.log10(x) for x in xs]
    ly = [math.log10(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def tex(number, digits=2):
    """A float for prose (TeX): 1.1\\times10^{-16} when tiny or huge, 0.25 otherwise."""
    text = f"{number:.{digits}g}"
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    return f"{mantissa}\\times10^{{{int(exponent)}}}" if mantissa != "1" else f"10^{{{int(exponent)}}}"
