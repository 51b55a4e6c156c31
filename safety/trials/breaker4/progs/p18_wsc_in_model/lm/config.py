BATCH = "data"
EMBED = "model"
ACT_SPEC = (BATCH, None)
