DATA_AXIS = 'x'
