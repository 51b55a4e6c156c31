TWO = 2
