import operator
from pkg import config

def factor():
    return operator.attrgetter('MESH')(config).devices.shape[0]
