"""Build a chain of n multiplications in a fresh Python process and print what the cycle collector
did meanwhile: how many collections of each generation ran, and how many of the chain's objects the
full ones visited. Usage: python collector.py ENGINE N"""
import gc
import importlib
import json
import sys

engine = importlib.import_module(sys.argv[1])  # "glassgrad" or "glassgrad.scratch"
n = int(sys.argv[2])
collections = [0, 0, 0]  # young (0), middle (1), full (2)
visited_by_full = 0


def on_collection(phase, info):
    global visited_by_full
    if phase == "start":
        collections[info["generation"]] += 1
        if info["generation"] == 2:  # a full collection visits every object the collector tracks
            visited_by_full += len(gc.get_objects()) - tracked_before


x, k = engine.Value(1.0, "x"), engine.Value(1.0000001, "k")
gc.collect()  # start counting from empty generations, whatever the imports left behind
tracked_before = len(gc.get_objects())  # Python's own objects: not the chain's, and not the same on every machine
gc.callbacks.append(on_collection)
y = x
for _ in range(n):
    y = engine.multiply(y, k)
gc.callbacks.remove(on_collection)
print(json.dumps({"collections": collections, "visited_by_full": visited_by_full}))
