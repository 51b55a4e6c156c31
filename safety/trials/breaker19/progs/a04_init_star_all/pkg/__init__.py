from .config import *
