"""A tiny LSP client over stdio for `spmdfix lsp`: open files, print diagnostics and code actions."""
import json, os, subprocess, sys, threading, time, queue
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve()
proc = subprocess.Popen([sys.executable, "-m", "spmdfix.lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, cwd=ROOT)
msgs = queue.Queue()
def reader():
    f = proc.stdout
    while True:
        headers = {}
        while True:
            line = f.readline()
            if not line:
                return
            line = line.decode().strip()
            if not line:
                break
            k, v = line.split(":", 1); headers[k.lower()] = v.strip()
        body = f.read(int(headers["content-length"]))
        msgs.put(json.loads(body))
threading.Thread(target=reader, daemon=True).start()
nid = [0]
def send(method, params, request=True):
    msg = {"jsonrpc": "2.0", "method": method, "params": params}
    if request:
        nid[0] += 1; msg["id"] = nid[0]
    data = json.dumps(msg).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data); proc.stdin.flush()
    return msg.get("id")
def wait(pred, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        try: m = msgs.get(timeout=0.5)
        except queue.Empty: continue
        if m.get("method") == "window/logMessage": print("LOG:", m["params"]["message"][:300])
        if m.get("method") in ("client/registerCapability", "workspace/configuration") and "id" in m:
            data = json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": None}).encode()
            proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data); proc.stdin.flush()
        if pred(m): return m
    return None
def uri(p): return (ROOT / p).as_uri()
i = send("initialize", {"processId": os.getpid(), "rootUri": ROOT.as_uri(), "capabilities": {"textDocument": {"publishDiagnostics": {"relatedInformation": True}}, "workspace": {"workspaceEdit": {"documentChanges": True}}}})
r = wait(lambda m: m.get("id") == i); print("init:", sorted(r["result"]["capabilities"]))
send("initialized", {}, request=False)
def open_doc(p, text=None, lang="python"):
    text = text if text is not None else (ROOT / p).read_text()
    send("textDocument/didOpen", {"textDocument": {"uri": uri(p), "languageId": lang, "version": 1, "text": text}}, request=False)
    m = wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri(p))
    diags = m["params"]["diagnostics"] if m else None
    print(f"== {p}: {None if diags is None else len(diags)} diagnostics")
    for d in diags or []:
        print("  ", d["range"]["start"], d.get("code"), d["message"][:90])
    return diags
def change_doc(p, text, version):
    send("textDocument/didChange", {"textDocument": {"uri": uri(p), "version": version}, "contentChanges": [{"text": text}]}, request=False)
    m = wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri(p))
    diags = m["params"]["diagnostics"] if m else None
    print(f"== {p} v{version}: {None if diags is None else len(diags)} diagnostics")
    for d in diags or []:
        print("  ", d["range"]["start"], d.get("code"), d["message"][:90])
    return diags
def actions(p, diag):
    i = send("textDocument/codeAction", {"textDocument": {"uri": uri(p)}, "range": diag["range"], "context": {"diagnostics": [diag]}})
    r = wait(lambda m: m.get("id") == i)
    out = r.get("result") or []
    for a in out:
        print("   action:", a.get("title")[:100], a.get("kind"), a.get("isPreferred"), "edit" in a)
    return out
def resolve(a):
    if "edit" in a: return a
    i = send("codeAction/resolve", a)
    return wait(lambda m: m.get("id") == i).get("result")
exec(Path(sys.argv[2]).read_text())
send("shutdown", None); send("exit", None, request=False)
time.sleep(0.5); proc.kill()
