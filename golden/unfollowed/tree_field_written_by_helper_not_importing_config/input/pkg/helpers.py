def tweak(cfg):
    cfg.data_axis = 'data'
