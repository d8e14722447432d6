"""Code that builds the site: what the pages need at build time and in the reader's browser, outside the engine."""
