"""The site's own Python: build-time figures and the lab page's model (not part of the glassgrad wheel)."""
