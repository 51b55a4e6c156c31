"""p4: axis-name constants read elsewhere."""
