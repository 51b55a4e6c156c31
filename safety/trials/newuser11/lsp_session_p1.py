# p1: open model.py, train.py and the notebook; list actions on model.py's first diagnostic; apply the preferred
# quick fix of train.py until no diagnostic is left (then run run.py by hand).
d_model = open_doc("src/pkg/model.py")
d_train = open_doc("src/pkg/train.py")
open_doc("explore.ipynb", lang="python")
if d_model:
    for d in d_model[:1]:
        print("  model diag:", json.dumps(d)[:600])
        actions("src/pkg/model.py", d)
def apply_doc_changes(edit):
    for dc in edit.get("documentChanges", []):
        path = Path(dc["textDocument"]["uri"][7:])
        text = path.read_text()
        lines = text.splitlines(keepends=True)
        def off(pos):
            return sum(len(l) for l in lines[:pos["line"]]) + pos["character"]
        for e in sorted(dc["edits"], key=lambda e: off(e["range"]["start"]), reverse=True):
            text = text[:off(e["range"]["start"])] + e["newText"] + text[off(e["range"]["end"]):]
        path.write_text(text); print("   wrote", path.name)
v = 1
while d_train and v < 6:
    acts = actions("src/pkg/train.py", d_train[0])
    pref = [a for a in acts if a.get("isPreferred")]
    if not pref: break
    apply_doc_changes(resolve(pref[0])["edit"])
    v += 1
    d_train = change_doc("src/pkg/train.py", (ROOT / "src/pkg/train.py").read_text(), v)
