# open the project's modules and print what the server publishes (any project: paths from SPMDFIX_OPEN)
for p in os.environ["SPMDFIX_OPEN"].split(","):
    ds = open_doc(p)
    for d in (ds or [])[:3]:
        print("     ", d.get("severity"), d["message"][:200])
