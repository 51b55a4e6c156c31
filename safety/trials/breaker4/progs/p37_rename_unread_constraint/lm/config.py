HIDDEN_SPEC = (None, "model")
