import json


def run_notebook(path):
    ns = {}
    for cell in json.load(open(path))["cells"]:
        if cell["cell_type"] != "code":
            continue
        lines = "".join(cell["source"]).splitlines()
        if lines and lines[0].startswith("%%"):
            lines = lines[1:]
        lines = [l.split(None, 1)[1] if l.startswith(("%time ", "%timeit ")) else l for l in lines]
        exec("\n".join(lines), ns)
    return ns
