"""The analysis: pure, source text in, facts out, in the order data flows.

- `bindings`: what binds a name, and the one walk of a module that records every binding; `scopes`: one
  module's index, its import-alias resolution and scopes (what a name means where it is used); `members`: what
  `self.name` and a class attribute mean; `follow`: how far every follower goes (one context per walk);
- `values`: the value records (axis names, PartitionSpecs, meshes) and the evaluator that follows names to
  their values, with the span behind each; `specs`: PartitionSpecs and their pytrees; `meshes`: mesh
  constructions, their device shapes and axis types; `unknown_values`: why a value was not read, in words
  (the SPMD910 record of a spec the evaluator gave up on);
- `module_model`: one module's scopes, values and uses together, what every sub-analysis receives;
- `vmap_sites`: the vmaps that pass an spmd_axis_name; `reach`: from a vmapped callable to every shard_map it
  applies (`lost_places`: where that walk loses its way); `shard_maps`: shard_map's spellings; `shard_map_facts`:
  the facts of one construction;
- `batched`: which values the spmd vmap batches along its chain; `capture`: what a reached shard_map body
  closes over (the capture hazard); `lift`: where lift-captures edits; `placement`: where a vmapped
  input's batch dimension is placed (Explicit mesh axes); `stripbody`, `mesh_uses`, `callers`, `vmap_calls`,
  `ranks`: what each fix's safety needs to know (`shapes`: the static shapes and integers they read);
- `reached`: the facts of one reached shard_map, from the recognisers above; `analyzer`: the driver that ties
  them together (`Analyzer`); `facts`: the facts it gives the planner (`spmdfix.plan`), the contract between
  the analysis and the fixes;
- `index`: the other modules of the project, parsed when a name is followed into them; `project_modules`: what
  the index is given (the file system, a module's model) and keeps of each module; `project_answers`: the
  keys and digests of the project's answers a result rests on (who imports a module, who holds a word).

No module here does I/O or imports a front end: the project index is given what it reads
(`project_modules.ProjectFiles`) and how to model a module (tests/test_architecture.py checks both).
"""
