"""A small training package: the data helpers, the jitted steps and the loops live in separate modules."""
