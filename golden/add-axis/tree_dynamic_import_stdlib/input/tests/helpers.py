import importlib

json = importlib.import_module("json")


def roundtrip(values):
    return json.loads(json.dumps(values))
