"""The site's own code (not in the wheel): MathML, page builders, the explorers' frames, the lab page's model."""
