# open run.py, list the code actions of its first diagnostic, apply the preferred one, print what is left
p = "src/tblock/block.py"
ds = open_doc(p)
acts = actions(p, ds[0])
pref = [a for a in acts if a.get("isPreferred")]
print("preferred:", [a["title"][:80] for a in pref])
