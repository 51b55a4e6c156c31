from pkg import config


def use_model_axis():
    config.CFG.batch_axis = 'y'
