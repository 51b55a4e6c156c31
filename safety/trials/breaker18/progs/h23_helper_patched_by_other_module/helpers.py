def pick(names, i):
    return names[i]
