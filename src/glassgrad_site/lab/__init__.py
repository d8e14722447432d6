"""The training lab's Python (docs/lab.md): the page's model of a training run, one module per job.

- `settings`: the run's settings, every field validated and clamped, with a message for each change;
- `data`: the data sets, points in the plane with their labels;
- `model`: the recipe (one example's loss, the batches, the learning rate) and `Lab`, one training run;
- `graph`: one example's loss graph as Inspect shows it (named nodes, a node per neuron);
- `export`: the run as a plain Python program;
- `page`: the functions the lab page calls, one at a time, in its long-lived Python (plain data in and out).
"""
