from pkg.config import W
