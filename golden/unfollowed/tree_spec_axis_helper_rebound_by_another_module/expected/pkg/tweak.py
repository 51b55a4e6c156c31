from pkg import helpers

helpers.pick = lambda names, i: names[i + 1]
