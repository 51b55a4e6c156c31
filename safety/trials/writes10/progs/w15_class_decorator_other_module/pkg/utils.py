def override(**values):
    def deco(cls):
        for k, v in values.items():
            setattr(cls, k, v)
        return cls

    return deco
