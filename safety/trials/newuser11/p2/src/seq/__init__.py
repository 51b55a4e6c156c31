"""p2: sequence model."""
