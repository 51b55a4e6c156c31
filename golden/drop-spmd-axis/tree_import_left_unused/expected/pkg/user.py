from pkg.reexported import DATA

NAME = DATA
