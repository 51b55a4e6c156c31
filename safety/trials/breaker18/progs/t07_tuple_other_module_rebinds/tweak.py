import consts
consts.AX = ('x', 'y', 'z')
