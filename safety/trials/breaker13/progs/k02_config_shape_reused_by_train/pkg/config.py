MESH_SHAPE = (2, 4)
MESH_AXES = ('x', 'y')
