"""Build a chain of n multiplications in a fresh Python process; print how long it took and
what the cycle collector did meanwhile (time in all collections, number of full ones).  Usage: python collector.py ENGINE N on|off"""
import gc
import importlib
import json
import sys
import time

engine = importlib.import_module(sys.argv[1])  # "glassgrad" or "glassgrad.scratch"
n = int(sys.argv[2])
full = {"count": 0, "seconds": 0.0, "started": 0.0}


def on_collection(phase, info):
    if phase == "start":
        full["started"] = time.perf_counter()
    else:
        full["seconds"] += time.perf_counter() - full["started"]
        full["count"] += info["generation"] == 2  # a full one visits every object it tracks


gc.callbacks.append(on_collection)
if sys.argv[3] == "off":
    gc.disable()
started = time.perf_counter()
x, k = engine.Value(1.0, "x"), engine.Value(1.0000001, "k")
y = x
for _ in range(n):
    y = engine.multiply(y, k)
print(json.dumps({"seconds": time.perf_counter() - started,
                  "full_collections": full["count"], "collecting": full["seconds"]}))
