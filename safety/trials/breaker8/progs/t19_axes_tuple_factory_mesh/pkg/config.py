AXES = ("data", "model")
SHAPE = (2, 4)
