"""Axis conventions shared by the model code."""
DATA = "data"
MODEL = "model"
REDUCE_AXES = ("fsdp",)
