from pkg.model import accumulate
