def tweak(obj, key, value):
    setattr(obj, key, value)
