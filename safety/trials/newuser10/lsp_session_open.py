d = open_doc("src/ddp/model.py")
acts = actions("src/ddp/model.py", d[0])
pref = [a for a in acts if a.get("isPreferred")]
if pref:
    r = resolve(pref[0]); print(json.dumps(r.get("edit"))[:1500])
d2 = open_doc("src/ddp/train.py")
d3 = open_doc("explore.ipynb", lang="python")
# edit train.py in the buffer: spmd axis MODEL -> DATA for step_model; model.py should update
t = (ROOT / "src/ddp/train.py").read_text().replace("spmd_axis_name=config.MODEL", "spmd_axis_name=config.DATA")
change_doc("src/ddp/train.py", t, 2)
m = wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri("src/ddp/model.py"), 10)
print("model.py republished:", None if m is None else len(m["params"]["diagnostics"]))
# broken buffer
change_doc("src/ddp/train.py", t + "\ndef broken(:\n", 3)
