MODEL_AXES = ('y',)
