"""The analysis: pure, source text in, facts out, in the order data flows.

- `scopes`: one module's import-alias table and scopes (what a name means where it is used);
- `values`: static evaluation of axis names, PartitionSpecs and meshes, with the span behind each value;
- `reach`: from a vmapped callable to every shard_map it applies;
- `capture`: what a reached shard_map body closes over (the capture hazard);
- `placement`: where a vmapped input's batch dimension is placed (Explicit mesh axes);
- `facts`: the linter that ties them together (`Analyzer`) and the facts the planner (`spmdfix.plan`) reads.

No module here does I/O or imports a front end.
"""
