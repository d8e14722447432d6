"""The site's own code (not in the wheel): MathML, page builders, the explorers' frames and what docs/hooks need."""
