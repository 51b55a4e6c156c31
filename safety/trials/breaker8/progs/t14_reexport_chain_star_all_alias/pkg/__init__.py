from .layers import mlp_block as forward
