"""The site's own code (not in the wheel): MathML, page builders and what docs/hooks need."""
