def apply_doc_changes(edit):
    out = {}
    for dc in edit["documentChanges"]:
        path = Path(dc["textDocument"]["uri"][7:])
        lines = path.read_text().splitlines(keepends=True)
        def off(pos):
            return sum(len(l) for l in lines[:pos["line"]]) + pos["character"]
        text = "".join(lines)
        for e in sorted(dc["edits"], key=lambda e: off(e["range"]["start"]), reverse=True):
            text = text[:off(e["range"]["start"])] + e["newText"] + text[off(e["range"]["end"]):]
        path.write_text(text); out[str(path)] = text
    return out
d2 = open_doc("src/ddp/train.py")
v = 1
for step in range(3):
    if not d2: break
    acts = actions("src/ddp/train.py", d2[0])
    pref = [a for a in acts if a.get("isPreferred")][0]
    res = resolve(pref)
    texts = apply_doc_changes(res["edit"])
    v += 1
    d2 = change_doc("src/ddp/train.py", (ROOT / "src/ddp/train.py").read_text(), v)
    send("textDocument/didSave", {"textDocument": {"uri": uri("src/ddp/train.py")}}, request=False)
    d2 = wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri("src/ddp/train.py"))["params"]["diagnostics"]
    print("after save:", len(d2))
