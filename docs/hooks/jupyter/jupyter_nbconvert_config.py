"""nbconvert's configuration for the notebook page, found through JUPYTER_CONFIG_PATH (docs/hooks/notebook.py sets it).

mkdocs-jupyter executes the notebook with nbconvert's ExecutePreprocessor and has no option for this: after the
run, each cell's consecutive outputs of one stream are joined into one (CoalesceStreamsPreprocessor, moved from
before the run, where nbconvert lists it, to just after). The kernel sends a cell's printed text as one output
or as several, by its flush timing; joined, every build renders the same page.
"""

from nbconvert.exporters.exporter import Exporter

COALESCE = "nbconvert.preprocessors.CoalesceStreamsPreprocessor"
EXECUTE = "nbconvert.preprocessors.ExecutePreprocessor"

order = [name for name in Exporter.class_traits()["default_preprocessors"].default() if name != COALESCE]
order.insert(order.index(EXECUTE) + 1, COALESCE)
c = get_config()  # noqa: F821 - the name Jupyter's configuration loader provides
c.Exporter.default_preprocessors = order
c.CoalesceStreamsPreprocessor.enabled = True
