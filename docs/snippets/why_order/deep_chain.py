import sys
import threading

import glassgrad

DEFAULT_LIMIT = 1000  # CPython's default recursion limit; imported libraries may raise it


def scaled_chain(length, factor=1.000001, engine=glassgrad):
    """x, then `length` multiplications by one shared leaf k: v = x·k·k·…·k."""
    x, k = engine.Value(1.0, "x"), engine.Value(factor, "k")
    node = x
    for _ in range(length):
        node = engine.multiply(node, k)
    return node, x, k


def in_fresh_thread(function, *args, limit=DEFAULT_LIMIT):
    """Run function(*args) on a new thread (its depth count starts at zero, whatever
    the page's own call stack is) under Python's default limit. Returns (result, error)."""
    outcome = {}

    def target():
        try:
            outcome["result"] = function(*args)
        except RecursionError as error:
            outcome["error"] = error

    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        thread = threading.Thread(target=target)
        thread.start()
        thread.join()
    finally:
        sys.setrecursionlimit(previous)
    return outcome.get("result"), outcome.get("error")


def longest_chain_that_works(order_function, engine=glassgrad, high=2 * DEFAULT_LIMIT):
    """Binary search for the longest chain (built with `engine`) that `order_function` can order."""
    low = 1  # known to work; `high` is known to fail
    while high - low > 1:
        middle = (low + high) // 2
        root, _, _ = scaled_chain(middle, engine=engine)
        _, error = in_fresh_thread(order_function, root)
        low, high = (middle, high) if error is None else (low, middle)
    return low
