from .mlp import block
