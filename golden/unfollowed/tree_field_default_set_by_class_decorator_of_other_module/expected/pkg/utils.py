def override(**values):
    def decorate(cls):
        for key, value in values.items():
            setattr(cls, key, value)
        return cls

    return decorate
